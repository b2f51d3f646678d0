"""In a real chromium: seeing what the opponent did (its checkers slide
in, not with prefers-reduced-motion) and what resigning costs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD, shot
from tests.web.support import invite_and_accept
from tests.web.test_browser import create, login, press, settle

pytestmark = pytest.mark.django_db(transaction=True)


def animated(page: Any) -> int:
    return int(page.locator("#board").get_attribute("data-animated") or 0)


def test_the_opponents_turn_slides_in_unless_reduced_motion(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    pair = invite_and_accept(open_page, make_user)
    alice, bob, match_id = pair.inviter, pair.guest, pair.match_id
    bob.emulate_media(reduced_motion="reduce")   # read when a turn would slide
    seeded_dice(6, 1, 3, 1, 5, 2)
    alice.click("#roll")
    bob.wait_for_function("() => document.querySelector('#status').textContent"
                          ".includes('White 6')")
    bob.click("#roll")
    alice.wait_for_selector("#roll")
    press(alice, "#roll", match_id, hotseat=False)

    # Alice's own drafted step slides.
    assert animated(alice) == 0
    alice.click('#board svg [data-key="p24"]')
    alice.click('#board svg [data-key="p21"]')
    assert animated(alice) == 1
    alice.click('#board svg [data-key="p21"]')
    press(alice, '#board svg [data-key="p20"]', match_id, hotseat=False)
    # Bob asked for reduced motion: his board shows the turn at once, nothing slides.
    bob.wait_for_selector('#board svg [data-key="p8"][data-count="1"][data-last="to"]')
    assert animated(bob) == 0

    # Bob's turn slides in on Alice's board (one chain per checker moved).
    before = animated(alice)
    press(bob, "#roll", match_id, hotseat=False)
    # Black's head counter is drawn at Black's head (Alice's 12), clear of the dice.
    badge = alice.locator("#board svg .head-badge")
    badge.wait_for()
    assert (badge.get_attribute("data-point"), badge.get_attribute("data-owner")) == (
        "12", "theirs")
    assert alice.locator("#board svg .dice").get_attribute("data-owner") == "theirs"
    assert alice.evaluate("""() => {
        const r = document.querySelector('#board svg .head-badge rect').getBoundingClientRect();
        return [...document.querySelectorAll('#board svg .die rect')].every(d => {
          const b = d.getBoundingClientRect();
          return b.right <= r.left || b.left >= r.right || b.bottom <= r.top || b.top >= r.bottom;
        }); }""")
    bob.click('#board svg [data-key="p24"]')
    bob.click('#board svg [data-key="p19"]')
    bob.click('#board svg [data-key="p19"]')
    press(bob, '#board svg [data-key="p17"]', match_id, hotseat=False)
    alice.wait_for_function("n => Number(document.querySelector('#board').dataset.animated) > n",
                            arg=before)
    assert animated(bob) == 0
    # In Alice's numbering Black's 24/19 19/17 is 12/7 7/5.
    alice.wait_for_selector('#log .turn.black:has-text("12/7 7/5")')
    assert alice.locator('#board svg [data-key="p12"]').get_attribute("data-last") == "from"
    alice.wait_for_timeout(600)   # the slide is over
    shot(alice, "last-move")


def test_the_resign_confirm_says_what_it_costs(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("quitter", password=PASSWORD)
    page = open_page()
    login(page, "quitter")
    match_id = create(page, mode="hotseat", length="3")
    settle(page, match_id, hotseat=True)
    seeded_dice(5, 2)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 5')")
    match = press(page, "#roll", match_id)
    assert match["state"]["resign"] == {"side": "white", "points": 2, "result": "mars",
                                        "offers": [{"result": "single", "points": 1}]}
    page.click("#resign")
    # Nobody is off yet: resigning concedes a mars (R30), 2 points.
    expect(page.locator("#resign")).to_have_text(
        "Resign: you lose 2 points (mars) — press again to confirm (white)")
    match = press(page, "#resign", match_id)
    assert match["score"] == {"white": 0, "black": 2}


def test_resigning_the_game_or_the_whole_match(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    """The armed Resign offers the whole match too (when the game's points would not end
    it), with what it costs; the roll the resignation left unplayed is said so in the
    log, not left as "White 4-4: …"."""
    from playwright.sync_api import expect

    make_user("leaver", password=PASSWORD)
    page = open_page()
    login(page, "leaver")
    match_id = create(page, mode="hotseat", length="5")
    settle(page, match_id, hotseat=True)
    seeded_dice(5, 2, 4, 4)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 5')")
    press(page, "#roll", match_id)
    match = press(page, "#roll", match_id)   # White's 4-4, not played
    assert match["state"]["phase"] == "move"
    expect(page.locator("#resign-match")).to_have_count(0)   # not before Resign is pressed
    page.click("#resign")
    expect(page.locator("#resign-match")).to_have_text(
        "Resign the match: you lose this game's 2 points and the match (white)")
    page.click("#resign-match")
    page.wait_for_selector("#board[data-status=finished]")
    match = settle(page, match_id)
    assert (match["status"], match["winner"], match["score"]) == (
        "finished", "black", {"white": 0, "black": 2})
    expect(page.locator("#log .turn.white").last).to_have_text(
        "1. White 4-4: not played: the game was resigned")
