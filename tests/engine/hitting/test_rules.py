"""The hitting games' rules (RULES-FAMILY H1-H16), one concrete position per case.

Boards are written with :func:`board`: the mover's own points, then the opponent's
own points (H1: its ``q`` is the mover's ``25 - q``).
"""

from __future__ import annotations

import pytest

from nardy import (
    BACKGAMMON_RULES,
    BLACK,
    NARD_RULES,
    RULESETS,
    SHORT_NARDY_RULES,
    WHITE,
    HitPosition,
    IllegalMoveError,
    Outcome,
    RuleSet,
)

from .util import board, plays, step, texts, turn

# ---------------------------------------------------------------------------
# H1-H6: numbering, start, opening


def test_h1_a_point_is_the_opponents_25_minus_p() -> None:
    position = board("backgammon", WHITE, {13: 15}, {20: 15})
    assert position.in_perspective(WHITE) == {13: 15, 5: -15}
    assert position.in_perspective(BLACK) == {20: 15, 12: -15}


def test_h3_start_of_short_nardy_and_backgammon() -> None:
    for rules in ("short_nardy", "backgammon"):
        start = RULESETS[rules].initial()
        assert isinstance(start, HitPosition)
        assert {p: n for p, n in start.in_perspective(WHITE).items() if n > 0} == {
            24: 2, 13: 5, 8: 3, 6: 5}
        assert {p: n for p, n in start.in_perspective(BLACK).items() if n > 0} == {
            24: 2, 13: 5, 8: 3, 6: 5}
        assert start.bar == (0, 0) and start.off == (0, 0)


def test_h3_start_of_nard_mirrored() -> None:
    start = NARD_RULES.initial()
    for side in (WHITE, BLACK):
        assert {p: n for p, n in start.in_perspective(side).items() if n > 0} == {
            24: 2, 22: 2, 19: 3, 18: 2, 17: 3, 12: 3}


def test_h4_h5_opening_data() -> None:
    assert (SHORT_NARDY_RULES.opening, SHORT_NARDY_RULES.later_games) == (
        "roll_off", "loser_starts")
    assert (NARD_RULES.opening, NARD_RULES.later_games) == ("roll_off", "loser_starts")
    assert (BACKGAMMON_RULES.opening, BACKGAMMON_RULES.later_games) == (
        "roll_off_played", "roll_off")


def test_h4_backgammon_plays_the_opening_roll() -> None:
    """The roll-off's 6 and 1 are the starter's first turn: 13/7 8/7 is among them."""
    state = BACKGAMMON_RULES.start_turn(BACKGAMMON_RULES.initial(), BLACK, (6, 1), True)
    assert "13/7 8/7" in [str(p) for p in state.plays()]
    after = state.apply_all("13/7 8/7")
    assert after.is_turn_over() and after.position.in_perspective(BLACK)[7] == 2


def test_h6_a_double_is_played_four_times() -> None:
    state = turn(BACKGAMMON_RULES.initial(), WHITE, (6, 6))
    assert state.max_dice() == 4
    assert "24/18 24/18 13/7 13/7" in plays(BACKGAMMON_RULES.initial(), WHITE, (6, 6))


# ---------------------------------------------------------------------------
# H7-H9: landing, hitting, the bar


def test_h7_a_closed_point_is_refused_and_a_blot_is_hit() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 5}, {15: 1, 18: 2, 1: 12})
    state = turn(position, WHITE, (5, 3))
    assert state.hits(step("13/10")) and not state.hits(step("13/8"))
    assert not state.hits(step("8/3"))  # 3 is empty
    blocked = board("backgammon", WHITE, {13: 5, 6: 10}, {17: 2, 1: 13})
    with pytest.raises(IllegalMoveError) as err:
        turn(blocked, WHITE, (5, 3)).apply(step("13/8"))
    assert err.value.reason == "point_blocked"
    after = state.apply(step("13/10"))
    assert after.position.bar_of(BLACK) == 1
    assert after.position.count_at(WHITE, 10) == 1


