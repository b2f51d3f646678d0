"""The review of backgammon games by the field engine (computer/review.py over
computer/field.py), and its fallback to the project's network when the engine cannot be
imported."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from computer import field
from computer.board import ruleset
from computer.review import (
    MatchContext,
    Reviewer,
    StakeInput,
    TurnInput,
    review_engine,
    review_game,
)
from computer.search import ROLLS
from nardy import BACKGAMMON_RULES, HitPosition

WHITE, BLACK = 0, 1
RULES = "backgammon"

needs_field = pytest.mark.skipif(not field.available(),
                                 reason="the field engine (bgsage) is not installed")


@pytest.fixture
def no_field_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The field engine's import fails (a platform without its wheel)."""
    monkeypatch.setitem(sys.modules, "bgbot_cpp", None)
    monkeypatch.setitem(sys.modules, "bgsage", None)
    monkeypatch.setitem(sys.modules, "bgsage.analyzer", None)
    monkeypatch.setitem(sys.modules, "bgsage.weights", None)
    field._engine.cache_clear()
    yield
    field._engine.cache_clear()


def last_two() -> HitPosition:
    """White to roll 2-1 with checkers on its 1 and 2 (13 off); Black has one checker
    left on its 1 (14 off): 2/off 1/off wins at once, 2/1 1/off lets Black win."""
    return HitPosition.from_perspective(RULES, WHITE, {1: 1, 2: 1, 24: -1}, 13, 14)


@needs_field
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_a_clear_blunder_is_marked_blunder(depth: int) -> None:
    position = last_two()
    plays = BACKGAMMON_RULES.legal_plays(position, WHITE, (2, 1), False)
    wrong = next(p for p in plays if BACKGAMMON_RULES.outcome(p.position) is None)
    review = review_game(RULES, [TurnInput(position, WHITE, (2, 1), False, wrong.steps)],
                         depth)
    assert review.engine == "field"
    turn = review.turns[0]
    assert turn.kind == "move"
    assert turn.best[0].equity == pytest.approx(1.0)  # both off: a single win, exact
    # Black bears its last checker off with any roll: a sure loss, 2 points lost.
    assert turn.played.equity == pytest.approx(-1.0, abs=0.01)
    assert turn.loss == pytest.approx(2.0, abs=0.01)
    assert turn.mark == "blunder"
    assert turn.played.plies == depth
    data = review.as_dict()
    assert data["engine"] == "field"
    assert data["sides"][WHITE]["pr"] == pytest.approx(500 * turn.loss, abs=0.01)
    assert data["sides"][BLACK]["pr"] == 0.0


@needs_field
def test_the_right_play_loses_nothing() -> None:
    position = last_two()
    right = next(p for p in BACKGAMMON_RULES.legal_plays(position, WHITE, (2, 1), False)
                 if BACKGAMMON_RULES.outcome(p.position) is not None)
    turn = review_game(RULES, [TurnInput(position, WHITE, (2, 1), False, right.steps)],
                       2).turns[0]
    assert turn.loss == 0.0 and turn.mark is None


@needs_field
def test_a_forced_move_has_no_loss_and_is_left_out_of_the_rates() -> None:
    # White's last two checkers on its 6; 6-6 can only bear both off (then the game is
    # over): one play.
    position = HitPosition.from_perspective(RULES, WHITE, {6: 2, 1: -15}, 13, 0)
    plays = BACKGAMMON_RULES.legal_plays(position, WHITE, (6, 6), False)
    assert len(plays) == 1
    review = review_game(RULES, [TurnInput(position, WHITE, (6, 6), False,
                                           plays[0].steps)], 2)
    assert review.engine == "field"
    turn = review.turns[0]
    assert (turn.kind, turn.loss, turn.mark) == ("forced", 0.0, None)
    assert review.sides[WHITE].decisions == 0
    assert review.as_dict()["sides"][WHITE]["pr"] == 0.0


@needs_field
def test_the_field_engines_luck_averages_to_nothing_over_the_21_rolls() -> None:
    position = BACKGAMMON_RULES.initial()
    total = 0.0
    for dice, weight in ROLLS:
        play = BACKGAMMON_RULES.legal_plays(position, WHITE, dice, False)[0]
        turn = review_game(RULES, [TurnInput(position, WHITE, dice, False, play.steps)],
                           0).turns[0]
        total += weight * turn.luck
    assert total == pytest.approx(0.0, abs=1e-5)


