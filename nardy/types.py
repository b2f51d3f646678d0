"""Sides, points and the two numberings (RULES R1, R2).

Sides are plain ints (``WHITE = 0``, ``BLACK = 1``); points are ints ``1..24`` in
one side's own numbering, with ``0`` standing for "borne off".

>>> opp(24), opp(12), opp(1), opp(13)
(12, 24, 13, 1)
>>> to_perspective(24, WHITE, BLACK)
12
>>> side_name(parse_side("black"))
'black'
"""

from __future__ import annotations

from typing import Final, TypeAlias

Side: TypeAlias = int
"""0 for White, 1 for Black."""

WHITE: Final[Side] = 0
BLACK: Final[Side] = 1
SIDES: Final[tuple[Side, Side]] = (WHITE, BLACK)

HEAD: Final[int] = 24
"""Every side's head is its own point 24 (R1)."""

HOME: Final[range] = range(1, 7)
"""Every side's home is its own points 1..6 (R1)."""

CHECKERS: Final[int] = 15
"""Checkers per side (R3)."""

OFF: Final[int] = 0
"""The destination "borne off" in step notation."""

SIDE_NAMES: Final[tuple[str, str]] = ("white", "black")
"""The sides' names, by side (``SIDE_NAMES[BLACK] == "black"``): the one spelling of the
colours. The models' ``Color`` choices, the API, the records and the streams use it."""


def other(side: Side) -> Side:
    """The opponent of ``side``.

    >>> other(WHITE) == BLACK
    True
    """
    return 1 - side


def check_side(side: object) -> Side:
    """``side`` itself if it is 0 or 1, else ``ValueError``."""
    if isinstance(side, bool) or side not in (WHITE, BLACK):
        raise ValueError(f"side must be 0 (white) or 1 (black), not {side!r}")
    return side


def side_name(side: Side) -> str:
    """``"white"`` or ``"black"``. Raises ``ValueError`` for anything but 0 or 1."""
    return SIDE_NAMES[check_side(side)]


def parse_side(name: str) -> Side:
    """``"white"`` → 0, ``"black"`` → 1 (case-insensitive). Raises ``ValueError``."""
    try:
        return SIDE_NAMES.index(name.strip().lower())
    except (ValueError, AttributeError):
        raise ValueError(f"side must be 'white' or 'black', not {name!r}") from None


def opp(point: int) -> int:
    """The opponent's number for one's own ``point`` (R2); ``0`` (off) stays ``0``."""
    if point == 0:
        return 0
    return point + 12 if point <= 12 else point - 12


def to_perspective(point: int, from_side: Side, to_side: Side) -> int:
    """Convert ``point`` from ``from_side``'s numbering to ``to_side``'s (R2, R33).

    Identity when the sides are equal; ``0`` (off) stays ``0``. Raises ``ValueError``
    for a point outside ``0..24``.

    >>> to_perspective(12, BLACK, WHITE)
    24
    >>> to_perspective(5, WHITE, WHITE)
    5
    """
    if not 0 <= point <= 24:
        raise ValueError(f"point must be in 1..24 (or 0 for off), not {point!r}")
    check_side(from_side)
    check_side(to_side)
    return point if from_side == to_side else opp(point)
