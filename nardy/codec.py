"""How a rule set writes its positions for the layers above: the board codec.

Each rule set exposes a :class:`BoardCodec` (``RULESETS[name].codec``). It is the one
place that knows how the rule set's board is laid out; the server, the admin's drawing
and the computer go through it and never assume a layout:

- **the API board** (:meth:`BoardCodec.board`, :meth:`BoardCodec.position`): the common
  fields every rule set has — ``perspective``, ``points`` (point → signed count, in the
  perspective's own numbering, positive its own checkers), ``off`` and ``bar``
  (``{"mine", "theirs"}``) — plus the fields the rule set adds (:attr:`BoardCodec.fields`;
  none for the four built-in games). ``points`` holds, for each point, the count of the
  colour that *controls* it; a rule set whose point can hold both colours (Plakoto's
  pinned checker) says what stands under it in a field of its own.
- **the drawing** (:meth:`BoardCodec.stacks`): each point's checkers, bottom to top, in
  White's numbering — what a picture of the board shows, whatever the layout.
- **the packed form** (:attr:`BoardCodec.layout`, :attr:`BoardCodec.packed_size`,
  :meth:`BoardCodec.pack`): fixed-size records, as ``RuleSet.legal_positions_packed``
  writes them, for a program that reads many positions at once (the computer's search).
  ``layout`` names the record format; a reader picks its decoder by that name and
  refuses one it does not know.

:class:`SignedCounts` is the codec of every layout where a point holds checkers of one
colour (the four built-in games): ``layout = "signed24"``, 26 signed bytes a record —
the counts on White's points 1..24 (positive White, negative Black), then White's and
Black's checkers on the bar (zeros in a game without one); what is missing from 15 is
borne off.

>>> from nardy import LONG_NARDY_RULES as RULES, WHITE
>>> board = RULES.codec.board(RULES.initial(), WHITE)
>>> board["points"], board["off"], board["bar"]
({'24': 15, '12': -15}, {'mine': 0, 'theirs': 0}, {'mine': 0, 'theirs': 0})
>>> RULES.codec.position(board) == (WHITE, RULES.initial())
True
>>> RULES.codec.layout, RULES.codec.packed_size, len(RULES.codec.stacks(RULES.initial()))
('signed24', 26, 2)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol, TypedDict

from .board import BoardPosition
from .errors import InvalidPositionError
from .types import BLACK, WHITE, Side, other, parse_side, side_name

__all__ = ["PACKED_SIZE", "SIGNED24", "ApiBoard", "BoardCodec", "MineTheirs", "SignedCounts"]

SIGNED24: Final = "signed24"
"""The layout name of :class:`SignedCounts`' packed records."""

PACKED_SIZE: Final = 26
"""Bytes per position in the ``signed24`` layout of :class:`SignedCounts` (the built-in
games' ``RuleSet.codec``); a rule set's own size is ``codec.packed_size``."""

_COMMON: Final = ("perspective", "points", "off", "bar")


class MineTheirs(TypedDict):
    mine: int
    theirs: int


class ApiBoard(TypedDict):
    """The common fields of the API's board (a rule set's codec may add more)."""

    perspective: str
    points: dict[str, int]
    off: MineTheirs
    bar: MineTheirs


class BoardCodec(Protocol):
    """A rule set's board codec (see the module docstring)."""

    @property
    def layout(self) -> str:
        """The name of the packed record format (``"signed24"``); readers of
        :meth:`pack`'s bytes choose their decoder by it."""
        ...

    @property
    def packed_size(self) -> int:
        """Bytes per record of :meth:`pack` and ``RuleSet.legal_positions_packed``."""
        ...

    @property
    def fields(self) -> Mapping[str, str]:
        """The fields the rule set's API board adds to the common ones: name → one
        sentence saying what it holds. Empty for the built-in games."""
        ...

    def board(self, position: BoardPosition, perspective: Side) -> dict[str, Any]:
        """The API board of ``position`` in ``perspective``'s own numbering: the common
        fields (:class:`ApiBoard`, in that order) and then :attr:`fields`."""
        ...

    def position(self, board: Mapping[str, Any]) -> tuple[Side, BoardPosition]:
        """Read an API board back (the analysis input): its perspective and position.
        ``points`` keys may be ints or their decimal strings; ``bar`` may be omitted
        (zeros); the fields of :attr:`fields` are read when present. Raises
        :class:`InvalidPositionError` (or ``ValueError``) saying what is wrong."""
        ...

    def stacks(self, position: BoardPosition) -> dict[int, tuple[Side, ...]]:
        """Each occupied point (White's numbering) → its checkers' sides, bottom to top."""
        ...

    def pack(self, positions: Sequence[BoardPosition]) -> bytes:
        """``positions`` as consecutive records of :attr:`packed_size` bytes, exactly as
        ``RuleSet.legal_positions_packed`` writes its results."""
        ...