def test_h8_one_checker_two_dice_hits_on_the_way() -> None:
    position = board("backgammon", WHITE, {13: 1, 6: 14}, {15: 1, 13: 14})
    assert plays(position, WHITE, (3, 1)) == [
        "13/10* 10/9", "13/10* 6/5", "6/3 3/2", "6/3 6/5"]
    state = turn(position, WHITE, (3, 1))
    result = state.apply_all("13/10 10/9").position
    assert result.bar_of(BLACK) == 1 and result.count_at(WHITE, 9) == 1
    assert result.count_at(WHITE, 10) == 0


def test_h8_intermediate_stop_must_be_open() -> None:
    """13 with 6-1: 13/7/6 and 13/12/6 both stop on a closed point; no 13/6."""
    position = board("backgammon", WHITE, {13: 1, 6: 14}, {18: 2, 13: 13})
    result = plays(position, WHITE, (6, 1))
    assert result and all("13/" not in p for p in result)


def test_h9_entering_on_closed_points_is_a_pass() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 4}, {1: 2, 2: 2, 13: 11},
                     bar_mine=1)
    state = turn(position, WHITE, (2, 1))
    assert state.legal_steps() == () and state.pass_reason() == "no legal move"
    assert plays(position, WHITE, (2, 1)) == ["-"]


def test_h9_entering_on_the_open_point() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 4}, {1: 2, 13: 13}, bar_mine=1)
    state = turn(position, WHITE, (3, 1))
    assert texts(state) == ["bar/22"]
    assert plays(position, WHITE, (3, 1)) == ["bar/22 22/21", "bar/22 6/5", "bar/22 8/7"]


def test_h9_several_checkers_on_the_bar() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 3, 6: 4}, {13: 15}, bar_mine=3)
    assert plays(position, WHITE, (6, 6)) == [
        "bar/19 bar/19 bar/19 13/7", "bar/19 bar/19 bar/19 19/13", "bar/19 bar/19 bar/19 8/2"]
    state = turn(position, WHITE, (6, 6)).apply_all("bar/19 bar/19")
    assert texts(state) == ["bar/19"]


def test_h9_a_die_that_cannot_enter_is_not_playable() -> None:
    """Two on the bar, 6-1, own 19 closed: the 1 enters and the 6 is lost, since a
    checker stays on the bar."""
    position = board("backgammon", WHITE, {13: 5, 8: 4, 6: 4}, {6: 2, 13: 13}, bar_mine=2)
    assert plays(position, WHITE, (6, 1)) == ["bar/24"]
    state = turn(position, WHITE, (6, 1)).apply(step("bar/24"))
    assert state.is_turn_over() and state.pass_reason() == "no legal move"


def test_h9_checkers_are_frozen_while_one_is_on_the_bar() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 4}, {4: 2, 13: 13}, bar_mine=1)
    state = turn(position, WHITE, (4, 3))
    assert texts(state) == ["bar/22"]
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("13/9"))
    assert err.value.reason == "bar_first"
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("bar/21"))
    assert err.value.reason == "point_blocked"
    assert texts(state.apply(step("bar/22"))) == ["22/18", "13/9", "8/4", "6/2"]


def test_h9_entering_hits_a_blot() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 4}, {3: 1, 13: 14}, bar_mine=1)
    state = turn(position, WHITE, (5, 3))
    assert texts(state) == ["bar/20", "bar/22"]  # source, then die, high first
    assert state.hits(step("bar/22")) and not state.hits(step("bar/20"))
    after = state.apply(step("bar/22"))
    assert after.position.bar == (0, 1)
    assert "bar/22* 22/17" in plays(position, WHITE, (5, 3))


def test_h9_no_checker_on_the_bar() -> None:
    with pytest.raises(IllegalMoveError) as err:
        turn(BACKGAMMON_RULES.initial(), WHITE, (3, 1)).apply(step("bar/22"))
    assert err.value.reason == "no_checker"


