"""Every level plays legal turns in every rule set; the random level is uniform; the
heuristic beats random."""

from __future__ import annotations

import random

import numpy as np
import pytest

import computer
from computer.board import boards, ruleset
from computer.lab.match import play_game
from computer.levels import LEVELS, levels_for, picker
from computer.network import Net
from computer.search import Evaluator, Filter
from computer.weights_io import UnknownLevelError
from nardy import RULESETS

from .util import general_boards, sample_positions

RULES = sorted(RULESETS)
TINY_NET = Net.create(8, np.random.default_rng(5))


def _replays(rules, position, side, dice, first, steps):
    """The steps play through the engine's turn state to one of the legal results."""
    rs = ruleset(rules)
    turn = rs.start_turn(position, side, dice, first).apply_all(steps)
    assert turn.is_turn_over()
    assert turn.position in {p.position for p in rs.legal_plays(position, side, dice, first)}


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("level", ["random", "heuristic", "network"])
def test_level_plays_legal_turns(rules, level):
    pick = picker(rules, level, random.Random(1), net=TINY_NET)
    for position, side, dice, first in sample_positions(rules, 25, seed=3):
        plays = ruleset(rules).legal_plays(position, side, dice, first)
        steps = plays[pick(plays, side)].steps
        _replays(rules, position, side, dice, first, steps)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("level", ["strong", "expert"])
def test_search_levels_play_legal_turns(rules, level):
    pick = picker(rules, level, net=TINY_NET)
    for position, side, dice, first in sample_positions(rules, 2, seed=4):
        plays = ruleset(rules).legal_plays(position, side, dice, first)
        _replays(rules, position, side, dice, first, plays[pick(plays, side)].steps)


@pytest.mark.parametrize("rules", RULES)
def test_api_choose_play_replays(rules):
    for level in levels_for(rules):
        if level in ("strong", "expert"):
            continue  # the searches are covered above with a tiny network, faster
        for position, side, dice, first in sample_positions(rules, 4, seed=6):
            steps = computer.choose_play(rules, level, position, side, dice, first,
                                         random.Random(2))
            _replays(rules, position, side, dice, first, steps)


def test_choose_for_turn_finishes_a_turn_in_progress():
    rs = ruleset("long_nardy")
    turn = rs.start_turn(rs.initial(), 0, (3, 3), True).apply_all("24/21")
    steps = computer.choose_for_turn("long_nardy", "heuristic", turn)
    assert len(steps) == 3
    assert turn.apply_all(steps).is_turn_over()


def test_pass_is_an_empty_play():
    rs = ruleset("long_nardy")
    # White's 15 on its head, Black's on every point a 6 or 5 could reach: no move.
    position = rs.position_from_perspective(0, {24: 15, 18: -7, 19: -8})
    assert computer.choose_play("long_nardy", "heuristic", position, 0, (6, 5), False) == ()


def test_unknown_level_and_rules():
    rs = ruleset("long_nardy")
    with pytest.raises(UnknownLevelError):
        computer.choose_play("long_nardy", "grandmaster", rs.initial(), 0, (3, 1), True)
    with pytest.raises(KeyError):
        levels_for("chess")


def test_levels_have_a_sentence_each():
    assert set(LEVELS) == {"random", "heuristic", "network", "strong", "expert", "world-class"}
    assert all(text.endswith(".") and len(text) > 20 for text in LEVELS.values())
    assert {"random", "heuristic"} <= set(levels_for("long_nardy"))


def test_random_level_is_uniform():
    """Chi-square of 4,000 picks among one position's plays, bound far above chance."""
    rs = ruleset("long_nardy")
    position, side, dice, first = next(
        (p, s, d, f) for p, s, d, f in sample_positions("long_nardy", 200, seed=8)
        if 6 <= len(rs.legal_plays(p, s, d, f)) <= 30)
    plays = rs.legal_plays(position, side, dice, first)
    pick = picker("long_nardy", "random", random.Random(11))
    draws = 4000
    counts = np.bincount([pick(plays, side) for _ in range(draws)], minlength=len(plays))
    expected = draws / len(plays)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = len(plays) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)
    assert counts.min() > 0


def test_heuristic_beats_random():
    rng = random.Random(21)
    heuristic = picker("long_nardy", "heuristic")
    rand = picker("long_nardy", "random", random.Random(22))
    wins = 0
    for g in range(30):
        white, black = (heuristic, rand) if g % 2 == 0 else (rand, heuristic)
        wins += play_game("long_nardy", white, black, rng).outcome.winner == g % 2
    assert wins >= 24, wins


@pytest.mark.parametrize("rules", RULES)
def test_fast_board_arrays_agree_with_the_protocol(rules):
    positions = [p for p, _, _, _ in sample_positions(rules, 30, seed=9)]
    for me in (0, 1):
        fast, slow = boards(rules, positions, me), general_boards(positions, me)
        for a, b in ((fast.mine, slow.mine), (fast.theirs, slow.theirs),
                     (fast.bar, slow.bar), (fast.off, slow.off)):
            assert np.array_equal(a, b)
        assert (fast.mine.sum(axis=1) + fast.off[:, 0] + fast.bar[:, 0] == 15).all()


def test_search_filter_keeping_one_play_returns_the_static_best():
    rs = ruleset("long_nardy")
    position, side, dice, first = next(
        (p, s, d, f) for p, s, d, f in sample_positions("long_nardy", 100, seed=13)
        if len(rs.legal_plays(p, s, d, f)) >= 5)
    plays = rs.legal_plays(position, side, dice, first)
    evaluator = Evaluator("long_nardy", TINY_NET)
    static = evaluator.best_play(plays, side, 0)
    for plies in (1, 2):
        assert evaluator.best_play(plays, side, plies, (Filter(1, 1.0),)) == static
        # a margin of 0 keeps only the best (and its exact equals) as well
        assert evaluator.best_play(plays, side, plies, (Filter(8, 0.0),)) == static
