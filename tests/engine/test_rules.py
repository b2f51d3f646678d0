"""One or more tests per rule of RULES.md, on concrete positions.

Boards are written from the mover's side with :func:`board` (``mine`` / ``theirs``
in the mover's own numbering); whatever is missing from 15 is borne off.
"""

from __future__ import annotations

import pytest

from nardy import (
    BLACK,
    LONG_NARDY_RULES,
    WHITE,
    IllegalMoveError,
    InvalidPositionError,
    Outcome,
    Play,
    Position,
    Step,
    TurnState,
    legal_plays,
    match_winner,
    opp,
    other,
    parse_side,
    resign_outcome,
    side_name,
    to_perspective,
)

from .util import board, texts, turn

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def reason(state: TurnState, step: Step) -> str:
    with pytest.raises(IllegalMoveError) as info:
        state.apply(step)
    return info.value.reason


def play_texts(plays: list[Play]) -> set[str]:
    return {" ".join(sorted(str(s) for s in p.steps)) for p in plays}


def mine_after(play: Play, side: int) -> dict[int, int]:
    return {p: n for p, n in play.position.in_perspective(side).items() if n > 0}


# --- R1, R2, R33: numbering and perspective ---------------------------------------


def test_r1_r2_opp_numbering() -> None:
    """R2: Black's b is White's b+12 (b<=12) or b-12; opp is its own inverse."""
    assert [opp(p) for p in (1, 6, 12, 13, 18, 24)] == [13, 18, 24, 1, 6, 12]
    assert all(opp(opp(p)) == p for p in range(1, 25))
    assert opp(0) == 0


def test_r2_r33_to_perspective() -> None:
    """R2/R33: converting a point between the two numberings."""
    assert to_perspective(24, WHITE, BLACK) == 12  # White's head is Black's 12
    assert to_perspective(24, BLACK, WHITE) == 12  # Black's head is White's 12
    assert to_perspective(1, BLACK, WHITE) == 13
    assert to_perspective(7, WHITE, WHITE) == 7
    assert to_perspective(0, WHITE, BLACK) == 0  # off stays off
    for p in range(1, 25):
        assert to_perspective(to_perspective(p, WHITE, BLACK), BLACK, WHITE) == p
    with pytest.raises(ValueError):
        to_perspective(25, WHITE, BLACK)


def test_r33_board_in_each_perspective() -> None:
    """R33: the same position served in each side's own numbering."""
    p = board(WHITE, {24: 13, 18: 2}, {24: 14, 1: 1})  # theirs: Black's points, White's view
    assert p.in_perspective(WHITE) == {24: 13, 18: 2, 12: -14, 13: -1}
    assert p.in_perspective(BLACK) == {24: 14, 12: -13, 6: -2, 1: 1}
    assert Position.from_perspective(BLACK, p.in_perspective(BLACK), 0, 0) == p
    assert p.count_at(BLACK, 6) == -2 and p.count_at(WHITE, 18) == 2


def test_sides() -> None:
    assert other(WHITE) == BLACK and other(BLACK) == WHITE
    assert side_name(BLACK) == "black" and parse_side("White") == WHITE
    with pytest.raises(ValueError):
        parse_side("red")


# --- R3: start and position validation ---------------------------------------------


def test_r3_initial_position() -> None:
    """R3: 15 checkers each, all on the own head."""
    p = Position.initial()
    assert p.in_perspective(WHITE) == {24: 15, 12: -15}
    assert p.in_perspective(BLACK) == {24: 15, 12: -15}
    assert p.off == (0, 0) and p.outcome() is None
    assert LONG_NARDY_RULES.initial() == p


