"""Stake offers on the play page: each offer and its answer is a line of the move log
("White offers 2 — Black accepts"), and the page says so when the other side answers
our offer. Playwright on Debian's chromium, as test_browser.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services
from tests.dice import planned as planned_dice
from tests.web.conftest import PASSWORD, elsewhere, shot
from tests.web.test_browser import api_get, login, press, settle

pytestmark = pytest.mark.django_db(transaction=True)


def watched_match(open_page: Callable[..., Any], make_user: Callable[..., Any],
                  length: int = 1, bot: bool = False, **create: Any) -> tuple[Any, Any, Any, int]:
    """Alice (White) on her page, Bob (Black) through the services, the match made with
    ``create``; the roll-off played (6-1): White to roll. ``bot``: a program plays Bob's
    account (its profile says so)."""
    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD, is_bot=bot)
    match = services.match_create(user=alice, length=length, opponent="bob", color="white",
                                  **create)
    services.match_join(match_id=match.pk, user=bob)
    with planned_dice([6, 1]):
        elsewhere(services.match_roll, match_id=match.pk, user=alice)
        elsewhere(services.match_roll, match_id=match.pk, user=bob)
    page = open_page()
    login(page, "alice")
    page.goto(page.url.split("#")[0] + f"#/match/{match.pk}")
    settle(page, match.pk)
    page.wait_for_selector("#live[data-state=live]")
    return page, alice, bob, match.pk


def cube_match(open_page: Callable[..., Any], make_user: Callable[..., Any],
               length: int = 3, bot: bool = False) -> tuple[Any, Any, Any, int]:
    """:func:`watched_match` with the doubling cube: White to roll, either side may offer."""
    return watched_match(open_page, make_user, length, bot, stakes="cube")


def play_3_1(page: Any, match_id: int) -> None:
    """White rolls 3-1 on the page and plays 24/21 21/20 (Long Nardy's opening head)."""
    with planned_dice([3, 1]):
        press(page, "#roll", match_id, hotseat=False)
    page.click('#board svg [data-key="p24"]')
    press(page, '#board svg [data-key="p21"]', match_id, hotseat=False)
    page.click('#board svg [data-key="p21"]')
    press(page, '#board svg [data-key="p20"]', match_id, hotseat=False)


def offer_lines(page: Any) -> list[str]:
    return page.eval_on_selector_all("#log li.offer", "els => els.map(e => e.textContent.trim())")


def test_offers_and_answers_are_lines_of_the_log(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    page, _, bob, match_id = cube_match(open_page, make_user)
    press(page, "#offer", match_id, hotseat=False)
    expect(page.locator("#log li.offer")).to_have_text("White offers 2 — Black to answer")
    # Bob accepts: the page says so, and the log line gets its answer.
    elsewhere(services.match_accept, match_id=match_id, user=bob)
    expect(page.locator("#notice")).to_have_text(
        "Black accepts your raise: the stake is now 2.")
    expect(page.locator("#log li.offer")).to_have_text("White offers 2 — Black accepts")
    settle(page, match_id)

    # White's turn; then Black offers 4 and White refuses from the page.
    play_3_1(page, match_id)
    expect(page.locator("#notice")).to_be_hidden()   # we acted since
    elsewhere(services.match_offer, match_id=match_id, user=bob)
    page.wait_for_selector("#refuse")
    shot(page, "offer-in-log")
    press(page, "#refuse", match_id, hotseat=False)
    # Game 1's record: the accepted offer before turn 1, the refused one after turn 1.
    game1 = page.locator('#log li[data-game="1"]')
    expect(game1).to_have_count(5)   # head, offer, turn, offer, result
    classes = game1.evaluate_all("els => els.map(e => e.className.split(' ')[0])")
    assert classes == ["game-head", "offer", "turn", "offer", "game-result"], classes
    assert offer_lines(page) == ["White offers 2 — Black accepts",
                                 "Black offers 4 — White refuses"]
    expect(page.locator('#log li.turn[data-game="1"]')).to_have_text(
        "1. White 3-1: 24/21 21/20")   # the turns keep their numbers


def test_the_page_says_when_the_other_side_refuses_our_offer(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    page, _, bob, match_id = cube_match(open_page, make_user)
    press(page, "#offer", match_id, hotseat=False)
    elsewhere(services.match_refuse, match_id=match_id, user=bob)
    expect(page.locator("#notice")).to_have_text(
        "Black refuses your raise to 2: you win the game.")
    expect(page.locator("#log li.offer")).to_have_text("White offers 2 — Black refuses")
    expect(page.locator('#log li.game-result[data-game="1"]')).to_contain_text(
        "White wins 1 point")


CUBE_AT = """() => {
  const svg = document.querySelector('#board svg').getBoundingClientRect();
  const cube = document.querySelector('#board svg .cube');
  const box = cube.getBoundingClientRect();
  return { owner: cube.dataset.owner, face: cube.querySelector('text').textContent,
           label: cube.getAttribute('aria-label'),
           y: (box.top + box.height / 2 - svg.top) / svg.height };
}"""


def test_the_cube_sits_in_the_middle_then_at_its_owners_edge(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """Centred (64 on its face) while nobody owns it; after Black accepts
    it is Black's, at the top edge of White's board (the opponent's side); after White
    accepts Black's redouble it is White's, at the bottom edge. The label says whose."""
    page, _, bob, match_id = cube_match(open_page, make_user)
    cube = page.evaluate(CUBE_AT)
    assert (cube["owner"], cube["face"]) == ("none", "64")
    assert abs(cube["y"] - 0.5) < 0.02
    assert cube["label"].startswith("Doubling cube at 1, in the middle: nobody owns it.")
    press(page, "#offer", match_id, hotseat=False)
    elsewhere(services.match_accept, match_id=match_id, user=bob)
    page.wait_for_selector("#board svg .cube[data-owner=theirs]")
    cube = page.evaluate(CUBE_AT)
    assert cube["face"] == "2" and cube["y"] < 0.15
    assert cube["label"].startswith("Doubling cube at 2, owned by Black.")
    settle(page, match_id)
    play_3_1(page, match_id)
    page.wait_for_selector("#board svg .cube[data-owner=theirs]")
    elsewhere(services.match_offer, match_id=match_id, user=bob)
    page.wait_for_selector("#accept")
    press(page, "#accept", match_id, hotseat=False)
    page.wait_for_selector("#board svg .cube[data-owner=mine]")
    cube = page.evaluate(CUBE_AT)
    assert cube["face"] == "4" and cube["y"] > 0.85
    shot(page, "cube-owned")
    assert cube["label"].startswith("Doubling cube at 4, owned by White.")
    assert api_get(page, f"matches/{match_id}/")["state"]["stake_holder"] == "white"
