"""Edges where R19/R21 meet R28 through the API (the analysis side: test_analysis_api.py)."""

from __future__ import annotations

import pytest

from tests.support import assert_error, set_board, start_match, steps_of

pytestmark = pytest.mark.django_db


def test_R21_R28_last_checker_with_two_dice_that_both_bear_it_off_uses_the_larger(
        alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    set_board(match_id, {1: 1, 12: -15}, off_mine=14)
    scripted_dice(3, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(1, 0, 3)}
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 1, "to": 0,
                                                           "die": 1}]}),
                 400, "illegal_move", reason="must_play_larger")
    done = alice.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0}]})
    assert done["applied"] == [{"from": 1, "to": 0, "die": 3, "hit": False}]


def test_R19_literal_both_dice_must_be_played_when_an_order_plays_both(alice, bob,
                                                                        scripted_dice):
    """Literal R19: 2/1 1/off plays both dice, so 2/off with the 2 alone is not offered.

    (Debatable: the engine counts a play that ends the game as complete; see the report.)
    """
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    set_board(match_id, {2: 1, 12: -15}, off_mine=14)
    scripted_dice(2, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(2, 1, 1)}