@pytest.mark.parametrize(("counts", "off_mine", "off_theirs", "message"), [
    ({25: 15, 12: -15}, 0, 0, "1..24"),
    ({0: 15, 12: -15}, 0, 0, "1..24"),
    ({24: 16, 12: -15}, 0, 0, "at most 15"),
    ({24: 14, 12: -15}, 0, 0, "must total 15"),
    ({24: 10, 23: 6, 12: -15}, 0, 0, "on the board"),
    ({24: 15, 12: -15}, 1, 0, "must total 15"),
    ({12: -15}, 15, -1, "0..15"),
    ({}, 15, 15, "R28"),
])
def test_r3_invalid_positions(counts: dict[int, int], off_mine: int, off_theirs: int,
                              message: str) -> None:
    """R3: every side has 15 checkers, board plus off."""
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_perspective(WHITE, counts, off_mine, off_theirs)


def test_r3_zero_counts_are_ignored() -> None:
    assert Position.from_perspective(WHITE, {24: 15, 12: -15, 5: 0}, 0, 0) == Position.initial()


# --- R4, R5, R6: direction and landing -------------------------------------------------


def test_r4_steps_only_move_forward() -> None:
    """R4: a step goes toward lower numbers; 24 and 1 are not adjacent."""
    with pytest.raises(ValueError):
        Step(18, 24)
    with pytest.raises(ValueError):
        Step(1, 24)
    for play in legal_plays(Position.initial(), WHITE, (6, 5)):
        assert all(s.dst < s.src for s in play.steps)


def test_r5_own_checkers_share_a_point() -> None:
    """R5: landing on an own point is fine."""
    p = board(WHITE, {24: 13, 18: 1, 13: 1}, {24: 15})
    state = turn(p, WHITE, (5, 1))
    assert "18/13" in texts(state)
    after = state.apply(Step(18, 13))
    assert after.position.count_at(WHITE, 13) == 2


def test_r6_no_landing_on_an_opposing_checker() -> None:
    """R6: a point with any opposing checker is blocked; passing over is fine."""
    # White's 18 holds one black checker (Black's 6).
    p = board(WHITE, {24: 15}, {24: 14, 6: 1})
    assert p.count_at(WHITE, 18) == -1
    state = turn(p, WHITE, (6, 1))
    assert "24/18" not in texts(state)
    assert reason(state, Step(24, 18)) == "point_blocked"
    # 24/23/17 passes over 18.
    assert {str(x) for x in legal_plays(p, WHITE, (6, 1))} == {"24/23 23/17"}


# --- R9, R10: dice and intermediate stops ------------------------------------------


def test_r9_double_is_played_four_times() -> None:
    """R9: a double gives four dice."""
    state = turn(Position.initial(), WHITE, (2, 2))
    assert state.dice_left == (2, 2, 2, 2)
    plays = legal_plays(Position.initial(), WHITE, (2, 2))
    assert [len(p.steps) for p in plays] == [4]


def test_r10_every_stop_must_be_a_legal_landing() -> None:
    """R10: 20 -> 9 with 6-5 needs 14 or 15 free; both hold black, so nothing moves."""
    p = board(WHITE, {20: 15}, {2: 2, 3: 13})  # Black's 2, 3 are White's 14, 15
    assert p.count_at(WHITE, 14) < 0 and p.count_at(WHITE, 15) < 0
    state = turn(p, WHITE, (6, 5))
    assert state.legal_steps() == ()
    assert legal_plays(p, WHITE, (6, 5)) == [Play((), p)]


# --- R11, R12, R13: the head --------------------------------------------------------

# Opening plays (either colour, own numbering): the resulting non-head points.
OPENING = {
    (1, 1): [{20: 1}],
    (2, 2): [{16: 1}],
    (3, 3): [{15: 1}],  # 24/21/18/15, then 15/12 is Black's head
    (4, 4): [{16: 1}],  # 16/12 blocked
    (5, 5): [{4: 1}],  # 24/19/14/9/4 passes over 12
    (6, 6): [{18: 1}],  # 18/12 blocked: one die only
}
OPENING_FIRST_TURN = {
    **OPENING,
    (3, 3): [{18: 2}, {21: 1, 15: 1}],
    (4, 4): [{16: 2}],
    (6, 6): [{18: 2}],
}


