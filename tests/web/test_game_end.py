"""In a real chromium: the end of a game marks the winning turn — its moved checkers
and its dice — on the board, live and after a reload, never an earlier turn of the
loser's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support import set_board
from tests.web.support import hotseat_rolled_off
from tests.web.test_browser import press, settle
from tests.web.test_family import finish_turn, roll

pytestmark = pytest.mark.django_db(transaction=True)

MARKS = """() => Object.fromEntries([...document.querySelectorAll('#board svg [data-last]')]
  .filter(e => e.dataset.last).map(e => [e.dataset.key || e.dataset.tray, e.dataset.last]))"""
LAST_DICE = """() => [...document.querySelectorAll('#board svg .last-dice .die')]
  .map(d => d.getAttribute('aria-label'))"""


def test_the_winning_turn_is_marked(open_page: Callable[..., Any],
                                    make_user: Callable[..., Any],
                                    seeded_dice: Callable[..., Any]) -> None:
    page, match_id = hotseat_rolled_off(open_page, make_user, seeded_dice, "ender", 6, 1)
    seeded_dice(3, 2)
    roll(page, match_id)
    finish_turn(page, match_id)               # White's turn
    seeded_dice(5, 4)
    roll(page, match_id)
    finish_turn(page, match_id)               # Black's: the loser's last turn
    # White's last two checkers on its 1: 1-1 bears both off and wins.
    set_board(match_id, {1: 2, 20: -15}, off_mine=13, turn="white")
    page.reload()
    settle(page, match_id, hotseat=True)
    seeded_dice(1, 1)
    match = roll(page, match_id)
    page.click('#board svg [data-key="p1"]')
    match = press(page, '#board svg [data-key="off"]', match_id)
    page.click('#board svg [data-key="p1"]')
    match = press(page, '#board svg [data-key="off"]', match_id)
    assert match["status"] == "finished"
    for _ in range(2):   # live, then after a reload
        try:
            page.wait_for_function(f"() => JSON.stringify(({MARKS})()) === "
                                   """'{"p1":"from","off":"to"}'""", timeout=5000)
        finally:
            marks = page.evaluate(MARKS)
        assert marks == {"p1": "from", "off": "to"}, marks
        assert page.evaluate(LAST_DICE) == ["die 1 of the last turn"] * 2
        page.reload()
        settle(page, match_id)