# ---------------------------------------------------------------------------
# H10: no hit-and-hide (short_nardy)


def test_h10_hit_and_hide_refused_in_short_nardy() -> None:
    position = board("short_nardy", WHITE, {13: 1, 8: 4, 6: 10}, {15: 1, 13: 14})
    state = turn(position, WHITE, (3, 2)).apply(step("13/10"))
    assert state.position.bar_of(BLACK) == 1
    assert "10/8" not in texts(state)
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("10/8"))
    assert err.value.reason == "hit_and_hide"
    assert "13/10* 10/8" not in plays(position, WHITE, (3, 2))


def test_h10_does_not_apply_to_backgammon() -> None:
    position = board("backgammon", WHITE, {13: 1, 8: 4, 6: 10}, {15: 1, 13: 14})
    assert "13/10* 10/8" in plays(position, WHITE, (3, 2))


def test_h10_the_hitter_may_go_on_to_an_empty_point_or_hit_again() -> None:
    position = board("short_nardy", WHITE, {13: 1, 6: 14}, {15: 1, 18: 1, 1: 13})
    assert "13/10* 10/7* 7/4 4/1" in plays(position, WHITE, (3, 3))
    state = turn(position, WHITE, (3, 3)).apply_all("13/10 10/7")
    assert state.position.bar_of(BLACK) == 2
    assert "7/4" in texts(state)


def test_h10_covering_the_hitter_is_allowed() -> None:
    position = board("short_nardy", WHITE, {14: 1, 12: 1, 8: 3, 6: 10}, {15: 1, 20: 14})
    state = turn(position, WHITE, (2, 2)).apply(step("12/10"))
    assert "10/8" not in texts(state)  # the hitter alone may not join the 8
    covered = state.apply_all("14/12 12/10")
    assert covered.position.count_at(WHITE, 10) == 2


def test_h10_checkers_on_one_point_are_alike() -> None:
    """Once another checker joins the hitter, a step from that point may be the other
    checker's, so it may land on own checkers; the one left is the hitter again."""
    position = board("short_nardy", WHITE, {14: 1, 12: 1, 8: 3, 6: 10}, {15: 1, 20: 14})
    state = turn(position, WHITE, (2, 2)).apply_all("12/10 14/12 12/10")
    assert "10/8" in texts(state)
    assert "14/12 12/10* 12/10 10/8" in plays(position, WHITE, (2, 2))
    assert state.apply(step("10/8")).is_turn_over()


def test_h10_the_hitter_moving_on_from_a_shared_point_is_still_restricted() -> None:
    """Hitter on 10 covered by one checker; with two more dice, 10/8 (the other
    checker) then 10/8 again (now surely the hitter, alone) is refused."""
    position = board("short_nardy", WHITE, {12: 2, 8: 3, 6: 10}, {15: 1, 20: 14})
    state = turn(position, WHITE, (2, 2)).apply_all("12/10 12/10 10/8")
    assert state.position.count_at(WHITE, 10) == 1
    assert "10/8" not in texts(state)
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("10/8"))
    assert err.value.reason == "hit_and_hide"


# ---------------------------------------------------------------------------
# H11: forced play


def test_h11_both_dice_if_any_order_plays_both() -> None:
    """6-1 with checkers on 13 and 8, Black holding 7, 12 and 23: 13 cannot move;
    8/2 2/1 plays both dice, so 8/2 must be followed by 2/1 and nothing plays one."""
    position = board("backgammon", WHITE, {13: 1, 8: 1, 1: 13}, {18: 2, 13: 2, 2: 11})
    assert plays(position, WHITE, (6, 1)) == ["8/2 2/1"]
    assert turn(position, WHITE, (6, 1)).max_dice() == 2


def test_h11_the_larger_die_when_only_one_can_be_played() -> None:
    """A lone checker on 20 (the rest on 1), 6-5, Black holding 9: 20/14 or 20/15,
    and then nothing: the larger, 20/14."""
    position = board("backgammon", WHITE, {20: 1, 1: 14}, {16: 2, 2: 13})
    state = turn(position, WHITE, (6, 5))
    assert texts(state) == ["20/14"]
    assert plays(position, WHITE, (6, 5)) == ["20/14"]
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("20/15"))
    assert err.value.reason == "must_play_larger"