@pytest.mark.parametrize("side", [WHITE, BLACK])
@pytest.mark.parametrize("first_turn", [True, False])
@pytest.mark.parametrize("dice", ALL_ROLLS)
def test_r11_r12_every_opening_roll(side: int, first_turn: bool, dice: tuple[int, int]) -> None:
    """R11/R12: the 21 opening rolls for both colours, with and without the first turn.

    Only one checker leaves the head, except 6-6, 4-4, 3-3 on the first turn (two);
    5-5, 2-2, 1-1 get no exception. A non-double is played by the one leaver.
    """
    a, b = dice
    if a == b:
        expected = (OPENING_FIRST_TURN if first_turn else OPENING)[dice]
    else:
        expected = [{24 - a - b: 1}]
    plays = legal_plays(Position.initial(), side, dice, first_turn)
    got = []
    for play in plays:
        mine = mine_after(play, side)
        left_head = 15 - mine.pop(24)
        assert left_head == sum(mine.values())
        got.append(mine)
    assert sorted(map(sorted, map(dict.items, got))) == sorted(
        map(sorted, map(dict.items, expected)))
    # All plays use the same number of dice.
    assert len({len(p.steps) for p in plays}) == 1
    state = TurnState.start(Position.initial(), side, dice, first_turn)
    two = first_turn and dice in ((6, 6), (4, 4), (3, 3))
    assert state.head_left == (2 if two else 1)
    assert state.head_may_leave() == state.head_left


def test_r12_opening_six_six_plays_only_two_sixes() -> None:
    """R12: first-turn 6-6: 24/18 twice; 18/12 is Black's head, so two dice stay unplayed."""
    plays = legal_plays(Position.initial(), WHITE, (6, 6), True)
    assert [str(p) for p in plays] == ["24/18 24/18"]
    state = TurnState.start(Position.initial(), WHITE, (6, 6), True)
    state = state.apply(Step.parse("24/18")).apply(Step.parse("24/18"))
    assert state.dice_left == (6, 6) and state.is_turn_over()
    assert state.pass_reason() == "no legal move"


def test_r11_second_leaver_is_refused() -> None:
    """R11: after one checker left, another head step is a head_rule error."""
    state = turn(Position.initial(), WHITE, (6, 5)).apply(Step(24, 18))
    assert texts(state) == ["18/13"]
    assert reason(state, Step(24, 19)) == "head_rule"
    assert state.head_left == 0 and state.head_may_leave() == 0


def test_r11_leaver_keeps_moving_on_a_double() -> None:
    """R11: the one leaver may use all four dice; it is still that one checker."""
    state = turn(Position.initial(), WHITE, (2, 2))
    for step in ("24/22", "22/20", "20/18", "18/16"):
        assert texts(state) == [step]
        state = state.apply(Step.parse(step))
    assert state.dice_left == () and state.is_turn_over()


def test_r11_doubles_later_in_the_game() -> None:
    """R11: mid-game, a double still lets only one checker leave; others move freely."""
    p = board(WHITE, {24: 12, 10: 3}, {24: 15})
    plays = legal_plays(p, WHITE, (1, 1))
    for play in plays:
        assert sum(1 for s in play.steps if s.src == 24) <= 1
        assert len(play.steps) == 4


def test_r13_head_counter() -> None:
    """R13: 2 then 1 then 0 on first-turn 6-6; 0 when the head cannot move."""
    state = turn(Position.initial(), WHITE, (6, 6), first_turn=True)
    assert state.head_may_leave() == 2
    state = state.apply(Step(24, 18))
    assert state.head_may_leave() == 1
    state = state.apply(Step(24, 18))
    assert state.head_may_leave() == 0
    # One may leave, but the head's landings (18 and 19) are blocked: counter shows 0.
    p = board(WHITE, {24: 14, 10: 1}, {6: 1, 7: 1, 24: 13})  # Black's 6, 7 = White's 18, 19
    state = turn(p, WHITE, (6, 5))
    assert state.head_left == 1 and state.head_may_leave() == 0
    # Non-double: 1, then 0 once the leaver has moved.
    state = turn(Position.initial(), BLACK, (3, 1))
    assert state.head_may_leave() == 1
    assert state.apply(Step(24, 21)).head_may_leave() == 0


