"""What the computer plays for at the match score (computer/score.py): the objective's
weights, and the search maximising it for both sides (computer/search.py)."""

from __future__ import annotations

import numpy as np
import pytest

import computer.score
from computer import choose_play
from computer.levels import picker
from computer.network import equity, flip, outcome_vector
from computer.score import (
    MONEY,
    WIN_FREQUENCIES,
    WINS_ONLY,
    MatchEquity,
    Objective,
    match_objective,
    money_objective,
    opponents_weights,
    scaled,
)
from computer.search import ROLLS, Evaluator
from computer.stakes import Situation
from computer.weights_io import load_net
from nardy import RULESETS

from .util import differing, sample_positions

RULES = sorted(WIN_FREQUENCIES)
RNG = np.random.default_rng(7)
PROBS = RNG.uniform(0.0, 1.0, size=(40, 5))
"""Arbitrary rows of five chances (the algebra below holds for any)."""


def outcome(points: int) -> np.ndarray:
    """The five outputs of a win by ``points`` (negative: a loss) for the side that won
    (lost)."""
    won = outcome_vector(abs(points))
    return won if points > 0 else flip(won)


def value(weights: np.ndarray, probs: np.ndarray) -> np.ndarray:
    return probs @ weights[1:] + weights[0]


def test_money_weights_are_equity():
    assert np.allclose(value(MONEY, PROBS), equity(PROBS))
    assert np.allclose(value(WINS_ONLY, PROBS), equity(PROBS, mars=False))


@pytest.mark.parametrize("weights", [MONEY, WINS_ONLY])
def test_money_and_wins_only_are_their_own_mirror(weights):
    assert np.allclose(opponents_weights(weights), weights)


def test_the_opponents_objective_is_zero_sum():
    mine = np.array([0.2, 0.9, 0.3, 0.1, -0.4, -0.7])
    theirs = opponents_weights(mine)
    # Any chances p seen from my side are flip(p) from the opponent's.
    assert np.allclose(value(mine, PROBS) + value(theirs, flip(PROBS)), 0.0)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("side", [0, 1])
def test_a_one_point_match_counts_wins_only(rules, side):
    objective = match_objective(rules, side, length=1, own=0, opponent=0)
    assert objective is not None
    for s in (0, 1):
        assert np.allclose(objective.weights[s], WINS_ONLY)


@pytest.mark.parametrize("rules", RULES)
def test_dave_counts_wins_only_at_any_score(rules):
    for own, opponent in ((0, 0), (3, 1), (1, 5)):
        objective = match_objective(rules, 0, length=7, own=own, opponent=opponent,
                                    stake=2, mars=False)
        assert objective is not None
        assert np.allclose(objective.weights[0], WINS_ONLY)
        assert np.allclose(objective.weights[1], WINS_ONLY)
    assert money_objective(0) is None
    money = money_objective(1, mars=False)
    assert money is not None and np.allclose(money.weights[1], WINS_ONLY)


def test_when_a_single_win_takes_the_match_a_gammon_adds_nothing():
    # White needs 1 of 7 (6-0), no stakes: every win of White's wins the match, and
    # Black, needing 7, cannot win it with one game, so White's losses all cost the same
    # while Black's gammons bring it nearer.
    objective = match_objective("backgammon", 0, length=7, own=6, opponent=0)
    assert objective is not None
    white = objective.weights[0]
    assert np.allclose(value(white, np.stack([outcome(1), outcome(2), outcome(3)])), 1.0)
    single, gammon, backgammon = value(white, np.stack([outcome(-1), outcome(-2),
                                                        outcome(-3)]))
    assert single == pytest.approx(-1.0)
    assert single > gammon > backgammon


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("score", [(0, 0), (2, 4), (5, 1), (3, 3)])
@pytest.mark.parametrize("stake", [1, 2])
def test_each_outcome_is_worth_its_match_equity_on_equity_scale(rules, score, stake):
    own, opponent = score
    met = MatchEquity(WIN_FREQUENCIES[rules], crawford=True)
    a, b = 7 - own, 7 - opponent
    objective = match_objective(rules, 1, length=7, own=own, opponent=opponent,
                                stake=stake, crawford=True)
    assert objective is not None
    win, lose = met.value(a - stake, b), met.value(a, b - stake)
    for points in (1, 2, 3, -1, -2, -3):
        mwc = (met.value(a - points * stake, b) if points > 0
               else met.value(a, b + points * stake))
        expected = (mwc - (win + lose) / 2) / ((win - lose) / 2)
        assert value(objective.weights[1], outcome(points)[None])[0] == pytest.approx(expected)


