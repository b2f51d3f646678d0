"""The hitting games' notation and IDs, as docs/notation.md ("Hitting games") shows."""

from __future__ import annotations

import pytest

from nardy import (
    BACKGAMMON_RULES,
    NARD_RULES,
    RULESETS,
    SHORT_NARDY_RULES,
    WHITE,
    HitPosition,
    HitTurn,
    NotationError,
    Step,
)

from .util import board, turn


def test_steps_with_the_bar_and_hits() -> None:
    assert Step.parse("bar/22") == Step(25, 22, 3)
    assert Step.parse("13/7*") == Step(13, 7, 6)
    assert Step(13, 7).text(hit=True) == "13/7*"
    assert str(Step(25, 20)) == "bar/20"


def test_plays_are_written_with_hit_marks() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 4}, {3: 1, 13: 14}, bar_mine=1)
    texts = {str(p) for p in BACKGAMMON_RULES.legal_plays(position, WHITE, (5, 3), False)}
    assert "bar/22* 22/17" in texts and "bar/20 20/17" in texts
    play = next(p for p in BACKGAMMON_RULES.legal_plays(position, WHITE, (5, 3), False)
                if str(p) == "bar/22* 22/17")
    assert play.hits == (True, False)


@pytest.mark.parametrize(("position", "expected"), [
    (BACKGAMMON_RULES.initial(), "BGP-B84PgAwHzg-ADA"),
    (SHORT_NARDY_RULES.initial(), "SNP-B84PgAwHzg-ADA"),
    (NARD_RULES.initial(), "NRP-ABwduMwAHB24zA"),
    (BACKGAMMON_RULES.position_from_perspective(WHITE, {6: 2, 5: 2, 20: -1, 1: -14}, 11, 0),
     "BGP-DYAAAEAAB__gAA"),
])
def test_position_ids_in_the_docs(position: HitPosition, expected: str) -> None:
    assert position.to_id() == expected
    assert RULESETS[position.rules].position_from_id(expected) == position


def test_a_position_id_names_its_rule_set() -> None:
    with pytest.raises(NotationError):
        NARD_RULES.position_from_id("BGP-B84PgAwHzg-ADA")
    with pytest.raises(NotationError):
        HitPosition.from_id("P1-AAAB__wAAAP_-A")
    with pytest.raises(NotationError):
        HitPosition.from_id("BGP-B84PgAwHzg-AD")
    with pytest.raises(NotationError):  # 16 checkers for Black
        HitPosition.from_id("BGP-B84PgAwHzg-__8")


def test_turn_ids_in_the_docs() -> None:
    state = BACKGAMMON_RULES.start_turn(BACKGAMMON_RULES.initial(), WHITE, (3, 1), True)
    assert state.to_id() == "BGT-B84PgAwHzg-ADFlA"
    after = state.apply(Step.parse("8/5"))
    assert after.to_id() == "BGT-C-YPgAwHzg-ADFkw"
    assert HitTurn.from_id(after.to_id()) == after
    assert BACKGAMMON_RULES.turn_from_id(after.to_id()).legal_steps() == after.legal_steps()


def test_turn_id_carries_the_h10_readings() -> None:
    position = board("short_nardy", WHITE, {12: 2, 8: 3, 6: 10}, {15: 1, 20: 14})
    state = turn(position, WHITE, (2, 2)).apply_all("12/10 12/10")
    assert state.marks != (0,)
    again = HitTurn.from_id(state.to_id())
    assert again == state and again.legal_steps() == state.legal_steps()
    one_step_on = state.apply(Step.parse("10/8"))
    assert HitTurn.from_id(one_step_on.to_id()) == one_step_on


def test_gnubg_ids_round_trip() -> None:
    position = board("backgammon", WHITE, {13: 5, 8: 5, 6: 4}, {3: 1, 13: 14}, bar_mine=1)
    for side in (0, 1):
        assert HitPosition.from_gnubg_id(position.gnubg_id(side), side) == position
    with pytest.raises(NotationError):
        HitPosition.from_gnubg_id("4HPwATDgc/ABM", WHITE)
