"""Short nardy's learned levels: the project's search over short nardy's own moves with
the positions valued by the field engine (computer.levels.FIELD_VALUED), and the
fallback to the own network where the engine cannot be imported."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

import computer
from computer import field
from computer.bearoff import in_domain
from computer.board import boards, ruleset
from computer.levels import (
    FIELD_VALUED,
    FIELD_VALUED_TEXTS,
    LEVELS,
    OWN_HEURISTIC,
    OWN_NETWORK,
    chooser,
    engine_of,
    engines_for,
    field_valued,
    levels_for,
    picker,
)
from computer.network import equity
from computer.search import Evaluator
from computer.weights_io import load_net
from nardy import BLACK, SHORT_NARDY_RULES, WHITE, HitPosition

from .util import sample_positions

RULES = "short_nardy"

needs_engine = pytest.mark.skipif(not field.available(),
                                  reason="the field engine is not installed")

START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
"""Open Sage's starting board (bgsage.STARTING_BOARD), written out."""


@pytest.fixture
def no_field_engine(monkeypatch):
    """The field engine's import fails (as on a platform without its wheel)."""
    field._engine.cache_clear()
    for name in ("bgsage", "bgsage.analyzer", "bgsage.weights", "bgbot_cpp"):
        monkeypatch.setitem(sys.modules, name, None)
    yield
    field._engine.cache_clear()


def _contact(count: int, seed: int):
    """Positions to move in, none of whose plays reaches the exact bear-off database's
    domain (where it, not the engine, values a position) or ends the game."""
    found = []
    for position, side, dice, first in sample_positions(RULES, 4 * count, seed):
        plays = SHORT_NARDY_RULES.legal_plays(position, side, dice, first)
        after = [p.position for p in plays]
        if (len(plays) > 1 and not in_domain(boards(RULES, after, side)).any()
                and all(SHORT_NARDY_RULES.outcome(p) is None for p in after)):
            found.append((position, side, plays))
    return found[:count]


def test_only_short_nardy_is_valued_by_the_engine():
    assert frozenset({"short_nardy"}) == FIELD_VALUED
    for rules in ("long_nardy", "nard", "backgammon"):
        assert not any(field_valued(rules, level) for level in LEVELS)


@needs_engine
def test_short_nardys_board_is_backgammons_from_both_sides():
    """H3: short nardy starts as backgammon; H1: both number their points as
    backgammon does, so the engine reads the start as its own."""
    start = SHORT_NARDY_RULES.initial()
    assert field.board(start, WHITE) == START
    assert field.board(start, BLACK) == START
    assert field.boards_of(boards(RULES, [start], BLACK)).tolist() == [START]


@needs_engine
def test_the_level_list_says_the_engine_values_short_nardys_learned_levels():
    levels = levels_for(RULES)
    assert list(levels) == ["random", "heuristic", "network", "strong", "expert"]
    for level in ("network", "strong", "expert"):
        assert field_valued(RULES, level)
        assert levels[level] == FIELD_VALUED_TEXTS[level]
    engines = engines_for(RULES)
    assert engines["expert"] == field.engine_label() == engine_of(RULES, "network")
    assert engines["heuristic"] == OWN_HEURISTIC


@needs_engine
def test_the_network_level_plays_the_engines_best_of_short_nardys_plays():
    """0-ply: the play whose position the engine values best (money equity, the first
    of equals) among the rule set's legal plays — not the own network's choice."""
    own_differs = 0
    for position, side, plays in _contact(20, seed=4):
        probs = np.array([field.post_move_probabilities(p.position, side) for p in plays])
        want = int(np.argmax(equity(probs)))
        assert chooser(RULES, "network")(position, plays, side) == want
        own_differs += picker(RULES, "network")(plays, side) != want
    assert own_differs  # the two evaluations disagree somewhere: the test can tell them


@needs_engine
@pytest.mark.parametrize("level", ["strong", "expert"])
def test_the_searching_levels_play_legal_turns_through_the_engine(level):
    for position, side, dice, first in sample_positions(RULES, 4, seed=23):
        steps = computer.choose_play(RULES, level, position, side, dice, first)
        turn = SHORT_NARDY_RULES.start_turn(position, side, dice, first).apply_all(steps)
        assert turn.is_turn_over()
        assert turn.position in {p.position
                                 for p in SHORT_NARDY_RULES.legal_plays(position, side,
                                                                        dice, first)}


@needs_engine
def test_a_finished_game_gets_short_nardys_result_not_the_engines():
    """White has borne off 15; Black none, one checker still in White's home: koks (3)."""
    points = [0] * 24
    points[2] = -1  # White's own point 3
    points[18] = -14  # Black's own point 6
    koks = HitPosition(RULES, tuple(points), (0, 0), (15, 0))
    assert ruleset(RULES).outcome(koks).points == 3
    evaluator = Evaluator(RULES, load_net(RULES), field=True)
    assert evaluator.static([koks], WHITE).tolist() == [[1.0, 1.0, 1.0, 0.0, 0.0]]
    assert evaluator.static([koks], BLACK).tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0]]


def test_the_engine_values_no_other_board():
    with pytest.raises(ValueError, match="cannot value"):
        Evaluator("long_nardy", load_net("long_nardy"), field=True)


def test_without_the_engine_the_own_network_plays_short_nardy(no_field_engine):
    assert not field.available()
    assert levels_for(RULES) == {name: LEVELS[name] for name in
                                 ("random", "heuristic", "network", "strong", "expert")}
    assert engines_for(RULES)["expert"] == OWN_NETWORK
    with pytest.raises(ValueError, match="cannot value"):
        Evaluator(RULES, load_net(RULES), field=True)
    for position, side, dice, first in sample_positions(RULES, 3, seed=9):
        plays = SHORT_NARDY_RULES.legal_plays(position, side, dice, first)
        own = picker(RULES, "network")(plays, side)
        assert plays[own].steps == computer.choose_play(RULES, "network", position, side,
                                                        dice, first, random.Random(1))
    position, side, _, first = sample_positions(RULES, 1, seed=9)[0]
    assert computer.stake_decision(RULES, "strong", position, side, question="offer",
                                   stake=1, next_stake=2, first_turn=first) in (True, False)
