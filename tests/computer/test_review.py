"""Game review: the analysis core (computer/review.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from computer.board import ruleset
from computer.levels import REDUCED
from computer.review import (
    Reviewer,
    ReviewError,
    StakeInput,
    TurnInput,
    match_equity_table,
    match_equity_table_for,
    review_game,
)
from computer.search import ROLLS, Evaluator
from computer.weights_io import load_net
from nardy.position import Position

WHITE, BLACK = 0, 1


def bear_off() -> Position:
    """White to roll 2-1 with checkers on its 1 and 2 (13 off); Black has one checker
    left on its 1 (14 off): bearing off both wins at once, 2/1 1/off lets Black win."""
    return Position.from_perspective(WHITE, {1: 1, 2: 1, 13: -1}, 13, 14)


def random_game(rules: str, seed: int) -> list[TurnInput]:
    rs = ruleset(rules)
    rng = random.Random(seed)
    position, side, first, turns = rs.initial(), WHITE, [True, True], []
    while rs.outcome(position) is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = rs.legal_plays(position, side, dice, first[side])
        play = rng.choice(plays)
        turns.append(TurnInput(position, side, dice, first[side], play.steps))
        first[side] = False
        position, side = play.position, 1 - side
    return turns


@pytest.mark.parametrize("depth", [0, 1])
def test_the_bear_off_that_leaves_a_checker_is_a_blunder(depth: int) -> None:
    position = bear_off()
    rs = ruleset("long_nardy")
    plays = rs.legal_plays(position, WHITE, (2, 1), False)
    wrong = next(p for p in plays if rs.outcome(p.position) is None)
    review = review_game("long_nardy", [TurnInput(position, WHITE, (2, 1), False,
                                                  wrong.steps)], depth)
    turn = review.turns[0]
    assert turn.kind == "move"
    assert turn.best[0].equity == pytest.approx(1.0)  # both off: a single win, exact
    assert rs.outcome(rs.start_turn(position, WHITE, (2, 1), False)
                      .apply_all(turn.best[0].steps).position) is not None
    assert turn.loss > 0.16
    assert turn.mark == "blunder"
    if depth == 1:
        # By hand: Black bears off its last checker with any roll: -1, a loss of 2.
        assert turn.played.equity == pytest.approx(-1.0)
        assert turn.loss == pytest.approx(2.0)
    assert review.sides[WHITE].decisions == 1
    assert review.sides[WHITE].marks["blunder"] == 1
    assert review.sides[WHITE].rating == pytest.approx(500 * turn.loss)


def test_the_right_play_loses_nothing() -> None:
    position = bear_off()
    rs = ruleset("long_nardy")
    right = next(p for p in rs.legal_plays(position, WHITE, (2, 1), False)
                 if rs.outcome(p.position) is not None)
    turn = review_game("long_nardy", [TurnInput(position, WHITE, (2, 1), False,
                                                right.steps)], 0).turns[0]
    assert turn.loss == 0.0 and turn.mark is None


def test_forced_moves_and_passes_are_left_out_of_the_rates() -> None:
    # White's last checker on its 1 with 13 off... any roll bears it off: one play.
    position = Position.from_perspective(WHITE, {1: 1, 13: -1}, 14, 14)
    rs = ruleset("long_nardy")
    plays = rs.legal_plays(position, WHITE, (6, 5), False)
    assert len(plays) == 1
    review = review_game("long_nardy", [TurnInput(position, WHITE, (6, 5), False,
                                                  plays[0].steps)], 1)
    assert review.turns[0].kind == "forced"
    assert review.turns[0].mark is None
    assert review.sides[WHITE].decisions == 0
    assert review.sides[WHITE].error_rate == 0.0


def test_a_game_reviewed_whole_counts_every_non_forced_turn_and_sums_luck() -> None:
    turns = random_game("backgammon", 3)
    review = review_game("backgammon", turns, 0, result=1.0)
    assert len(review.turns) == len(turns)
    for side in (WHITE, BLACK):
        mine = [t for t in review.turns if t.side == side]
        assert review.sides[side].decisions == sum(t.kind == "move" for t in mine)
        assert review.sides[side].loss == pytest.approx(sum(t.loss for t in mine))
        assert review.sides[side].luck == pytest.approx(sum(t.luck for t in mine))
        assert sum(review.sides[side].marks.values()) == sum(t.mark is not None
                                                             for t in mine)
    assert review.luck_adjusted == pytest.approx(
        1.0 - review.sides[WHITE].luck + review.sides[BLACK].luck)
    for t in review.turns:
        assert t.loss >= 0.0
        if t.kind == "move":
            assert t.best[0].equity >= t.played.equity
            assert len(t.best) <= 5
    data = review.as_dict()
    assert len(data["turns"]) == len(turns)


def test_luck_averages_to_nothing_over_the_21_rolls() -> None:
    """The luck of the 21 rolls from one position, weighted 1/36 and 2/36, sums to 0."""
    rs = ruleset("long_nardy")
    position = rs.initial()
    total = 0.0
    for dice, weight in ROLLS:
        play = rs.legal_plays(position, WHITE, dice, True)[0]
        turn = review_game("long_nardy", [TurnInput(position, WHITE, dice, True,
                                                    play.steps)], 0).turns[0]
        total += weight * turn.luck
    assert total == pytest.approx(0.0, abs=1e-5)


def test_a_play_that_does_not_replay_is_refused_whole() -> None:
    position = bear_off()
    other = ruleset("long_nardy").legal_plays(position, WHITE, (6, 5), False)[0]
    with pytest.raises(ReviewError):
        review_game("long_nardy", [TurnInput(position, WHITE, (2, 1), False, other.steps
                                             + other.steps)], 0)


def test_stake_decisions_are_valued_each_choice() -> None:
    """A winning race position (Black needs many pips): the refusal of a raise is wrong."""
    position = Position.from_perspective(WHITE, {1: 2, 2: 2, 12: -15}, 11, 0)
    review = review_game("long_nardy", [], 0, stake_decisions=[
        StakeInput(1, position, WHITE, False, 1, 2, offered=True, accepted=True)])
    offer, answer = review.stakes
    assert offer.question == "offer" and answer.question == "accept"
    assert answer.side == BLACK
    assert answer.equities["refuse"] == -1.0
    assert answer.right == "refuse"  # Black is all but lost: taking loses more
    assert answer.loss == pytest.approx(answer.equities["refuse"] - answer.equities["accept"])
    assert review.sides[BLACK].decisions == 1


def test_the_match_equity_table() -> None:
    wins = {1: 0.7, 2: 0.25, 3: 0.05}
    table = match_equity_table(9, wins)
    for a in range(1, 10):
        assert table[a][a] == pytest.approx(0.5)  # equal scores
        assert table[0][a] == 1.0 and table[a][0] == 0.0  # a won / lost match
        for b in range(1, 10):
            assert table[a][b] == pytest.approx(1.0 - table[b][a])  # symmetric
            if a < 9:
                assert table[a][b] >= table[a + 1][b]  # more to go: less chance
            if b < 9:
                assert table[a][b] <= table[a][b + 1]
    assert table[1][2] == pytest.approx(0.5 + 0.5 * 0.7 * 0.5 + 0.5 * 0.0)  # by hand
    with pytest.raises(ValueError):
        match_equity_table(3, {1: 0.5})


@pytest.mark.parametrize("rules", ["long_nardy", "short_nardy", "backgammon", "nard"])
def test_each_rule_sets_table_is_a_match_equity_table(rules: str) -> None:
    table = match_equity_table_for(rules, 7)
    assert table[3][3] == pytest.approx(0.5)
    assert table[1][7] > table[1][2] > 0.5
    assert table[2][5] == pytest.approx(1.0 - table[5][2])


@pytest.mark.parametrize("rules", ["short_nardy", "nard", "long_nardy", "backgammon"])
def test_the_2_ply_review_searches_as_the_expert_plays(rules: str) -> None:
    """The review's depth 2 is the expert's 2-ply: reduced where the expert's is
    (``computer.levels.REDUCED``), full elsewhere — the plays are judged by the search
    the computer plays with (backgammon's by the project's network: the field engine
    is tested in tests/computer/test_review_field.py)."""

    reviewer = Reviewer(rules, 2, engine="network")
    assert reviewer.ev is not None and reviewer.ev.reduced is (rules in REDUCED)
    turn = random_game(rules, seed=2)[6]
    plays = ruleset(rules).legal_plays(turn.position, turn.side, turn.dice,
                                       turn.first_turn)[:2]
    expected = Evaluator(rules, load_net(rules), reduced=rules in REDUCED).two_ply(
        [p.position for p in plays], turn.side)
    assert np.allclose(reviewer._deep(turn.position, plays, turn.side), expected, atol=1e-6)