# --- R14-R18: primes ----------------------------------------------------------------


def test_r14_r15_prime_refused_without_a_checker_ahead() -> None:
    """R15: 11/5 fills 5..10 into a prime; every black checker is behind it (on 12)."""
    p = board(WHITE, {24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}, {24: 15})
    state = turn(p, WHITE, (6, 1))
    assert "11/5" not in texts(state)
    assert reason(state, Step(11, 5)) == "prime_rule"
    assert "10/9" in texts(state)


def test_r14_r15_prime_allowed_with_a_checker_ahead() -> None:
    """R15: the same prime is fine with a black checker on Black's 8 (White's 20)."""
    p = board(WHITE, {24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}, {24: 14, 8: 1})
    state = turn(p, WHITE, (6, 1))
    assert "11/5" in texts(state)
    after = state.apply(Step(11, 5))
    assert all(after.position.count_at(WHITE, q) > 0 for q in range(5, 11))


def test_r15_ahead_means_lower_opponent_number() -> None:
    """R15: for a prime on White's 5..10, a black checker on White's 3 (Black's 15) is
    ahead of it; one on White's 11 (Black's 23) is behind it."""
    mine = {24: 9, 10: 1, 9: 2, 8: 1, 7: 1, 5: 1}
    behind = board(WHITE, mine, {24: 14, 23: 1})
    assert behind.count_at(WHITE, 11) == -1
    assert reason(turn(behind, WHITE, (3, 1)), Step(9, 6)) == "prime_rule"
    ahead = board(WHITE, mine, {24: 14, 15: 1})
    assert ahead.count_at(WHITE, 3) == -1
    assert "9/6" in texts(turn(ahead, WHITE, (3, 1)))


