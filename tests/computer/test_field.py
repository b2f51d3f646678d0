"""The field engine's adapter (computer.field): the exact conversion of the engine's
positions to Open Sage's boards, both sides, the bar and borne-off checkers; its
estimates and its ranking of the project's legal plays."""

from __future__ import annotations

import pytest

from computer import field
from computer.board import boards, ruleset
from computer.score import WINS_ONLY, Objective
from nardy import BACKGAMMON_RULES, BLACK, WHITE, HitPosition
from nardy.errors import InvalidPositionError

from .util import sample_positions

pytestmark = pytest.mark.skipif(not field.available(), reason="the field engine is not installed")

START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
"""Open Sage's own starting board (bgsage.STARTING_BOARD), written out."""


def _position(points_white: dict[int, int], bar=(0, 0), off=(0, 0)) -> HitPosition:
    """A backgammon position from White's own points (signed, positive White's)."""
    points = [0] * 24
    for p, n in points_white.items():
        points[p - 1] = n
    return HitPosition("backgammon", tuple(points), bar, off)


# White: 2 on the bar, 3 borne off, the rest on 6, 5, 4 and 1 (10 checkers).
# Black: 1 on the bar, 5 borne off, 9 on its own points 1-3 (White's 24-22).
BARRED = _position({6: 4, 5: 3, 4: 2, 1: 1, 24: -3, 23: -3, 22: -3}, bar=(2, 1), off=(3, 5))


def test_the_start_from_both_sides_is_open_sages_start():
    import bgsage  # the engine's own constant, to check the written one against

    start = BACKGAMMON_RULES.initial()
    assert field.board(start, WHITE) == START == list(bgsage.STARTING_BOARD)
    assert field.board(start, BLACK) == START


def test_bar_and_borne_off_from_both_sides():
    assert field.board(BARRED, WHITE) == [
        1, 1, 0, 0, 2, 3, 4] + [0] * 15 + [-3, -3, -3, 2]
    # Black's view: its own point p is White's 25 - p; White's checkers negative.
    assert field.board(BARRED, BLACK) == [
        2, 3, 3, 3] + [0] * 15 + [-4, -3, -2, 0, 0, -1, 1]


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_conversion_round_trips(side):
    assert field.position_from_board("backgammon", field.board(BARRED, side), side) == BARRED
    for position, _, _, _ in sample_positions("backgammon", 30, seed=11):
        values = field.board(position, side)
        assert field.position_from_board("backgammon", values, side) == position
        assert sum(n for n in values[1:25] if n > 0) + values[25] == 15 - position.off_of(side)


def test_impossible_boards_are_refused():
    with pytest.raises(ValueError, match="26 numbers"):
        field.position_from_board("backgammon", START[:25], WHITE)
    with pytest.raises(InvalidPositionError):
        field.position_from_board("backgammon", [0, -2, *START[2:24], 9, 0], WHITE)
    with pytest.raises(ValueError, match="backgammon's board"):
        field.board(HitPosition.initial("nard"), WHITE)


def test_open_sage_and_the_engine_agree_on_every_legal_result():
    """The converted board, moved by Open Sage's own move generator, gives exactly the
    results of the engine's legal plays (bar entries, hits and bear-offs included)."""
    import bgbot_cpp  # the engine's move generator, the independent side of the check

    checked = 0
    for position, side, dice, first in sample_positions("backgammon", 60, seed=4):
        plays = BACKGAMMON_RULES.legal_plays(position, side, dice, first)
        ours = {tuple(field.board(p.position, side)) for p in plays}
        theirs = {tuple(b) for b in bgbot_cpp.possible_moves(field.board(position, side),
                                                             *dice)}
        if not theirs:  # no move: Open Sage lists none, the engine the position as it is
            theirs = {tuple(field.board(position, side))}
        assert ours == theirs, position.to_id()
        checked += 1
    assert checked == 60
    # The positions with the bar and borne-off checkers, with a roll that enters.
    plays = BACKGAMMON_RULES.legal_plays(BARRED, WHITE, (6, 3), False)
    assert {tuple(field.board(p.position, WHITE)) for p in plays} == {
        tuple(b) for b in bgbot_cpp.possible_moves(field.board(BARRED, WHITE), 6, 3)}


