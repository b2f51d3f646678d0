"""Positions of any rule set as NumPy arrays, seen by one side (the computer's view).

Everything the computer knows about a rule set beyond the engine's :class:`RuleSet`
protocol comes from the rule set itself: :class:`Profile` is read from its descriptor
(``ruleset(rules).descriptor``: does it hit, bear off, have a head rule, results worth
3, how the sides number the points), and its positions are read through its board codec
(``ruleset(rules).codec``): packed into one byte string (``codec.pack``, the records
``RuleSet.legal_positions_packed`` writes) and decoded by the reader of the codec's
``layout`` (:data:`READERS`). A rule set whose layout has no reader here is refused with
:class:`UnreadableBoardError`; nothing is guessed.

A batch of positions becomes a :class:`Boards`: for the side ``me``, its checkers on its
own points and the opponent's checkers on the *opponent's* own points, so the two halves
look alike and a position seen by either side has the same shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from nardy import RULESETS, BoardPosition, RuleSet, Side
from nardy.codec import SIGNED24
from nardy.descriptor import Numbering

IntArray = npt.NDArray[np.int64]
Int8Array = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]

POINTS = 24
CHECKERS = 15


@dataclass(frozen=True)
class Profile:
    """What the computer's evaluation needs to know about a rule set (its descriptor's
    facts, :func:`profile`)."""

    name: str
    hits: bool
    """Blots can be hit (H7) and checkers stand on the bar."""
    bears_off: bool
    """The game ends by bearing off 15 (``nard`` ends when 15 are home, H13)."""
    head: bool
    """Long Nardy's head rule (R11): one checker a turn leaves own point 24."""
    triple: bool
    """Some result is worth 3 points (koks, backgammon)."""
    numbering: Numbering
    """How the opponent's points map to one's own (R2 ``rotated``, H1 ``mirrored``)."""


class UnreadableBoardError(LookupError):
    """The computer has no reader (or no network encoding) for a rule set's board."""


def ruleset(rules: str) -> RuleSet:
    """The engine's rule set called ``rules``. Raises ``KeyError`` naming the known ones."""
    try:
        return RULESETS[rules]
    except KeyError:
        raise KeyError(f"no rule set {rules!r}; known: {', '.join(RULESETS)}") from None


@cache
def profile(rules: str) -> Profile:
    """The profile of ``rules``, from its descriptor. Raises ``KeyError`` for an unknown
    rule set."""
    d = ruleset(rules).descriptor
    return Profile(d.name, hits=d.hits, bears_off=d.bears_off, head=d.head, triple=d.triple,
                   numbering=d.numbering)


@dataclass(frozen=True)
class Boards:
    """A batch of ``n`` positions seen by one side ``me``.

    ``mine[i, p - 1]``: ``me``'s checkers on its own point ``p``; ``theirs[i, q - 1]``:
    the opponent's checkers on the opponent's own point ``q``; ``bar`` and ``off`` are
    ``(n, 2)``: column 0 ``me``, column 1 the opponent.
    """

    mine: IntArray
    theirs: IntArray
    bar: IntArray
    off: IntArray

    def __len__(self) -> int:
        return int(self.mine.shape[0])

    def flipped(self) -> Boards:
        """The same positions seen by the opponent."""
        return Boards(self.theirs, self.mine, self.bar[:, ::-1], self.off[:, ::-1])


# Black's own point q (index q - 1) is White's index _BLACK_INDEX[numbering][q - 1]:
# Long Nardy's numbering (R2, q +- 12) or the hitting games' (H1, 25 - q).
_BLACK_INDEX: dict[str, IntArray] = {
    "rotated": np.array([(q + 12 if q <= 12 else q - 12) - 1 for q in range(1, 25)]),
    "mirrored": np.array([24 - q for q in range(1, 25)]),
}


