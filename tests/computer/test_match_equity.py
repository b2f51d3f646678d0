"""The match equity table and the review's match-winning chance
(computer/review.py: MatchEquity, match_equity_table, MWC per play)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from computer.board import ruleset
from computer.review import (
    WIN_FREQUENCIES,
    MatchContext,
    MatchEquity,
    TurnInput,
    match_equity_table,
    match_equity_table_for,
    review_game,
)
from tests.computer.test_review import WHITE, bear_off, random_game

RULES = sorted(WIN_FREQUENCIES)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("crawford", [False, True])
@pytest.mark.parametrize("after", [False, True])
def test_the_table_is_a_chance_symmetric_even_and_monotone(rules, crawford, after):
    met = MatchEquity(WIN_FREQUENCIES[rules], crawford)
    n = 7
    v = [[met.value(a, b, after) for b in range(n + 1)] for a in range(n + 1)]
    for a in range(1, n + 1):
        assert v[a][a] == pytest.approx(0.5)
        for b in range(1, n + 1):
            assert 0.0 <= v[a][b] <= 1.0
            assert v[a][b] + v[b][a] == pytest.approx(1.0)
            if a < n:  # needing more points is never better
                assert v[a + 1][b] <= v[a][b] + 1e-12
            if b < n:
                assert v[a][b + 1] >= v[a][b] - 1e-12
        assert v[0][a] == 1.0 and v[a][0] == 0.0


@pytest.mark.parametrize("rules", RULES)
def test_without_crawford_it_is_match_equity_table(rules):
    met = MatchEquity(WIN_FREQUENCIES[rules])
    table = match_equity_table_for(rules, 7)
    for a in range(1, 8):
        for b in range(1, 8):
            assert met.value(a, b) == pytest.approx(table[a][b])


def test_hand_checked_small_cases():
    half = {1: 0.5, 2: 0.5}
    # 2-away v 1-away: win by 2 (1/4) wins the match, by 1 (1/4) leaves 1-1 (1/2).
    assert match_equity_table(2, half)[2][1] == pytest.approx(0.375)
    assert MatchEquity(half).value(2, 1) == pytest.approx(0.375)
    # The Crawford game (stake 1) is the same game here.
    assert MatchEquity(half, crawford=True).value(2, 1) == pytest.approx(0.375)
    ones = {1: 1.0}
    # 3-away v 1-away, singles only: cubeless two games to win in a row (1/8 ...) ...
    assert MatchEquity(ones).value(3, 1) == pytest.approx(0.125)
    # ... after the Crawford game the trailer raises at once: one game at stake 2 to
    # reach 1-1, then a coin: 1/4.
    assert MatchEquity(ones, crawford=True).value(3, 1, True) == pytest.approx(0.25)
    # Before it, the Crawford game is at stake 1: 1/2 * (2-away v 1-away after it, where
    # one game at stake 2 decides: 1/2) = 1/4.
    assert MatchEquity(ones, crawford=True).value(2, 1, True) == pytest.approx(0.5)
    assert MatchEquity(ones, crawford=True).value(3, 1) == pytest.approx(0.25)


@pytest.mark.parametrize("mars", [True, False])
def test_at_one_away_both_the_mwc_is_the_game_win_chance(mars):
    met = MatchEquity(WIN_FREQUENCIES[RULES[0]], crawford=True)
    w = met.weights(1, 1, 1, False, mars)
    assert list(w) == pytest.approx([0.0, 1.0, 0.0, 0.0, 0.0, 0.0])


@pytest.mark.parametrize("stake", [1, 2])
def test_the_weights_are_the_sum_over_outcomes(stake):
    met = MatchEquity(WIN_FREQUENCIES["backgammon"], crawford=True)
    rng = np.random.default_rng(24)
    for _ in range(20):
        win = rng.uniform()
        w2, l2 = rng.uniform(0, win), rng.uniform(0, 1 - win)
        p = np.array([win, w2, rng.uniform(0, w2), l2, rng.uniform(0, l2)])
        chances = {1: p[0] - p[1], 2: p[1] - p[2], 3: p[2]}
        losses = {1: 1 - p[0] - p[3], 2: p[3] - p[4], 3: p[4]}
        direct = (sum(c * met.value(4 - k * stake, 3) for k, c in chances.items())
                  + sum(c * met.value(4, 3 - k * stake) for k, c in losses.items()))
        w = met.weights(4, 3, stake, False)
        assert w[0] + w[1:] @ p == pytest.approx(direct)


def test_the_winning_bear_off_has_the_best_mwc():
    position = bear_off()
    rs = ruleset("long_nardy")
    wrong = next(p for p in rs.legal_plays(position, WHITE, (2, 1), False)
                 if rs.outcome(p.position) is None)
    turn_in = TurnInput(position, WHITE, (2, 1), False, wrong.steps)
    review = review_game("long_nardy", [turn_in], 0, match=MatchContext(3, (2, 2)))
    turn = review.turns[0]
    assert turn.played.mwc is not None and turn.best_mwc is not None
    assert turn.mwc_lost is not None and turn.mwc_lost > 0.0
    assert turn.best_mwc >= turn.played.mwc
    assert turn.mwc_lost == pytest.approx(turn.best_mwc - turn.played.mwc)
    # Both off: a single win (Black has borne off), exact: 1-away v 2-away.
    assert turn.best[0].mwc == pytest.approx(match_equity_table_for("long_nardy", 3)[1][2])
    assert turn.best_mwc == pytest.approx(turn.best[0].mwc)
    assert review.sides[WHITE].mwc_lost == pytest.approx(turn.mwc_lost)
    out = review.as_dict()
    assert out["match"] == {"length": 3, "need": [2, 2], "crawford": False,
                            "after_crawford": False}
    assert out["turns"][0]["mwc_lost"] == pytest.approx(turn.mwc_lost, abs=1e-5)
    assert out["turns"][0]["played"]["mwc"] is not None


def test_a_single_game_or_money_review_has_no_mwc():
    turns = random_game("long_nardy", 3)[:12]
    for match in (None, MatchContext(1, (1, 1))):
        review = review_game("long_nardy", turns, 0, match=match)
        out = review.as_dict()
        assert out["match"] is None
        assert all(s["mwc_lost"] is None for s in out["sides"])
        assert all(t["mwc_lost"] is None and t["best_mwc"] is None
                   and t["played"]["mwc"] is None for t in out["turns"])


@pytest.mark.parametrize(("rules", "context"), [
    ("backgammon", MatchContext(5, (3, 4), crawford=True)),
    ("short_nardy", MatchContext(5, (3, 4), crawford=True)),
    ("backgammon", MatchContext(5, (1, 3), crawford=True, after_crawford=True)),
    ("long_nardy", MatchContext(7, (5, 2)))])
def test_every_turn_of_a_match_game_loses_no_negative_mwc(rules, context):
    rng = random.Random(7)
    turns = [TurnInput(t.position, t.side, t.dice, t.first_turn, t.steps,
                       stake=2 if i > 10 else 1)
             for i, t in enumerate(random_game(rules, rng.randint(0, 99)))]
    review = review_game(rules, turns, 0, match=context)
    for side in (0, 1):
        lost = [t.mwc_lost for t in review.turns if t.side == side and t.kind == "move"]
        assert all(x is not None and x >= 0.0 for x in lost)
        assert review.sides[side].mwc_lost == pytest.approx(sum(lost))  # type: ignore[arg-type]
    for t in review.turns:
        assert t.played.mwc is not None and t.best_mwc is not None
        assert 0.0 <= t.played.mwc <= t.best_mwc + 1e-12 <= 1.0 + 1e-9
