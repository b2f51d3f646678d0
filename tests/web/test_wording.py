"""The play page's words from the reader's side: who won a match in the lobby ("You won
2–0", "The computer won 1–0", "carol won 2–0"), an offer that waits ("accept or refuse"
to the side that answers), the opponent's choices in full, the log-in page naming the
computer. Playwright on Debian's chromium, as test_browser.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services
from tests.admin.conftest import resigned_match
from tests.dice import planned as planned_dice
from tests.web.conftest import PASSWORD, elsewhere, shot
from tests.web.test_browser import login, press, settle
from tests.web.test_offers import cube_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lobby_says_who_won_from_the_viewers_side(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob, carol, program = make_user("bob"), make_user("carol"), make_user("program")
    won = resigned_match(alice, bob, mars=True)         # Bob (Black) resigns a mars
    lost = resigned_match(carol, alice, mars=True)      # Alice (Black) resigns a mars
    beaten = resigned_match(program, alice, mars=False)  # ... a single game
    program.username, program.is_bot = "computer-heuristic", True  # the built-in account
    program.save()
    page = open_page()
    login(page, "alice")

    def status(match: Any) -> Any:
        return page.locator(f'#my-matches .match-row[data-match="{match.pk}"] .status')

    expect(status(won)).to_have_text("You won 2–0")
    expect(status(lost)).to_have_text("carol won 2–0")   # the winner's score first
    expect(status(beaten)).to_have_text("The computer won 1–0")
    shot(page, "lobby-won")


@pytest.mark.parametrize("bot", [False, True], ids=["player", "computer"])
def test_an_offer_says_who_answers(open_page: Callable[..., Any],
                                   make_user: Callable[..., Any], bot: bool) -> None:
    from playwright.sync_api import expect

    page, _, bob, match_id = cube_match(open_page, make_user, bot=bot)
    them = "the computer" if bot else "Black"
    press(page, "#offer", match_id, hotseat=False)
    expect(page.locator("#status")).to_have_text(
        f"You offer to raise the stake to 2; {them} answers.")
    elsewhere(services.match_accept, match_id=match_id, user=bob)
    settle(page, match_id)
    with planned_dice([3, 1]):
        press(page, "#roll", match_id, hotseat=False)
    page.click('#board svg [data-key="p24"]')
    press(page, '#board svg [data-key="p21"]', match_id, hotseat=False)
    page.click('#board svg [data-key="p21"]')
    press(page, '#board svg [data-key="p20"]', match_id, hotseat=False)
    elsewhere(services.match_offer, match_id=match_id, user=bob)
    expect(page.locator("#status")).to_have_text(
        ("The computer offers" if bot else "Black offers")
        + " to raise the stake to 4: accept or refuse.")
    expect(page.locator("#accept")).to_be_visible()
    expect(page.locator("#refuse")).to_be_visible()


# Each choice of a select, measured in the select's own font, against the room the
# select has for its text (its padding and the arrow taken off).
CHOICES_JS = """sel => {
  const cs = getComputedStyle(sel);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return [...sel.options].map(o => [o.text, Math.ceil(ctx.measureText(o.text).width), room]);
}"""


@pytest.mark.parametrize(("lang", "width"), [("en", 1280), ("ru", 1280), ("en", 390),
                                             ("ru", 390), ("en", 1024)])
def test_the_opponent_choices_fit_their_box(
        browser: Any, live_server: Any, make_user: Callable[..., Any], lang: str,
        width: int) -> None:
    from playwright.sync_api import expect

    make_user("chooser", password=PASSWORD)
    context = browser.new_context(locale=lang, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/play/?lang={lang}")
    intro = page.locator(".lobby .intro")
    expect(intro).to_contain_text("against the computer" if lang == "en"
                                  else "против компьютера")
    login(page, "chooser")
    page.wait_for_function("() => document.querySelectorAll('#create-mode option').length >= 4")
    choices = page.locator("#create-mode").evaluate(CHOICES_JS)
    assert [c for c in choices if c[1] > c[2]] == [], choices
    context.close()
