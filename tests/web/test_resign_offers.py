"""Resigning with choices on the play page: the armed Resign offers the cheaper results
with what each costs; the computer answers an offer of a gammon and the log shows the
game's result; at a shared screen the other side sees the offer with Accept and Refuse.
Playwright on Debian's chromium, as test_browser.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import api_get, create, login, settle

pytestmark = pytest.mark.django_db(transaction=True)
IMMEDIATE = "django_tasks.backends.immediate.ImmediateBackend"


def test_offering_the_computer_a_gammon_ends_the_game_with_it(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any], settings: Any) -> None:
    from playwright.sync_api import expect

    settings.TASKS = {"default": {"BACKEND": IMMEDIATE, "QUEUES": ["default"]}}
    make_user("resigner", password=PASSWORD)
    page = open_page()
    login(page, "resigner")
    page.select_option("#create-mode", "computer")
    match_id = create(page, computer="heuristic", rules="backgammon", color="white",
                      length="3")
    settle(page, match_id)
    seeded_dice(6, 1)  # our roll-off die, then the computer's: we play the 6-1 (H4)
    page.click("#roll")
    page.wait_for_selector("#board[data-phase=move][data-turn=white]")

    # Resign, pressed once, says what resigning costs and what may be offered instead.
    page.click("#resign")
    expect(page.locator("#resign")).to_have_text(
        "Resign: you lose 3 points (backgammon) — press again to confirm")
    expect(page.locator("#resign-offer-single")).to_have_text(
        "Offer to resign a single: you would lose 1 point")
    expect(page.locator("#resign-offer-gammon")).to_have_text(
        "Offer to resign a gammon: you would lose 2 points")
    expect(page.locator("#resign-offer-backgammon")).to_have_count(0)  # not cheaper
    shot(page, "resign-offers")
    page.click("#resign-offer-gammon")

    # The computer accepts (playing on is not worth more to its race estimate).
    result = page.locator('#log li.game-result[data-game="1"]')
    expect(result).to_have_text("Game 1: Black wins 2 points — gammon, resigned")
    expect(page.locator('#log li.resign-offer[data-game="1"]')).to_have_text(
        "White offers to resign (gammon, 2 points) — Black accepts")
    # The roll the offer interrupted is not shown as a turn still being played.
    expect(page.locator('#log li.turn[data-game="1"]')).to_have_text(
        "1. White 6-1: not played: the game was resigned")
    match = api_get(page, f"matches/{match_id}/")
    assert match["score"] == {"white": 0, "black": 2}
    game = api_get(page, f"matches/{match_id}/games/")[0]
    assert (game["result"], game["end_reason"], game["points"]) == ("gammon", "resigned", 2)


def test_at_a_shared_screen_the_other_side_refuses_and_play_goes_on(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("sharer", password=PASSWORD)
    page = open_page()
    login(page, "sharer")
    page.select_option("#create-mode", "hotseat")
    match_id = create(page, length="3")
    settle(page, match_id, hotseat=True)
    seeded_dice(6, 1)
    # Each roll-off die once the page shows the one before and takes presses again.
    for _ in range(2):
        version = page.locator("#board").get_attribute("data-version")
        page.click("#roll")
        page.wait_for_function("""v => { const b = document.querySelector('#board');
            return b.dataset.version !== v && b.dataset.busy === 'false'; }""", arg=version)
    page.wait_for_selector("#board[data-phase=roll][data-turn=white]")

    # R30: nobody is off, resigning concedes a mars; White offers a single instead.
    page.click("#resign")
    page.click("#resign-offer-single")
    page.wait_for_selector("#board[data-phase=resign][data-turn=black]")
    expect(page.locator("#status")).to_have_text(
        "White offers to resign (single); Black answers.")
    expect(page.locator("#resign-accept")).to_have_text("Accept: win 1 point (single)")
    expect(page.locator("#resign")).to_have_count(0)
    shot(page, "resign-offer-answer")
    page.click("#resign-refuse")
    page.wait_for_selector("#board[data-phase=roll][data-turn=white]")
    expect(page.locator('#log li.resign-offer')).to_have_text(
        "White offers to resign (single, 1 point) — Black refuses")
    # The same offer is not made again in this turn: only resigning is left.
    page.click("#resign")
    expect(page.locator("#resign")).to_have_text(
        "Resign: you lose 2 points (mars) — press again to confirm (white)")
    expect(page.locator("[id^=resign-offer-]")).to_have_count(0)