@needs_field
def test_each_depth_values_the_play_made_and_the_best_alike() -> None:
    """At depth 2 the play made and the plays compared with it are all searched two
    plies deep (GNU Backgammon's count; Open Sage's "3-ply")."""
    position = BACKGAMMON_RULES.initial()
    plays = BACKGAMMON_RULES.legal_plays(position, WHITE, (6, 5), False)
    reviewer = Reviewer(RULES, 2)
    turn = reviewer.turn(1, TurnInput(position, WHITE, (6, 5), False, plays[-1].steps))
    assert turn.played.plies == 2 and all(b.plies == 2 for b in turn.best)
    expected = field.rank_plays(position, WHITE, [plays[-1], plays[0]], 2, keep=2,
                                margin=1.0)
    by_index = {r.index: r.value for r in expected}
    assert turn.played.equity == pytest.approx(by_index[0], abs=1e-6)


@needs_field
def test_a_refused_take_on_the_last_roll_is_a_blunder() -> None:
    """White's last checkers on its 3 and 2, Black's last on its 1: White wins only by
    bearing both off now, with the 25 rolls of 36 that have no 1 (69 %). White should
    raise and Black take (by hand: refusing -1, taking 2 x (1 - 2 x 25/36) = -0.78);
    Black's refusal loses 0.22 per unit of stake."""
    position = HitPosition.from_perspective(RULES, WHITE, {3: 1, 2: 1, 24: -1}, 13, 14)
    review = review_game(RULES, [], 2, stake_decisions=[
        StakeInput(1, position, WHITE, False, 1, 2, offered=True, accepted=False)])
    offer, answer = review.stakes
    assert (offer.right, offer.chose, offer.loss) == ("offer", "offer", 0.0)
    assert (answer.side, answer.right, answer.chose) == (BLACK, "accept", "refuse")
    assert answer.equities["refuse"] == -1.0
    assert answer.equities["accept"] == pytest.approx(2 * (1 - 2 * 25 / 36), abs=0.01)
    assert answer.loss == pytest.approx(1 + 2 * (1 - 2 * 25 / 36), abs=0.01)
    assert answer.mark == "blunder"
    assert review.sides[BLACK].decisions == 1


def test_without_the_field_engine_backgammon_falls_back_to_the_network(
        no_field_engine: None) -> None:
    assert not field.available()
    assert review_engine(RULES) == "network"
    with pytest.raises(ValueError):
        review_engine(RULES, "field")
    position = BACKGAMMON_RULES.initial()
    play = BACKGAMMON_RULES.legal_plays(position, WHITE, (3, 1), False)[0]
    review = review_game(RULES, [TurnInput(position, WHITE, (3, 1), False, play.steps)], 1)
    assert review.engine == "network"
    data = review.as_dict()
    assert data["engine"] == "network"
    assert [s["pr"] for s in data["sides"]] == [None, None]


def test_the_nardy_games_are_reviewed_by_the_network() -> None:
    for rules in ("long_nardy", "short_nardy", "nard"):
        assert review_engine(rules) == "network"
        with pytest.raises(ValueError):
            review_engine(rules, "field")
    turns = [TurnInput(ruleset("short_nardy").initial(), WHITE, (3, 1), True,
                       ruleset("short_nardy").legal_plays(
                           ruleset("short_nardy").initial(), WHITE, (3, 1), True)[0].steps)]
    assert review_game("short_nardy", turns, 0).as_dict()["engine"] == "network"


@needs_field
def test_in_a_match_each_play_gets_its_match_winning_chance() -> None:
    """The MWC is read from the field engine's estimates: the winning bear-off keeps
    White's match won (it needs 1 point), the other loses it (Black needs 1 too)."""
    position = last_two()
    plays = BACKGAMMON_RULES.legal_plays(position, WHITE, (2, 1), False)
    wrong = next(p for p in plays if BACKGAMMON_RULES.outcome(p.position) is None)
    review = review_game(RULES, [TurnInput(position, WHITE, (2, 1), False, wrong.steps)],
                         1, match=MatchContext(5, (1, 1)))
    turn = review.turns[0]
    assert turn.best_mwc == pytest.approx(1.0)
    assert turn.played.mwc == pytest.approx(0.0, abs=0.01)
    assert turn.mwc_lost == pytest.approx(1.0, abs=0.01)
    assert review.sides[WHITE].mwc_lost == pytest.approx(turn.mwc_lost)
