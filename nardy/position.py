"""Positions, outcomes and the match score (RULES R1-R3, R28-R31).

A :class:`Position` is stored in White's numbering: ``points[i]`` is the signed count
on White's point ``i + 1`` (positive White, negative Black), so no point can hold
both colours. ``off`` is ``(white, black)`` borne-off counts.

>>> p = Position.initial()
>>> p.in_perspective(BLACK)
{24: 15, 12: -15}
>>> p.off_of(WHITE), p.outcome() is None
(0, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from . import notation
from .errors import InvalidPositionError, NotationError
from .outcome import Outcome, match_winner
from .types import BLACK, CHECKERS, WHITE, Side, check_side, other, side_name

__all__ = ["Outcome", "Position", "match_winner", "resign_outcome"]

# Index (0-based, White numbering) of each side's own point p: _INDEX[side][p].
_INDEX: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple([-1] + [p - 1 for p in range(1, 25)]),
    tuple([-1] + [(p + 12 if p <= 12 else p - 12) - 1 for p in range(1, 25)]),
)


def board_from_perspective(counts: Mapping[int, int], index: tuple[int, ...], sign: int,
                           ) -> tuple[int, ...]:
    """The 24 signed counts in White's order of a board given in one side's numbering:
    ``counts`` maps that side's points 1..24 to signed counts (positive: its own
    checkers; zeros ignored), ``index[p]`` is the index of its point ``p`` and ``sign``
    is 1 for White, -1 for Black. Checks each entry's shape, not the rules of any game.
    Raises :class:`InvalidPositionError` saying what is wrong.
    """
    if not isinstance(counts, Mapping):
        raise InvalidPositionError("counts must be a mapping of point to signed count")
    points = [0] * 24
    for point, count in counts.items():
        if isinstance(point, bool) or not isinstance(point, int) or not 1 <= point <= 24:
            raise InvalidPositionError(f"point must be an int in 1..24, not {point!r}")
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidPositionError(f"count on point {point} must be an int, not {count!r}")
        if abs(count) > CHECKERS:
            raise InvalidPositionError(f"{abs(count)} checkers on point {point}: at most 15")
        points[index[point]] = count * sign
    return tuple(points)


@dataclass(frozen=True, slots=True)
class Position:
    """A board: 24 signed counts in White's numbering and the borne-off counts.

    The constructor validates (R3: 15 checkers a side, board plus off) and raises
    :class:`InvalidPositionError`.
    """

    points: tuple[int, ...]
    off: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        _validate(self.points, self.off)

    @classmethod
    def _trusted(cls, points: tuple[int, ...], off: tuple[int, int]) -> Position:
        """Build without validation (the engine's own, already consistent results)."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "points", points)
        object.__setattr__(obj, "off", off)
        return obj

    @classmethod
    def initial(cls) -> Position:
        """The start (R3): 15 White on White's 24, 15 Black on Black's 24 (White's 12)."""
        return _INITIAL

    @classmethod
    def from_perspective(cls, side: Side, counts: Mapping[int, int], off_mine: int = 0,
                         off_theirs: int = 0) -> Position:
        """Build from a board in ``side``'s numbering (R2, R33).

        ``counts`` maps ``side``'s point numbers 1..24 to signed counts (positive:
        ``side``'s checkers, negative: the opponent's; zeros are ignored).
        Raises :class:`InvalidPositionError` saying what is wrong.

        >>> Position.from_perspective(BLACK, {24: 15, 12: -15}, 0, 0) == Position.initial()
        True
        """
        side = check_side(side)
        points = board_from_perspective(counts, _INDEX[side], 1 if side == WHITE else -1)
        off = (off_mine, off_theirs) if side == WHITE else (off_theirs, off_mine)
        return cls(points, off)

    @property
    def rules(self) -> str:
        """Its rule set: Long Nardy's positions are this class."""
        return "long_nardy"

    def in_perspective(self, side: Side) -> dict[int, int]:
        """The board in ``side``'s numbering: point → signed count (positive: ``side``'s).

        Empty points are omitted; keys run from 24 down to 1.
        """
        side = check_side(side)
        index = _INDEX[side]
        sign = 1 if side == WHITE else -1
        points = self.points
        return {p: points[index[p]] * sign for p in range(24, 0, -1) if points[index[p]]}

    def count_at(self, side: Side, point: int) -> int:
        """Signed count on ``side``'s ``point`` (positive: ``side``'s checkers)."""
        if not 1 <= point <= 24:
            raise ValueError(f"point must be in 1..24, not {point!r}")
        value = self.points[_INDEX[check_side(side)][point]]
        return value if side == WHITE else -value

    def off_of(self, side: Side) -> int:
        """How many checkers ``side`` has borne off."""
        return self.off[check_side(side)]

    def bar_of(self, side: Side) -> int:
        """Checkers of ``side`` on the bar: always 0, Long Nardy has no hitting (R6)."""
        check_side(side)
        return 0

    def pips(self, side: Side) -> int:
        """``side``'s pip count: the sum of its own point numbers over its checkers."""
        return sum(p * n for p, n in self.in_perspective(side).items() if n > 0)

    def outcome(self) -> Outcome | None:
        """The result if a side has borne off all 15 (R28, R29), else ``None``."""
        white_off, black_off = self.off
        if white_off == CHECKERS:
            return Outcome(WHITE, 1, "single") if black_off else Outcome(WHITE, 2, "mars")
        if black_off == CHECKERS:
            return Outcome(BLACK, 1, "single") if white_off else Outcome(BLACK, 2, "mars")
        return None

    def to_id(self) -> str:
        """The position ID (docs/notation.md), e.g. ``'P1-AAAB__wAAAP_-A'``."""
        return notation.encode_position(self.points)

    @classmethod
    def from_id(cls, text: str) -> Position:
        """Parse a position ID. Raises :class:`~nardy.errors.NotationError`."""
        points = notation.decode_position(text)
        try:
            return cls.from_points(points)
        except InvalidPositionError as exc:
            raise NotationError(f"position ID: {exc}") from None

    @classmethod
    def from_points(cls, points: tuple[int, ...]) -> Position:
        """A position from White-numbered signed counts; off is what is missing from 15."""
        white = sum(n for n in points if n > 0)
        black = -sum(n for n in points if n < 0)
        return cls(tuple(points), (CHECKERS - white, CHECKERS - black))

    def __str__(self) -> str:
        board = " ".join(f"{p}:{n}" for p, n in self.in_perspective(WHITE).items())
        return f"{board} off {self.off[0]}/{self.off[1]}"


def _validate(points: object, off: object) -> None:
    if not isinstance(points, tuple) or len(points) != 24:
        raise InvalidPositionError("points must be a tuple of 24 signed counts")
    if not isinstance(off, tuple) or len(off) != 2:
        raise InvalidPositionError("off must be a pair (white, black)")
    white = black = 0
    for i, n in enumerate(points):
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidPositionError(f"count on White's point {i + 1} must be an int, not {n!r}")
        if n > 0:
            white += n
        else:
            black -= n
    for side, (on_board, borne) in enumerate(((white, off[0]), (black, off[1]))):
        name = side_name(side)
        if isinstance(borne, bool) or not isinstance(borne, int) or not 0 <= borne <= CHECKERS:
            raise InvalidPositionError(f"{name} off must be an int in 0..15, not {borne!r}")
        if on_board > CHECKERS:
            raise InvalidPositionError(f"{name} has {on_board} checkers on the board: at most 15")
        if on_board + borne != CHECKERS:
            raise InvalidPositionError(
                f"{name} has {on_board} on the board and {borne} off: must total 15 (R3)")
    if off[0] == CHECKERS and off[1] == CHECKERS:
        raise InvalidPositionError("both sides cannot have borne off all 15 (R28)")


_INITIAL: Final = Position(notation.initial_points(), (0, 0))


def resign_outcome(position: Position, resigning_side: Side) -> Outcome:
    """R30: the opponent wins 2 (mars) if ``resigning_side`` has borne off none, else 1."""
    resigning_side = check_side(resigning_side)
    mars = position.off_of(resigning_side) == 0
    winner = other(resigning_side)
    return Outcome(winner, 2, "mars") if mars else Outcome(winner, 1, "single")