def test_post_move_probabilities_are_chances_seen_from_the_mover():
    start = BACKGAMMON_RULES.initial()
    win, win2, win3, lose2, lose3 = field.post_move_probabilities(start, WHITE)
    assert 0.0 < win3 <= win2 <= win < 1.0 and 0.0 < lose3 <= lose2 <= 1.0 - win
    # The start, the opponent to roll: the side that moved (nothing) is behind.
    assert win < 0.5
    before = field.to_roll_probabilities(start, BLACK)
    assert before[0] == pytest.approx(1.0 - win) and before[1] == pytest.approx(lose2)
    # A finished game: its exact result.
    won = _position({1: -15}, off=(15, 0))  # Black all in White's home: a backgammon
    assert field.post_move_probabilities(won, WHITE) == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert field.post_move_probabilities(won, BLACK) == (0.0, 0.0, 0.0, 1.0, 1.0)


def test_a_stronger_position_is_valued_higher():
    white_ahead = _position({1: 5, 2: 5, 3: 5, 4: -5, 5: -5, 6: -5})  # a race, 30 pips to 300
    assert field.to_roll_probabilities(white_ahead, WHITE)[0] > 0.99
    assert field.to_roll_probabilities(white_ahead, BLACK)[0] < 0.01


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_ranking_covers_every_play_once_best_first(plies):
    start = BACKGAMMON_RULES.initial()
    plays = BACKGAMMON_RULES.legal_plays(start, WHITE, (3, 1), True)
    ranked = field.rank_plays(start, WHITE, plays, plies)
    assert sorted(r.index for r in ranked) == list(range(len(plays)))
    searched = [r for r in ranked if r.plies == plies]
    assert searched and ranked[: len(searched)] == searched
    assert [r.value for r in searched] == sorted((r.value for r in searched), reverse=True)
    # The opening 3-1: every engine and book makes the 5-point (8/5 6/5).
    best = plays[ranked[0].index]
    assert field.best_play(start, WHITE, plays, plies) == ranked[0].index
    assert field.board(best.position, WHITE)[5] == 2


def test_ranking_for_the_match_values_wins_only():
    start = BACKGAMMON_RULES.initial()
    plays = BACKGAMMON_RULES.legal_plays(start, BLACK, (6, 4), True)
    wins_only = Objective.for_side(BLACK, WINS_ONLY)
    for r in field.rank_plays(start, BLACK, plays, 0, wins_only):
        assert r.value == pytest.approx(2 * r.probabilities[0] - 1)


def test_depths_outside_the_offered_range_are_refused():
    start = BACKGAMMON_RULES.initial()
    plays = BACKGAMMON_RULES.legal_plays(start, WHITE, (3, 1), True)
    with pytest.raises(ValueError, match="plies"):
        field.rank_plays(start, WHITE, plays, 3)
    with pytest.raises(ValueError, match="no plays"):
        field.rank_plays(start, WHITE, [], 0)


@pytest.mark.parametrize("rules", ["backgammon", "short_nardy"])
@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_arrays_convert_as_positions_do(rules, side):
    positions = [BARRED] if rules == "backgammon" else []
    positions += [p for p, _, _, _ in sample_positions(rules, 40, seed=13)]
    rows = field.boards_of(boards(rules, positions, side))
    assert rows.tolist() == [field.board(p, side) for p in positions]


def test_raw_estimates_of_arrays_are_the_positions_estimates():
    positions = [p for p, _, _, _ in sample_positions("short_nardy", 30, seed=17)
                 if ruleset("short_nardy").outcome(p) is None]
    for side in (WHITE, BLACK):
        got = field.post_move_raw(boards("short_nardy", positions, side))
        want = [field.post_move_probabilities(p, side) for p in positions]
        assert got.shape == (len(positions), 5)
        assert got.tolist() == [list(w) for w in want]  # the same call, row by row
