"""Edges where R19/R21 meet R28, the analysis `max_dice`, and rematch versions."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.conftest import assert_error
from tests.review.helpers import analyse, set_board, steps_of
from tests.support import start_match

pytestmark = pytest.mark.django_db


def test_analysis_max_dice_counts_the_two_dice_play_that_exists(api):
    # Last White checker on 2, roll 2-1: 2/1 then 1/off is a legal play of both dice
    # (R19), so the most dice a legal play uses is 2, whatever the status of 2/off.
    body = analyse(api, {2: 1, 12: -15}, (2, 1), mine=14)
    assert body["max_dice"] == 2, body
    assert all(len(p["steps"]) == 2 for p in body["plays"]), body


def test_R21_R28_last_checker_with_two_dice_that_both_bear_it_off_uses_the_larger(
        alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    set_board(match_id, {1: 1, 12: -15}, off_mine=14)
    scripted_dice(3, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(1, 0, 3)}
    error = assert_error(alice.post(match_id, "moves", {"steps": [{"from": 1, "to": 0,
                                                                   "die": 1}]}),
                         400, "illegal_move")
    assert error["details"]["reason"] == "must_play_larger"
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


def test_rematch_with_a_stale_expected_version_is_409_and_creates_nothing(alice, bob,
                                                                         scripted_dice):
    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    finished = bob.ok(match_id, "resign")
    assert finished["status"] == "finished"
    count = Match.objects.count()
    response = alice.post(match_id, "rematch", {"expected_version": finished["version"] - 1})
    assert_error(response, 409, "version_conflict")
    assert Match.objects.count() == count
