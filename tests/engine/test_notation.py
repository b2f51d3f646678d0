"""Step/play notation and the position and turn IDs (docs/notation.md)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from nardy import (
    BLACK,
    WHITE,
    IllegalMoveError,
    NotationError,
    Position,
    Step,
    TurnState,
    format_play,
    legal_plays,
    parse_play,
)
from nardy.notation import decode_turn

from .util import board

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


# --- steps and plays ---------------------------------------------------------------


@pytest.mark.parametrize(("text", "step"), [
    ("24/18", Step(24, 18, 6)),
    ("13/12", Step(13, 12, 1)),
    ("3/off", Step(3, 0, 0)),
    ("3/OFF", Step(3, 0, 0)),
    ("6/0", Step(6, 0, 0)),
    (" 7 / 1 ", Step(7, 1, 6)),
])
def test_step_parse(text: str, step: Step) -> None:
    assert Step.parse(text) == step


def test_step_format_and_repr_round_trip() -> None:
    for step in (Step(24, 18, 6), Step(3, 0, 5), Step(3, 0), Step(6, 0, 6)):
        assert eval(repr(step)) == step
        assert Step.parse(str(step), step.die or None) == step
    assert str(Step(24, 18, 6)) == "24/18"
    assert str(Step(3, 0, 5)) == "3/off(5)"
    assert str(Step(3, 0, 3)) == str(Step(3, 0)) == "3/off"
    assert Step.parse("3/off(5)") == Step(3, 0, 5)
    assert str(Step.parse("bar/22*")) == "bar/22"
    assert repr(Step.parse("24/18")) == "Step(src=24, dst=18, die=6)"


def test_step_die_is_filled_in_or_checked() -> None:
    assert Step(24, 18).die == 6
    assert Step.parse("3/off", die=5) == Step(3, 0, 5)
    assert Step(3, 0).die == 0  # unspecified: TurnState.resolve picks it


@pytest.mark.parametrize(("text", "message"), [
    ("25/18", "one die is 1..6"),
        ("26/20", "1..24 or 25"),
    ("18/24", "below the source"),
    ("24/17", "one die is 1..6"),
    ("24-18", "look like"),
    ("", "look like"),
    ("off/3", "look like"),
    ("0/off", "1..24"),
    ("18/18", "below the source"),
])
def test_step_parse_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Step.parse(text)


def test_step_inconsistent_die() -> None:
    with pytest.raises(NotationError, match="moves 6 points"):
        Step(24, 18, 5)
    with pytest.raises(NotationError, match="cannot bear off"):
        Step.parse("5/off", die=3)
    with pytest.raises(NotationError, match=r"1\.\.6"):
        Step(24, 18, 9)
    with pytest.raises(NotationError, match="int"):
        Step("24", 18)  # type: ignore[arg-type]


def test_play_parse_and_format() -> None:
    steps = parse_play("24/18 18/13")
    assert steps == (Step(24, 18, 6), Step(18, 13, 5))
    assert format_play(steps) == "24/18 18/13"
    assert parse_play("-") == () and parse_play("pass") == () and parse_play("  ") == ()
    assert format_play(()) == "-"
    assert parse_play("6/off, 5/off") == (Step(6, 0), Step(5, 0))
    play = legal_plays(Position.initial(), WHITE, (6, 5))[0]
    assert str(play) == "24/18 18/13"
    assert parse_play(str(play)) == play.steps
    with pytest.raises(NotationError, match="step 2 of the play"):
        parse_play("24/18 18-13")


def test_apply_all_reads_a_play() -> None:
    state = TurnState.start(Position.initial(), WHITE, (6, 5))
    assert state.apply_all("24/18 18/13") == state.apply(Step(24, 18)).apply(Step(18, 13))
    with pytest.raises(IllegalMoveError):
        state.apply_all("24/18 24/19")


# --- position IDs ---------------------------------------------------------------------


def test_initial_position_id() -> None:
    assert Position.initial().to_id() == "P1-AAAB__wAAAP_-A"
    assert Position.from_id("P1-AAAB__wAAAP_-A") == Position.initial()


def test_position_id_round_trip_over_a_game() -> None:
    position = Position.initial()
    side = WHITE
    seen = 0
    import random
    rng = random.Random(5)
    while position.outcome() is None:
        text = position.to_id()
        assert re.fullmatch(r"P1-[A-Za-z0-9_-]{14}", text)
        assert Position.from_id(text) == position
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        position = rng.choice(legal_plays(position, side, dice)).position
        side = 1 - side
        seen += 1
    assert Position.from_id(position.to_id()) == position  # a finished game too
    assert seen > 20


def _position_id(bits: str) -> str:
    data = int(bits.ljust(80, "0"), 2).to_bytes(10, "big")
    return "P1-" + base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize(("text", "message"), [
    ("X1-AAAB__wAAAP_-A", "start with 'P1-'"),
    ("P1-AAAB__wAAAP_-", "expected 14 characters"),
    ("P1-AAAB__wAAAP_-AA", "expected 14 characters"),
    ("P1-AAAB__wAAAP_+A", "base64url alphabet"),
    ("P1-AAAB__wAAAP_-B", "non-canonical"),
    (_position_id("0" * 23 + "1" * 16 + "0" + "0" * 23 + "1" * 15 + "0"), "more than 15"),
    (_position_id("1" * 80), "more than 15"),
    (_position_id("0" * 80), "R28"),
    (_position_id("0" * 24 + "0" * 23 + "10" + "1"), "trailing bits"),
    # White on White's 24 and Black on Black's 12 (the same point).
    (_position_id("0" * 23 + "10" + "0" * 11 + "10" + "0" * 12), "both colours"),
])
def test_position_id_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Position.from_id(text)


def test_position_id_rejects_non_strings() -> None:
    with pytest.raises(NotationError, match="string"):
        Position.from_id(123)  # type: ignore[arg-type]


# --- turn IDs ---------------------------------------------------------------------------


def test_turn_id_round_trip_through_a_turn() -> None:
    state = TurnState.start(Position.initial(), BLACK, (3, 3), first_turn=True)
    states = [state]
    while not state.is_turn_over():
        state = state.apply(state.legal_steps()[-1])
        states.append(state)
    assert len(states) == 5
    for s in states:
        text = s.to_id()
        assert re.fullmatch(r"T1-[A-Za-z0-9_-]{16}", text)
        assert TurnState.from_id(text) == s
    for dice in [(6, 5), (5, 6), (1, 2)]:
        s = TurnState.start(Position.initial(), WHITE, dice)
        half = s.apply(s.legal_steps()[-1])
        for x in (s, half):
            assert TurnState.from_id(x.to_id()) == x


def test_turn_id_example_from_the_docs() -> None:
    state = TurnState.start(Position.initial(), WHITE, (6, 5), first_turn=True)
    assert state.to_id() == "T1-AAAB__wAAAP_-HVE"
    assert decode_turn("T1-AAAB__wAAAP_-HVE")[1:] == (WHITE, (6, 5), (6, 5), 1, True)


def _turn_id(tail: int, position: str = "P1-AAAB__wAAAP_-A") -> str:
    data = base64.urlsafe_b64decode(position[3:] + "==") + tail.to_bytes(2, "big")
    return "T1-" + base64.urlsafe_b64encode(data).decode().rstrip("=")


def _tail(side: int = 0, first: int = 0, d1: int = 6, d2: int = 5, n_left: int = 2,
          last2: int = 0, head: int = 1, reserved: int = 0) -> int:
    return ((((((((side << 1 | first) << 3 | d1) << 3 | d2) << 3 | n_left) << 1 | last2)
              << 2 | head) << 2) | reserved)


@pytest.mark.parametrize(("text", "message"), [
    ("P1-AAAB__wAAAP_-A", "start with 'T1-'"),
    ("T1-AAAB__wAAAP_-HV", "expected 16 characters"),
    (_turn_id(_tail(d1=0)), "dice must be 1..6"),
    (_turn_id(_tail(d2=7)), "dice must be 1..6"),
    (_turn_id(_tail(n_left=3)), "3 dice left"),
    (_turn_id(_tail(d1=4, d2=4, n_left=5)), "5 dice left"),
    (_turn_id(_tail(n_left=2, last2=1)), "last die"),
    (_turn_id(_tail(head=3)), "more than 2"),
    (_turn_id(_tail(head=2)), "head_left"),  # 6-5 allows one
    (_turn_id(_tail(reserved=1)), "reserved bits"),
])
def test_turn_id_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        TurnState.from_id(text)


def test_turn_id_of_a_finished_game() -> None:
    p = board(WHITE, {2: 1}, {24: 15})
    s = TurnState.start(p, WHITE, (4, 4))
    done = s.apply(s.resolve(2, 0))
    assert TurnState.from_id(done.to_id()) == done
    assert TurnState.from_id(done.to_id()).position.outcome() is not None


def test_ids_in_the_docs_parse() -> None:
    """Every ID quoted in docs/notation.md is valid (and round-trips)."""
    text = DOCS.read_text()
    position_ids = re.findall(r"P1-[A-Za-z0-9_-]{14}(?![A-Za-z0-9_-])", text)
    turn_ids = re.findall(r"T1-[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])", text)
    assert position_ids and turn_ids
    for pid in position_ids:
        assert Position.from_id(pid).to_id() == pid
    for tid in turn_ids:
        assert TurnState.from_id(tid).to_id() == tid