def test_r16_prime_at_the_stop_between_two_dice_is_refused() -> None:
    """R16: 10/6/4 with 4-2 stops on 6, filling 1..6 (no black ahead), so it is refused
    even though the final board (6 empty again) is no prime; 10/8/4 is blocked (R6)."""
    p = board(WHITE, {24: 9, 10: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {24: 14, 20: 1})
    assert p.count_at(WHITE, 8) == -1  # Black's 20
    state = turn(p, WHITE, (4, 2))
    assert "10/6" not in texts(state)
    assert reason(state, Step(10, 6)) == "prime_rule"
    final_board = board(WHITE, {24: 9, 5: 1, 4: 2, 3: 1, 2: 1, 1: 1}, {24: 14, 20: 1})
    assert all(play.position != final_board for play in legal_plays(p, WHITE, (4, 2)))


def test_r17_existing_prime_stays() -> None:
    """R17: a prime already on the board stays; moves that fill no new window are fine."""
    # Prime 6..11 on the board, every black checker behind it now.
    p = board(WHITE, {24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2, 6: 1}, {24: 15})
    state = turn(p, WHITE, (2, 1))
    steps = texts(state)
    assert {"24/22", "24/23", "11/10", "7/6"} <= set(steps)
    # 7/5 (7 keeps a checker) would fill 5..10: a new window, refused.
    assert reason(state, Step(7, 5)) == "prime_rule"
    # 6/5 with the 1 leaves 6 empty: 5 and 7..11 are no window, fine.
    assert "6/5" in steps


def test_r17_extending_a_prime_to_seven_is_judged() -> None:
    """R17: the seventh point creates a new six-window, judged like any other."""
    mine = {24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 2}
    refused = turn(board(WHITE, mine, {24: 15}), WHITE, (1, 2))
    assert reason(refused, Step(6, 5)) == "prime_rule"
    assert "7/5" in texts(refused)  # 7 emptied: no new window
    allowed = turn(board(WHITE, mine, {24: 14, 1: 1}), WHITE, (1, 2))  # Black's 1 = W13
    assert "6/5" in texts(allowed)


def test_r18_five_in_a_row_and_wall_with_gap_always_allowed() -> None:
    """R18: five in a row, or a wall of seven points with a gap, needs nothing ahead."""
    five = board(WHITE, {24: 10, 14: 1, 10: 1, 9: 1, 7: 1, 6: 1}, {24: 15})
    assert "14/8" in texts(turn(five, WHITE, (6, 1)))  # 10..6 in a row
    wall = board(WHITE, {24: 8, 11: 1, 10: 2, 9: 1, 7: 1, 6: 1, 5: 1}, {24: 15})
    assert "10/4" in texts(turn(wall, WHITE, (6, 2)))  # 11..4 with a gap at 8


def test_r18_seam_prime_never_legal() -> None:
    """R18: a prime holding own 12 and 13 is never legal, whatever is ahead."""
    # White holds 16, 15, 14, 13, 11; 18/12 would fill 11..16. Black has left its head and
    # stands on White's 7, 8, 9, 19, 21, 22 (ahead of any prime that could be ahead).
    mine = {24: 9, 18: 1, 16: 1, 15: 1, 14: 1, 13: 1, 11: 1}
    p = board(WHITE, mine, {20: 10, 7: 1, 9: 1, 10: 1, 19: 1, 21: 1})
    assert p.count_at(WHITE, 12) == 0 and p.count_at(WHITE, 19) == -1
    state = turn(p, WHITE, (6, 1))
    assert reason(state, Step(18, 12)) == "prime_rule"


def test_r18_window_13_to_18_never_legal() -> None:
    """R18: own 13..18 are the opponent's 1..6: nothing can be lower, never legal."""
    mine = {24: 9, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1}
    p = board(WHITE, mine, {20: 10, 9: 1, 10: 1, 19: 1, 21: 1, 22: 1})
    state = turn(p, WHITE, (6, 1))
    assert reason(state, Step(19, 13)) == "prime_rule"
    assert "14/13" in texts(state)  # 14 emptied: no prime


def test_r18_upper_prime_needs_checker_on_lower_opponent_points() -> None:
    """R14/R15 for a window in 13..24: ahead means mover points 13..k-1."""
    mine = {24: 9, 23: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1}
    behind = board(WHITE, mine, {24: 14, 20: 1})  # Black's 20 = White's 8: not ahead
    assert reason(turn(behind, WHITE, (1, 2)), Step(23, 22)) == "prime_rule"
    ahead = board(WHITE, mine, {24: 14, 3: 1})  # Black's 3 = White's 15: ahead of 17..22
    assert "23/22" in texts(turn(ahead, WHITE, (1, 2)))


# --- R19-R24: forced play -------------------------------------------------------------


def test_r19_both_dice_must_be_played() -> None:
    """R19: 2/1 is legal alone, but then the 6 cannot move; 20/19/13 plays both."""
    p = board(WHITE, {20: 1, 2: 1, 1: 13}, {2: 1, 24: 14})  # Black's 2 = White's 14
    state = turn(p, WHITE, (6, 1))
    assert texts(state) == ["20/19"]
    assert reason(state, Step(2, 1)) == "must_play_both"
    assert reason(state, Step(20, 14)) == "point_blocked"
    assert [str(x) for x in legal_plays(p, WHITE, (6, 1))] == ["20/19 19/13"]


def test_r20_double_as_many_as_possible() -> None:
    """R20: 6-6; 9/3 is legal alone but then 8/2 would fill 1..6 with no black ahead
    (prime rule), so only one six plays; 8/2 8/2 plays two. 9/3 is refused."""
    p = board(WHITE, {9: 1, 8: 2, 6: 2, 5: 1, 4: 1, 1: 1}, {24: 1})
    state = turn(p, WHITE, (6, 6))
    assert texts(state) == ["8/2"]
    assert reason(state, Step(9, 3)) == "must_play_max"
    assert [str(x) for x in legal_plays(p, WHITE, (6, 6))] == ["8/2 8/2"]
    assert state.max_dice() == 2


def test_r21_larger_die_when_only_one_can_be_played() -> None:
    """R21: 13 can play the 6 or the 5 but then 2 is blocked: the 6 must be played."""
    p = board(WHITE, {13: 1, 1: 14}, {14: 1, 24: 14})  # Black's 14 = White's 2
    state = turn(p, WHITE, (6, 5))
    assert texts(state) == ["13/7"]
    assert reason(state, Step(13, 8)) == "must_play_larger"
    assert [str(x) for x in legal_plays(p, WHITE, (6, 5))] == ["13/7"]
    after = state.apply(Step(13, 7))
    assert after.is_turn_over() and after.pass_reason() == "no legal move"


def test_r21_smaller_die_when_the_larger_cannot_be_played() -> None:
    """R21: if only the smaller die can be played, it is played."""
    p = board(WHITE, {13: 1, 1: 14}, {14: 1, 19: 1, 24: 13})  # W2 and W7 black
    state = turn(p, WHITE, (6, 5))
    assert texts(state) == ["13/8"]
    assert reason(state, Step(13, 7)) == "point_blocked"


def test_r22_head_refused_moves_do_not_count() -> None:
    """R22: off the first turn 6-6 plays one six (head rule, then Black's head)."""
    plays = legal_plays(Position.initial(), WHITE, (6, 6), False)
    assert [str(x) for x in plays] == ["24/18"]


def test_r23_pass_with_no_legal_move() -> None:
    """R23: no legal die: the turn passes and says why; legal_plays gives one empty play."""
    p = board(WHITE, {20: 15}, {2: 2, 3: 13})
    state = turn(p, WHITE, (6, 5))
    assert state.is_turn_over()
    assert state.pass_reason() == "no legal move"
    assert state.head_may_leave() == 0
    [play] = legal_plays(p, WHITE, (6, 5))
    assert play.steps == () and play.position == p and str(play) == "-"


def test_r24_offered_steps_are_first_steps_of_complete_plays() -> None:
    """R24: each offered step leads on to a maximal play; others are refused."""
    p = board(WHITE, {24: 10, 13: 2, 8: 3}, {24: 12, 3: 1, 16: 2})
    for dice in ALL_ROLLS:
        state = turn(p, WHITE, dice)
        plays = legal_plays(p, WHITE, dice)
        firsts = {x.steps[0] for x in plays if x.steps}
        assert firsts <= set(state.legal_steps())
        for step in state.legal_steps():
            nxt = state.apply(step)
            assert nxt.max_dice() == state.max_dice() - 1 or nxt.position.outcome()


# --- R25-R28: bearing off and the end --------------------------------------------


def test_r25_no_bearing_off_with_a_checker_outside_home() -> None:
    """R25: one checker on 7 keeps the others from bearing off."""
    state = turn(board(WHITE, {7: 1, 3: 14}, {24: 15}), WHITE, (3, 6))
    assert reason(state, Step(3, 0, 3)) == "not_all_home"
    assert texts(state) == ["7/1", "7/4"]  # the 6 brings it home first, or the 3


def test_r25_last_checker_home_on_the_first_die_then_bear_off() -> None:
    """R25: judged before each die: 8/2 with the 6 brings it home, the 4 bears off."""
    p = board(WHITE, {8: 1, 4: 14}, {24: 15})
    state = turn(p, WHITE, (6, 4))
    assert reason(state, Step(4, 0, 4)) == "not_all_home"
    state = state.apply(Step(8, 2))
    assert "4/off" in texts(state)
    state = state.apply(Step(4, 0, 4))
    assert state.position.off_of(WHITE) == 1


def test_r26_bear_off_exactly() -> None:
    """R26: a 5 bears off from 5."""
    p = board(WHITE, {6: 2, 5: 2, 1: 1}, {24: 15})
    state = turn(p, WHITE, (5, 1))
    assert Step(5, 0, 5) in state.legal_steps()
    assert state.resolve(5, 0) == Step(5, 0, 5)


def test_r26_over_roll_bears_off_from_the_highest_point() -> None:
    """R26: a 6 with 6 empty and nothing higher bears off from the highest (4)."""
    p = board(WHITE, {4: 2, 2: 1}, {24: 15})
    state = turn(p, WHITE, (6, 5))
    assert Step(4, 0, 6) in state.legal_steps()
    assert reason(state, Step(2, 0, 6)) == "bear_off_not_exact"
    with pytest.raises(IllegalMoveError) as info:
        state.resolve(4, 0)
    assert info.value.reason == "ambiguous_die"  # the 6 and the 5 both bear off from 4
    plays = legal_plays(p, WHITE, (6, 5))
    assert {x.position.off_of(WHITE) for x in plays} == {14}


def test_r26_moving_inside_home_instead() -> None:
    """R26: instead of bearing off, a die may move a checker inside home."""
    p = board(WHITE, {6: 1, 5: 1, 2: 1}, {24: 15})
    state = turn(p, WHITE, (5, 3))
    steps = texts(state)
    assert "5/off" in steps and "6/1" in steps and "6/3" in steps and "5/2" in steps
    p2 = board(WHITE, {6: 2, 3: 1}, {24: 15})
    state2 = turn(p2, WHITE, (4, 1))
    assert reason(state2, Step(3, 0, 4)) == "bear_off_not_exact"
    assert "6/2" in texts(state2)


def test_r27_opposing_checker_in_home() -> None:
    """R27: a black checker on White's 3 does not stop bearing off, but blocks landing."""
    p = board(WHITE, {6: 2, 5: 1}, {15: 1, 24: 14})  # Black's 15 = White's 3
    assert p.count_at(WHITE, 3) == -1
    state = turn(p, WHITE, (6, 2))
    assert "6/off" in texts(state)
    assert reason(state, Step(5, 3)) == "point_blocked"


def test_r28_game_ends_at_the_fifteenth_checker() -> None:
    """R28: bearing off the 15th ends the game at once, even with dice left."""
    p = board(WHITE, {2: 1}, {24: 15})
    state = turn(p, WHITE, (4, 4))
    state = state.apply(state.resolve(2, 0))
    assert state.position.outcome() == Outcome(WHITE, 2, "mars")
    assert state.dice_left == (4, 4, 4)
    assert state.is_turn_over() and state.legal_steps() == ()
    assert state.pass_reason() is None
    assert reason(state, Step(2, 0, 4)) == "game_over"
    assert legal_plays(p, WHITE, (4, 4))[0].position.outcome() is not None


def test_r28_last_checker_with_two_dice_uses_the_larger() -> None:
    """R28/R21: one checker on 1 and 6-5: either die ends the game; the 6 is shown."""
    p = board(BLACK, {1: 1}, {24: 14, 5: 1})
    plays = legal_plays(p, BLACK, (5, 6))
    assert [str(x) for x in plays] == ["1/off(6)"] and plays[0].steps[0].die == 6
    assert turn(p, BLACK, (5, 6)).resolve(1, 0).die == 6


def test_r19_r28_both_dice_are_played_even_where_one_die_would_end_the_game() -> None:
    """R19 read literally: 3/1 then 1/off plays both dice, so both must be played; 3/off
    with the 5 alone (which would end the game at once, R28) is not offered."""
    p = board(WHITE, {3: 1}, {24: 15})
    state = turn(p, WHITE, (5, 2))
    assert set(texts(state)) == {"3/1"}
    plays = legal_plays(p, WHITE, (5, 2))
    assert [str(play) for play in plays] == ["3/1 1/off(5)"]
    assert plays[0].position.off_of(WHITE) == 15
    assert state.max_dice() == 2


def test_r21_r28_when_only_one_die_can_play_the_game_ends_with_the_larger() -> None:
    """The last checker on 1 with 6-5: either die bears it off, not both; R21: the 6."""
    state = turn(board(WHITE, {1: 1}, {24: 15}), WHITE, (6, 5))
    assert [(s.src, s.dst, s.die) for s in state.legal_steps()] == [(1, 0, 6)]
    assert state.max_dice() == 1


# --- R29-R31: score and match -------------------------------------------------------


def test_r29_mars_and_single_win() -> None:
    """R29: 2 points (mars) when the loser has borne off nothing, else 1."""
    mars = board(WHITE, {}, {24: 15})
    assert mars.outcome() == Outcome(WHITE, 2, "mars")
    single = board(BLACK, {}, {5: 14})
    assert single.outcome() == Outcome(BLACK, 1, "single")
    assert Position.initial().outcome() is None


def test_r30_resignation() -> None:
    """R30: 2 if the resigning side has borne off nothing, else 1."""
    assert resign_outcome(Position.initial(), WHITE) == Outcome(BLACK, 2, "mars")
    p = board(BLACK, {5: 14}, {24: 15})
    assert resign_outcome(p, BLACK) == Outcome(WHITE, 1, "single")
    assert resign_outcome(p, WHITE) == Outcome(BLACK, 2, "mars")
    assert LONG_NARDY_RULES.resign_outcome(p, BLACK) == Outcome(WHITE, 1, "single")


@pytest.mark.parametrize(("score", "length", "winner"), [
    ((0, 0), 1, None), ((1, 0), 1, WHITE), ((0, 2), 1, BLACK), ((2, 2), 3, None),
    ((3, 2), 3, WHITE), ((2, 4), 3, BLACK), ((6, 6), 7, None), ((6, 8), 7, BLACK),
])
def test_r31_match_winner(score: tuple[int, int], length: int, winner: int | None) -> None:
    """R31: the first to reach or pass the length wins the match."""
    assert match_winner(score, length) == winner


def test_r31_match_winner_rejects_nonsense() -> None:
    for score, length in [((0, 0), 0), ((-1, 0), 3), ((3, 3), 3)]:
        with pytest.raises(ValueError):
            match_winner(score, length)


def test_outcome_validation() -> None:
    with pytest.raises(ValueError):
        Outcome(WHITE, 2, "single")
    with pytest.raises(ValueError):
        Outcome(2, 1, "single")


# --- resolve and error codes -----------------------------------------------------------


def test_resolve_and_error_codes() -> None:
    state = turn(Position.initial(), WHITE, (6, 5))
    assert state.resolve(24, 18) == Step(24, 18, 6)
    assert reason(state, Step(23, 17)) == "no_checker"
    assert reason(state, Step(12, 8)) == "no_such_die"
    assert reason(state, Step(12, 7)) == "wrong_side"
    with pytest.raises(IllegalMoveError) as info:
        state.resolve(24, 30)
    assert info.value.reason == "invalid_step"
    done = state.apply(Step(24, 18)).apply(Step(18, 13))
    assert done.is_turn_over() and done.pass_reason() is None
    assert reason(done, Step(13, 7)) == "turn_over"


def test_apply_all_with_text_and_unspecified_die() -> None:
    state = turn(Position.initial(), BLACK, (4, 2))
    end = state.apply_all("24/20 20/18")
    assert end.dice_left == () and end.position.in_perspective(BLACK)[18] == 1
    p = board(WHITE, {6: 1, 3: 1}, {24: 15})
    end = turn(p, WHITE, (6, 5)).apply_all("6/off 3/off")
    assert end.position.outcome() == Outcome(WHITE, 2, "mars")
