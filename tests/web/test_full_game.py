"""A whole hotseat Long Nardy game through the page, from the roll-off to the last
checker borne off, every step chosen by clicks (no position set in the database): the
server's dice planned by the test (``tests.dice.planned`` through ``scripted_dice``),
5-5 for both sides, which makes a short game in which neither side blocks the other
(White lands on its 19, 14, 9, 4; Black on White's 12, 7, 2, 21, 16)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD
from tests.web.test_browser import create, login, play_turn, press, settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_whole_hotseat_long_nardy_game_to_its_end(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        scripted_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("wholegame", password=PASSWORD)
    page = open_page()
    login(page, "wholegame")
    match_id = create(page, mode="hotseat", length="1")
    settle(page, match_id, hotseat=True)

    scripted_dice(5, 2, *[5] * 200)   # the roll-off: White starts; then 5-5 every roll
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 5')")
    match = press(page, "#roll", match_id)
    turns = 0
    while match["status"] == "active":
        assert turns < 60, "the game should be over by now"
        match = play_turn(page, match_id)
        turns += 1
    assert match["status"] == "finished" and match["winner"] == "white"
    games = page.evaluate("() => fetch(location.pathname.replace('/play/', '/api/v1/') + "
                          f"'matches/{match_id}/games/').then(r => r.json())")
    game = games[0]
    assert game["winner"] == "white", game
    points = game["points"]
    assert match["score"] == {"white": points, "black": 0}
    result = "mars" if game["mars"] else "single"
    unit = "point" if points == 1 else "points"
    expect(page.locator("#log .game-result")).to_have_text(
        f"Game 1: White wins {points} {unit} — {result}")
    expect(page.locator("#status")).to_have_text(f"Match over: White wins {points}–0.")
    assert page.locator("#log .turn").count() >= turns
    assert page.locator("#board svg .pt.source").count() == 0
    assert page.locator("#rematch").is_visible()