def test_without_win_frequencies_or_a_length_it_is_money_play(monkeypatch):
    monkeypatch.setattr(computer.score, "WIN_FREQUENCIES", {})
    assert match_objective("backgammon", 0, length=5, own=0, opponent=0) is None
    dave = match_objective("backgammon", 0, length=5, own=0, opponent=0, mars=False)
    assert dave is not None and np.allclose(dave.weights[0], WINS_ONLY)
    monkeypatch.undo()
    assert match_objective("backgammon", 0, length=0, own=0, opponent=0) is None


def test_scaled_keeps_a_decided_match_as_it_is():
    flat = np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    assert np.array_equal(scaled(flat), flat)


def test_situation_objective_reads_the_match():
    s = Situation(stakes="none", progression="geometric", length=1, own=0, opponent=0,
                  stake=1)
    objective = s.objective("backgammon", 1)
    assert objective is not None and np.allclose(objective.weights[1], WINS_ONLY)
    crawford = Situation(stakes="cube", progression="geometric", length=5, own=0,
                         opponent=4, stake=1, after_crawford=True)
    before = Situation(stakes="cube", progression="geometric", length=5, own=0,
                       opponent=4, stake=1)
    after, plain = crawford.objective("backgammon", 0), before.objective("backgammon", 0)
    assert after is not None and plain is not None
    assert not np.allclose(after.weights[0], plain.weights[0])


# -- the search plays for it -----------------------------------------------------------


def test_playing_for_the_win_changes_choices_and_maximises_the_win_chance():
    cases = differing("backgammon", 5)
    assert len(cases) == 5  # gammons matter in backgammon: such decisions exist
    net = load_net("backgammon")
    ev = Evaluator("backgammon", net)
    wins = Objective.for_side(0, WINS_ONLY)
    for _position, side, _dice, _first, plays in cases:
        probs = ev.static([p.position for p in plays], side)
        ev.clear()
        alone = Evaluator("backgammon", net, objective=wins).best_play(plays, side, 0)
        money = Evaluator("backgammon", net).best_play(plays, side, 0)
        assert alone == int(np.argmax(probs[:, 0]))
        assert money == int(np.argmax(equity(probs)))
        assert probs[alone, 0] > probs[money, 0]


def test_money_weights_search_as_plain_equity():
    net = load_net("short_nardy")
    for position, side, dice, first in sample_positions("short_nardy", 12, 5):
        plays = RULESETS["short_nardy"].legal_plays(position, side, dice, first)
        money = Objective.for_side(side, MONEY)
        for plies in (0, 1):
            assert (Evaluator("short_nardy", net, objective=money).best_play(plays, side, plies)
                    == Evaluator("short_nardy", net).best_play(plays, side, plies))


def test_one_ply_replies_are_chosen_by_the_opponents_objective():
    """1-ply, plainly: each opponent roll's reply is the one best for the opponent's own
    objective (here White needs 1 and Black 7 of a 7-point match: Black's gammons count
    for it, White's do not), and the position's value is the average from our side."""
    rules = "backgammon"
    net = load_net(rules)
    objective = match_objective(rules, 0, length=7, own=6, opponent=0)
    assert objective is not None
    ev = Evaluator(rules, net, objective=objective)
    plain = Evaluator(rules, net)
    rs = RULESETS[rules]
    for position, _side, dice, first in sample_positions(rules, 8, 11):
        me = 0
        results = [p.position for p in rs.legal_plays(position, me, dice, first)][:3]
        got = ev.one_ply(results, me, packed=False)
        for i, result in enumerate(results):
            if rs.outcome(result) is not None:
                continue
            total = np.zeros(5)
            for roll, weight in ROLLS:
                replies = [p.position for p in rs.legal_plays(result, 1, roll, False)]
                probs = plain.static(replies, 1)
                plain.clear()
                best = int(np.argmax(objective.value(probs, 1)))
                total += weight * probs[best]
            assert np.allclose(got[i], flip(total), atol=1e-5)


def test_choose_play_plays_to_the_situation():
    """The own network (backgammon's field engine alike: test_field_levels.py)."""
    (position, side, dice, first, plays), = differing("long_nardy", 1, seed=4)
    one_point = Situation(stakes="none", progression="geometric", length=1, own=0,
                          opponent=0, stake=1)
    steps = choose_play("long_nardy", "network", position, side, dice, first,
                        situation=one_point)
    alone = picker("long_nardy", "network", objective=Objective.for_side(side, WINS_ONLY))
    money = picker("long_nardy", "network")
    assert steps == plays[alone(plays, side)].steps
    assert steps != plays[money(plays, side)].steps
    assert choose_play("long_nardy", "network", position, side, dice, first) == \
        plays[money(plays, side)].steps