def test_h11_the_game_ending_play_counts_the_dice_it_used() -> None:
    """Last checker on 4, roll 4-1: 4/3 3/off, not 4/off (H11, as Long Nardy)."""
    position = board("backgammon", WHITE, {4: 1}, {13: 15})
    assert plays(position, WHITE, (4, 1)) == ["4/3 3/off(4)"]
    state = turn(position, WHITE, (4, 1))
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("4/off"))
    assert err.value.reason == "must_play_both"


def test_h11_six_in_a_row_allowed_in_the_hitting_games() -> None:
    """No prime rule: White closes 7..12 with 13/8 though no black checker is ahead."""
    position = board("short_nardy", WHITE, {13: 1, 12: 2, 11: 2, 10: 2, 9: 2, 7: 2, 1: 4},
                     {6: 15})
    state = turn(position, WHITE, (5, 1)).apply(step("13/8"))
    assert all(state.position.count_at(WHITE, p) > 0 for p in range(7, 13))


# ---------------------------------------------------------------------------
# H12: bearing off


def test_h12_bearing_off_exactly() -> None:
    position = board("backgammon", WHITE, {6: 1, 3: 1, 1: 1}, {13: 15})
    assert plays(position, WHITE, (3, 2)) == ["3/off 6/4", "6/3 3/1"]


def test_h12_a_larger_die_bears_off_from_the_highest_point() -> None:
    position = board("backgammon", WHITE, {4: 1, 2: 1}, {13: 15})
    assert plays(position, WHITE, (6, 5)) == ["4/off(6) 2/off(5)"]
    with pytest.raises(IllegalMoveError) as err:
        turn(position, WHITE, (6, 5)).apply(step("4/off"))
    assert err.value.reason == "ambiguous_die"


def test_h12_a_die_moves_inside_home_when_a_higher_checker_exists() -> None:
    position = board("backgammon", WHITE, {6: 1, 3: 1}, {13: 15})
    state = turn(position, WHITE, (5, 4))
    assert texts(state) == ["6/1", "6/2"]
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("3/off(5)"))
    assert err.value.reason == "bear_off_not_exact"
    assert plays(position, WHITE, (5, 4)) == ["6/1 3/off(4)", "6/2 3/off(5)"]


def test_h12_not_all_home() -> None:
    position = board("backgammon", WHITE, {7: 1, 3: 1}, {13: 15})
    with pytest.raises(IllegalMoveError) as err:
        turn(position, WHITE, (3, 1)).apply(step("3/off"))
    assert err.value.reason == "not_all_home"


def test_h12_hitting_while_bearing_off() -> None:
    position = board("backgammon", WHITE, {6: 2, 5: 2}, {23: 1, 13: 14})
    assert "6/2* 2/1" in plays(position, WHITE, (4, 1))
    assert turn(position, WHITE, (4, 1)).apply(step("6/2")).position.bar_of(BLACK) == 1


def test_h12_a_checker_hit_while_bearing_off_re_enters_first() -> None:
    """White had borne off 4; one of its checkers is on the bar: it must enter and
    come home before another bears off."""
    position = board("backgammon", WHITE, {6: 5, 5: 5}, {13: 15}, bar_mine=1)
    state = turn(position, WHITE, (5, 4))
    assert texts(state) == ["bar/20", "bar/21"]
    assert all("off" not in p for p in plays(position, WHITE, (5, 4)))
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("5/off"))
    assert err.value.reason == "bar_first"


# ---------------------------------------------------------------------------
# H7 and H13: nard