MakePosition = Callable[[Side, Mapping[int, int], int, int, int, int], BoardPosition]
"""A rule set's ``position_from_perspective``."""


class SignedCounts:
    """The codec of a board where a point holds checkers of one colour: a signed count
    per point, the bar and the borne-off checkers (Long Nardy and the hitting games).

    ``make`` is the rule set's ``position_from_perspective`` (its validation);
    ``bar``: the positions have a ``bar`` pair (``(white, black)``) to pack; positions
    must have a ``points`` tuple (White's 24 signed counts)."""

    layout: Final = SIGNED24
    packed_size: Final = PACKED_SIZE
    fields: Final[Mapping[str, str]] = {}

    def __init__(self, make: MakePosition, bar: bool) -> None:
        self._make = make
        self._bar = bar
        self._pack_bar = struct.Struct("26b").pack
        self._pack = struct.Struct("24b2x").pack

    def board(self, position: BoardPosition, perspective: Side) -> dict[str, Any]:
        counts = position.in_perspective(perspective)
        them = other(perspective)
        return {
            "perspective": side_name(perspective),
            "points": {str(p): counts[p] for p in sorted(counts, reverse=True)},
            "off": {"mine": position.off_of(perspective), "theirs": position.off_of(them)},
            "bar": {"mine": position.bar_of(perspective), "theirs": position.bar_of(them)},
        }

    def position(self, board: Mapping[str, Any]) -> tuple[Side, BoardPosition]:
        if not isinstance(board, Mapping):
            raise InvalidPositionError("a board must be an object")
        unknown = sorted(set(board) - set(_COMMON) - set(self.fields))
        if unknown:
            raise InvalidPositionError(f"unknown board field {unknown[0]!r}")
        perspective = board.get("perspective")
        if not isinstance(perspective, str):
            raise InvalidPositionError("perspective must be 'white' or 'black'")
        side = parse_side(perspective)
        points = board.get("points")
        if not isinstance(points, Mapping):
            raise InvalidPositionError("points must map point numbers to signed counts")
        counts = {_point_key(key): count for key, count in points.items()}
        if len(counts) != len(points):
            raise InvalidPositionError("a point is listed twice")
        off = _mine_theirs(board.get("off"), "off", required=True)
        bar = _mine_theirs(board.get("bar"), "bar", required=False)
        return side, self._make(side, counts, off[0], off[1], bar[0], bar[1])

    def stacks(self, position: BoardPosition) -> dict[int, tuple[Side, ...]]:
        return {p: (WHITE,) * n if n > 0 else (BLACK,) * -n
                for p, n in position.in_perspective(WHITE).items() if n}

    def pack(self, positions: Sequence[BoardPosition]) -> bytes:
        found: Sequence[Any] = positions
        if self._bar:
            pack_bar = self._pack_bar
            return b"".join([pack_bar(*pos.points, *pos.bar) for pos in found])
        pack = self._pack
        return b"".join([pack(*pos.points) for pos in found])


def _point_key(key: object) -> int:
    """A ``points`` key: an int, or its decimal string (as JSON writes it)."""
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2:
        return int(key)
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    raise InvalidPositionError(f"{key!r} is not a point 1..24")


def _mine_theirs(value: object, name: str, required: bool) -> tuple[int, int]:
    if value is None and not required:
        return 0, 0
    if not isinstance(value, Mapping):
        raise InvalidPositionError(f"{name} must be an object with mine and theirs")
    if required and not {"mine", "theirs"} <= value.keys():
        raise InvalidPositionError(f"{name} needs mine and theirs")
    return value.get("mine", 0), value.get("theirs", 0)
