"""A step as asked (nardy.AskedStep): what a request or a record asks
for, which may be no step at all; a turn state's take() answers it with the Step it
stands for or the reason the rules refuse it (R4, R26/H12, H2)."""

from __future__ import annotations

import pytest

from nardy import (
    BACKGAMMON_RULES,
    LONG_NARDY_RULES,
    WHITE,
    AskedStep,
    IllegalMoveError,
    NotationError,
    Step,
)


def test_an_engine_step_is_taken_as_it_is() -> None:
    state = LONG_NARDY_RULES.start_turn(LONG_NARDY_RULES.initial(), WHITE, (6, 5), False)
    assert state.take(Step(24, 18, 6)) == Step(24, 18, 6)
    assert state.take(Step(3, 0)) == Step(3, 0)  # apply() resolves an unsaid bear-off die


def test_R26_an_asked_step_without_a_die_is_resolved() -> None:
    state = LONG_NARDY_RULES.start_turn(LONG_NARDY_RULES.initial(), WHITE, (6, 5), False)
    assert state.take(AskedStep(24, 18)) == Step(24, 18, 6)
    assert state.take(AskedStep(24, 18, 6)) == Step(24, 18, 6)
    home = LONG_NARDY_RULES.position_from_perspective(WHITE, {2: 1, 12: -15}, 14, 0)
    bearing = LONG_NARDY_RULES.start_turn(home, WHITE, (6, 5), False)
    assert bearing.take(AskedStep(2, 0)) == Step(2, 0, 6)  # the larger die that fits


def test_R4_an_asked_step_that_is_no_step_is_refused() -> None:
    state = LONG_NARDY_RULES.start_turn(LONG_NARDY_RULES.initial(), WHITE, (6, 5), False)
    with pytest.raises(IllegalMoveError) as info:
        state.take(AskedStep(18, 24))  # backwards, no die said: the rules' reason
    assert info.value.reason == "invalid_step"
    with pytest.raises(NotationError):
        state.take(AskedStep(24, 18, 5))  # six points with a 5
    with pytest.raises(NotationError):
        state.take(AskedStep(18, 24, 6))


def test_H2_an_asked_entry_from_the_bar() -> None:
    position = BACKGAMMON_RULES.position_from_perspective(
        WHITE, {24: 1, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5}, bar_mine=1)
    state = BACKGAMMON_RULES.start_turn(position, WHITE, (3, 1), False)
    assert state.take(AskedStep(25, 22)) == Step(25, 22, 3)