def test_h7_nard_at_most_six_on_a_point_when_landing() -> None:
    position = board("nard", WHITE, {12: 6, 14: 1, 24: 4, 23: 4}, {19: 5, 20: 5, 21: 5})
    state = turn(position, WHITE, (2, 1))
    assert "14/12" not in texts(state)
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("14/12"))
    assert err.value.reason == "point_full"
    same_in_backgammon = board("backgammon", WHITE, {12: 6, 14: 1, 24: 4, 23: 4},
                               {19: 5, 20: 5, 21: 5})
    assert "14/12" in texts(turn(same_in_backgammon, WHITE, (2, 1)))


def test_h7_nard_at_most_six_on_a_point_when_entering() -> None:
    position = board("nard", WHITE, {20: 6, 12: 6, 7: 2}, {19: 5, 20: 5, 21: 5}, bar_mine=1)
    state = turn(position, WHITE, (5, 4))
    assert texts(state) == ["bar/21"]
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("bar/20"))
    assert err.value.reason == "point_full"


def test_h7_nard_positions_above_six_are_invalid() -> None:
    with pytest.raises(ValueError, match="at most 6"):
        board("nard", WHITE, {12: 7, 24: 6, 23: 2}, {19: 5, 20: 5, 21: 5})


def test_h13_nard_ends_when_the_fifteenth_is_home_and_plays_nothing_past_1() -> None:
    """6 on 1 and 6 on 2 (both full), 2 on 4, one on 9; 5-3: no die is played past
    point 1 (4/off, 2/off do not exist), 4/1 is full, so only one die plays and the
    larger brings the last checker home: 9/4, and the game is over at once."""
    position = board("nard", WHITE, {1: 6, 2: 6, 4: 2, 9: 1}, {1: 3, 18: 6, 14: 6})
    state = turn(position, WHITE, (5, 3))
    assert texts(state) == ["9/4"]
    with pytest.raises(IllegalMoveError) as err:
        state.apply(step("4/off"))
    assert err.value.reason == "no_bear_off"
    after = state.apply(step("9/4"))
    assert after.dice_left == (3,) and after.is_turn_over() and after.pass_reason() is None
    assert after.outcome() == Outcome(WHITE, 1, "single")
    with pytest.raises(IllegalMoveError) as err:
        after.apply(step("4/1"))
    assert err.value.reason == "game_over"


def test_h13_nard_refuses_bearing_off_from_any_point() -> None:
    """``resolve(src, 0)`` in nard is refused as no_bear_off from every point, also
    from 7 and above where no die could bear off (it once raised NotationError)."""
    position = board("nard", WHITE, {12: 5, 9: 5, 1: 5}, {1: 5, 2: 5, 23: 5})
    state = turn(position, WHITE, (2, 1))
    for src in (12, 9, 1):
        with pytest.raises(IllegalMoveError) as err:
            state.resolve(src, 0)
        assert err.value.reason == "no_bear_off"


def test_h13_nard_plays_the_most_dice_before_arriving() -> None:
    """H11 counts dice to the end: 14 home, one on 7, 1-1: moving inside home first
    and arriving with the last die uses all four."""
    position = board("nard", WHITE, {7: 1, 6: 4, 5: 4, 4: 4, 3: 2}, {1: 3, 16: 6, 14: 6})
    state = turn(position, WHITE, (1, 1))
    assert state.max_dice() == 4
    assert all(len(p.split()) == 4 for p in plays(position, WHITE, (1, 1)))


# ---------------------------------------------------------------------------
# H14-H16: the end, results, resignation


def test_h14_the_game_ends_with_the_fifteenth_off() -> None:
    position = board("short_nardy", WHITE, {2: 1, 1: 1}, {6: 15})
    state = turn(position, WHITE, (2, 1)).apply_all("2/off 1/off")
    assert state.outcome() == Outcome(WHITE, 2, "mars")
    assert state.is_turn_over() and state.legal_steps() == ()


