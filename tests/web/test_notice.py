"""In a real chromium: the inviter is taken to the match when the
invitation is accepted, a "your move" tab title, an optional sound (off by default,
remembered), and the result from the viewer's side with the winner's score first and
the rule set's explanation of a mars."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services
from tests.web.conftest import elsewhere
from tests.web.support import invite_and_accept
from tests.web.test_browser import settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_invited_turn_title_sound_and_result_from_each_side(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    # The inviter's lobby follows the acceptance to the match, without a click.
    pair = invite_and_accept(open_page, make_user, follow=True, live=False)
    alice, bob, match_id = pair.inviter, pair.guest, pair.match_id
    bob_user = pair.users[1]

    # The sound is off until asked for, and remembered.
    expect(alice.locator("#sound")).not_to_be_checked()
    alice.check("#sound")
    alice.reload()
    settle(alice, match_id)
    expect(alice.locator("#sound")).to_be_checked()
    beeps = int(alice.evaluate("() => document.body.dataset.beeps || 0"))

    seeded_dice(6, 2, 3, 1)
    alice.click("#roll")
    bob.wait_for_function("() => document.querySelector('#status').textContent"
                          ".includes('White 6')")
    bob.click("#roll")
    # White starts: Alice's tab says it is her move, with the beep she asked for.
    expect(alice).to_have_title("● Your move — Nardy — play")
    expect(bob).to_have_title("Nardy — play")
    alice.wait_for_function("n => Number(document.body.dataset.beeps || 0) > n", arg=beeps)
    assert bob.evaluate("() => document.body.dataset.beeps || '0'") == "0"   # off: no sound
    elsewhere(services.match_resign, match_id=match_id, user=bob_user)
    # Resigning with nothing off concedes a mars: 2–0 for White, each from their side,
    # the winner's score first (as the lobby's "The computer won 1–0").
    expect(alice.locator("#status")).to_have_text("Match over: you won 2–0.")
    expect(bob.locator("#status")).to_have_text("Match over: you lost 2–0.")
    expect(alice).to_have_title("Nardy — play")


def test_the_rating_change_is_shown_again_after_a_reload(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any], settings: Any) -> None:
    """A rated match's end says each player's new rating and its change — live, and
    again when the finished match's page is opened or reloaded (from its match_over
    event), not only from the live event. (The match ends within its first turns: no
    minimum of turns for a rated match here, RATED_MIN_TURNS.)"""
    from playwright.sync_api import expect

    settings.RATED_MIN_TURNS = 0
    pair = invite_and_accept(open_page, make_user)
    alice, bob, match_id = pair.inviter, pair.guest, pair.match_id
    assert pair.match["rated"] is True
    seeded_dice(6, 2)
    alice.click("#roll")
    bob.wait_for_function("() => document.querySelector('#status').textContent"
                          ".includes('White 6')")
    bob.click("#roll")
    elsewhere(services.match_resign, match_id=match_id, user=pair.users[1])
    for page, sign in ((alice, "+"), (bob, "\u2212")):
        expect(page.locator("#notice")).to_contain_text("Your rating: ")
        expect(page.locator("#notice")).to_contain_text(f"({sign}")
        text = page.inner_text("#notice")
        page.reload()
        settle(page, match_id)
        expect(page.locator("#notice")).to_have_text(text)
