"""Stake decisions follow the documented rule (computer.stakes, S1-S7)."""

from __future__ import annotations

import random

import pytest

import computer
from computer.board import ruleset
from computer.stakes import OFFER_MIN, Situation, game_equity, should_accept, should_offer


def test_take_point_without_marses_is_a_quarter():
    assert should_accept([0.25, 0, 0, 0, 0], 1, 2)
    assert not should_accept([0.24, 0, 0, 0, 0], 1, 2)


def test_marses_move_the_take_point():
    # 30 % to win, but 20 % to lose a mars: E = -0.4 - 0.2 = -0.6 < -0.5
    assert not should_accept([0.30, 0, 0, 0.20, 0], 1, 2)
    # with dave stakes a mars counts 1 (S6): E = -0.4 >= -0.5
    assert should_accept([0.30, 0, 0, 0.20, 0], 1, 2, mars=False)


def test_arithmetic_progression_takes_wider():
    # 3 -> 4: refusing loses 3, playing on risks 4: take while E >= -0.75
    assert should_accept([0.13, 0, 0, 0, 0], 3, 4)
    assert not should_accept([0.13, 0, 0, 0, 0], 1, 2)


def test_offer_window():
    assert OFFER_MIN == 0.36
    assert should_offer([0.68, 0, 0, 0, 0], 1, 2)
    assert not should_offer([0.67, 0, 0, 0, 0], 1, 2)
    # too good: 90 % to win with 50 % marses is E = 1.3, worth more than a refusal
    assert not should_offer([0.90, 0.50, 0, 0, 0], 1, 2)
    assert should_offer([0.90, 0.50, 0, 0, 0], 1, 2, mars=False)
    assert game_equity([0.9, 0.5, 0, 0, 0]) == pytest.approx(1.3)


def test_bad_raise_is_refused():
    with pytest.raises(ValueError):
        should_accept([0.5, 0, 0, 0, 0], 2, 2)


def _race(my_pips_point: int, their_pips_point: int):
    """White with 15 checkers on its point ``my_pips_point``; Black on its own."""
    rs = ruleset("long_nardy")
    black_on = my = my_pips_point
    theirs = their_pips_point
    del black_on
    # Black's own point q is White's q + 12 (q <= 12): give White's numbering.
    return rs.position_from_perspective(0, {my: 15, theirs + 12: -15})


def test_api_heuristic_offers_far_ahead_and_refuses_far_behind():
    ahead = _race(1, 6)          # White 15 pips, Black 90
    assert computer.stake_decision("long_nardy", "heuristic", ahead, 0, question="offer",
                                   stake=1, next_stake=2)
    # Black answers White's offer in that position: hopeless, refuse.
    assert not computer.stake_decision("long_nardy", "heuristic", ahead, 1,
                                       question="accept", stake=1, next_stake=2)
    even = _race(3, 3)
    assert not computer.stake_decision("long_nardy", "heuristic", even, 0, question="offer",
                                       stake=1, next_stake=2)
    assert computer.stake_decision("long_nardy", "heuristic", even, 1, question="accept",
                                   stake=1, next_stake=2)


def test_api_random_and_bad_question():
    position = ruleset("long_nardy").initial()
    answers = {computer.stake_decision("long_nardy", "random", position, 0, question="offer",
                                       stake=1, next_stake=2, rng=random.Random(s))
               for s in range(20)}
    assert answers == {True, False}
    with pytest.raises(ValueError):
        computer.stake_decision("long_nardy", "heuristic", position, 0,
                                question="double", stake=1, next_stake=2)  # type: ignore[arg-type]


# --- the match score first (one rule for the server and the client) ---------------------


def _situation(**changes):
    base = {"stakes": "cube", "progression": "geometric", "length": 5, "own": 0,
            "opponent": 0, "stake": 1}
    return Situation(**{**base, **changes})


def test_situation_reads_the_api_match():
    match = {"stakes": "dave", "progression": "arithmetic", "length": 7,
             "score": {"white": 2, "black": 5},
             "state": {"stake": 3, "offer": {"by": "white", "stake": 4}}}
    assert Situation.of_api_match(match, "black") == Situation(
        stakes="dave", progression="arithmetic", length=7, own=5, opponent=2, stake=3,
        offered=4)
    before = {**match, "state": {"stake": 3, "offer": None}}
    seen = Situation.of_api_match(before, "white")
    assert (seen.own, seen.opponent, seen.offered, seen.next_stake, seen.mars) == (
        2, 5, None, 4, False)  # S4 arithmetic; S6 no mars with dave


def test_a_dead_cube_and_a_refusal_that_loses_the_match():
    assert _situation(own=4).a_win_takes_the_match          # 1 >= 5 - 4
    assert not _situation(own=3).a_win_takes_the_match
    assert _situation(own=3, stake=2).a_win_takes_the_match  # 2 >= 5 - 3
    assert _situation(opponent=4).refusal_loses_the_match
    assert not _situation(opponent=3).refusal_loses_the_match
    assert _situation(opponent=3, stake=2, offered=4).refusal_loses_the_match


def test_match_stake_decision_puts_the_score_first():
    """Far ahead it offers unless a win already takes the match; hopeless it refuses
    unless refusing loses the match; otherwise it is stake_decision's answer."""
    ahead = _race(1, 6)  # White far ahead, to roll
    rs_args = ("long_nardy", "heuristic", ahead)
    assert computer.match_stake_decision(*rs_args, 0, _situation(), question="offer")
    assert not computer.match_stake_decision(*rs_args, 0, _situation(own=4),
                                             question="offer")
    assert not computer.match_stake_decision(*rs_args, 1, _situation(), question="accept")
    assert computer.match_stake_decision(*rs_args, 1, _situation(opponent=4),
                                         question="accept")
    with pytest.raises(computer.UnknownLevelError):
        computer.match_stake_decision("long_nardy", "grandmaster", ahead, 0,
                                      _situation(own=4), question="offer")