def _signed24(rows: Int8Array, me: Side, prof: Profile) -> Boards:
    """``signed24`` records (:class:`nardy.codec.SignedCounts`: White's 24 signed points,
    then the two bars) seen by ``me``; the borne-off checkers are what is missing
    from 15."""
    points = rows[:, :POINTS]
    bar = rows[:, POINTS:].astype(np.int64)
    white = np.maximum(points, 0).astype(np.int64)
    black = np.maximum(-points, 0).astype(np.int64)[:, _BLACK_INDEX[prof.numbering]]
    off = CHECKERS - bar
    off[:, 0] -= white.sum(axis=1)
    off[:, 1] -= black.sum(axis=1)
    if me == 0:
        return Boards(white, black, bar, off)
    return Boards(black, white, bar[:, ::-1].copy(), off[:, ::-1].copy())


Reader = Callable[[Int8Array, Side, Profile], Boards]

READERS: dict[str, Reader] = {SIGNED24: _signed24}
"""The packed layouts (``codec.layout``) the computer reads, with their readers."""


@cache
def reader(rules: str) -> Reader:
    """The reader of ``rules``' packed records. Raises :class:`UnreadableBoardError`
    when its codec's layout has none (``KeyError`` for an unknown rule set)."""
    layout = ruleset(rules).codec.layout
    try:
        return READERS[layout]
    except KeyError:
        raise UnreadableBoardError(
            f"the computer cannot read {rules!r} positions: its codec's layout "
            f"{layout!r} has no reader in computer.board (known: {', '.join(READERS)})",
        ) from None


def readable(rules: str) -> bool:
    """Whether the computer reads ``rules``' positions (:func:`reader` exists)."""
    try:
        reader(rules)
    except UnreadableBoardError:
        return False
    return True


@cache
def _view(rules: str) -> tuple[Callable[[Sequence[BoardPosition]], bytes], int, Reader,
                               Profile]:
    """``rules``' codec's ``pack`` and ``packed_size``, its reader and its profile."""
    codec = ruleset(rules).codec
    return codec.pack, codec.packed_size, reader(rules), profile(rules)


def packed_rows(rules: str, data: bytes) -> Int8Array:
    """``rules``' packed records (``codec.pack``, ``RuleSet.legal_positions_packed``) as
    rows of ``codec.packed_size`` int8."""
    rows: Int8Array = np.frombuffer(data, dtype=np.int8).reshape(-1, _view(rules)[1])
    return rows


def packed_boards(rules: str, rows: Int8Array, me: Side) -> Boards:
    """Packed records (:func:`packed_rows`) as arrays seen by ``me``."""
    _, _, read, prof = _view(rules)
    return read(rows, me, prof)


def boards(rules: str, positions: Sequence[BoardPosition], me: Side) -> Boards:
    """``positions`` (of rule set ``rules``) as arrays seen by ``me``: packed by the
    rule set's codec, read by its layout's reader."""
    pack, size, read, prof = _view(rules)
    rows: Int8Array = np.frombuffer(pack(positions), dtype=np.int8).reshape(-1, size)
    return read(rows, me, prof)


@cache
def initial_rows(rules: str) -> IntArray:
    """Each side's own-numbered counts at the start (the same for both sides)."""
    row: IntArray = boards(rules, [ruleset(rules).initial()], 0).mine[0]
    return row


def untouched(rules: str, b: Boards) -> npt.NDArray[np.bool_]:
    """Per row: ``me`` has not moved a checker this game (its first turn is still to come).

    The computer's search uses this for the opponent's ``first_turn`` flag (R12)."""
    start = initial_rows(rules)
    same: npt.NDArray[np.bool_] = (b.mine == start).all(axis=1) & (b.off[:, 0] == 0)
    return same


def pips(b: Boards) -> tuple[IntArray, IntArray]:
    """Pip counts of ``me`` and the opponent (a checker on the bar counts 25)."""
    weights = np.arange(1, POINTS + 1)
    return b.mine @ weights + 25 * b.bar[:, 0], b.theirs @ weights + 25 * b.bar[:, 1]