@pytest.mark.parametrize(("rules", "theirs", "bar", "expected"), [
    ("short_nardy", {6: 15}, 0, ("mars", 2)),
    ("short_nardy", {6: 14}, 0, ("single", 1)),
    ("short_nardy", {6: 14, 20: 1}, 0, ("koks", 3)),  # a checker in the winner's home
    ("short_nardy", {6: 14}, 1, ("koks", 3)),  # a checker on the bar
    ("backgammon", {6: 15}, 0, ("gammon", 2)),
    ("backgammon", {6: 14}, 0, ("single", 1)),
    ("backgammon", {6: 14, 19: 1}, 0, ("backgammon", 3)),
    ("backgammon", {6: 14}, 1, ("backgammon", 3)),
    ("backgammon", {6: 14, 18: 1}, 0, ("gammon", 2)),  # 18 is outside the winner's home
])
def test_h15_results(rules: str, theirs: dict[int, int], bar: int,
                     expected: tuple[str, int]) -> None:
    """White bears off its last checker; Black's checkers decide the result."""
    position = board(rules, WHITE, {1: 1}, theirs, bar_theirs=bar)
    state = turn(position, WHITE, (1, 2)).apply(step("1/off(2)"))
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.result, outcome.points) == (WHITE, *expected)
    assert outcome.result in RULESETS[rules].results


def test_h15_nard_mars_when_the_loser_has_no_checker_home() -> None:
    single = board("nard", WHITE, {6: 5, 5: 5, 4: 4, 7: 1}, {5: 1, 13: 6, 14: 6, 15: 2})
    mars = board("nard", WHITE, {6: 5, 5: 5, 4: 4, 7: 1}, {13: 6, 14: 6, 15: 3})
    for position, expected in ((single, Outcome(WHITE, 1, "single")),
                               (mars, Outcome(WHITE, 2, "mars"))):
        after = turn(position, WHITE, (3, 1))
        finished = [p for p in after.plays() if p.position.outcome() is not None]
        assert finished and all(p.position.outcome() == expected for p in finished)


@pytest.mark.parametrize(("ruleset", "expected"), [
    (SHORT_NARDY_RULES, Outcome(WHITE, 3, "koks")),
    (BACKGAMMON_RULES, Outcome(WHITE, 3, "backgammon")),
    (NARD_RULES, Outcome(WHITE, 2, "mars")),
])
def test_h16_resigning_at_the_start(ruleset: RuleSet, expected: Outcome) -> None:
    """H16 read literally: at the start Black has borne off none and has two checkers
    in White's home (its 24 is White's 1), so short nardy / backgammon give 3; in
    nard Black has none in its home, so 2."""
    assert ruleset.resign_outcome(ruleset.initial(), BLACK) == expected


@pytest.mark.parametrize(("rules", "theirs", "bar", "expected"), [
    ("short_nardy", {6: 15}, 0, Outcome(WHITE, 2, "mars")),
    ("short_nardy", {6: 14}, 0, Outcome(WHITE, 1, "single")),
    ("short_nardy", {6: 14}, 1, Outcome(WHITE, 3, "koks")),
    ("backgammon", {6: 14, 24: 1}, 0, Outcome(WHITE, 3, "backgammon")),
    ("backgammon", {6: 15}, 0, Outcome(WHITE, 2, "gammon")),
    ("backgammon", {6: 10}, 0, Outcome(WHITE, 1, "single")),
    ("nard", {6: 5, 13: 5, 14: 5}, 0, Outcome(WHITE, 1, "single")),
    ("nard", {13: 5, 14: 5, 15: 5}, 0, Outcome(WHITE, 2, "mars")),
    ("nard", {13: 5, 14: 5, 15: 4}, 1, Outcome(WHITE, 2, "mars")),
])
def test_h16_resignation_values(rules: str, theirs: dict[int, int], bar: int,
                                expected: Outcome) -> None:
    """Black resigns mid-game: White scores what H15 would give if it won now,
    judged by Black's checkers (``theirs``, Black's own points; the rest borne off)."""
    position = board(rules, WHITE, {6: 5, 13: 5, 8: 5}, theirs, bar_theirs=bar)
    assert RULESETS[rules].resign_outcome(position, BLACK) == expected
