"""Positions of any rule set as NumPy arrays, seen by one side (the computer's view).

Everything the computer knows about a rule set beyond the engine's :class:`RuleSet`
protocol is in :class:`Profile` (does it hit, bear off, have a head rule, results worth
3). A batch of positions becomes a :class:`Boards`: for the side ``me``, its checkers on
its own points and the opponent's checkers on the *opponent's* own points, so the two
halves look alike and a position seen by either side has the same shape.

The general path reads positions only through the protocol (``in_perspective``,
``off_of``, ``bar_of``). A fast path reads a position's White-numbered ``points`` tuple
(and its ``bar`` pair in the hitting games) directly when the rule set's positions have
them, all of a batch packed into one byte string for NumPy, the borne-off checkers being
what is missing from 15; it is switched on for a rule set only after it agreed with the
general path on sample positions (:func:`_fast_layout`).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from nardy import PACKED_SIZE, RULESETS, BoardPosition, RuleSet, Side

IntArray = npt.NDArray[np.int64]
Int8Array = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]

POINTS = 24
CHECKERS = 15


@dataclass(frozen=True)
class Profile:
    """What the computer's evaluation needs to know about a rule set."""

    name: str
    hitting: bool
    """Blots can be hit (H7) and checkers stand on the bar."""
    bears_off: bool
    """The game ends by bearing off 15 (``nard`` ends when 15 are home, H13)."""
    head: bool
    """Long Nardy's head rule (R11): one checker a turn leaves own point 24."""
    triple: bool
    """Some result is worth 3 points (koks, backgammon)."""


_PROFILES = {
    "long_nardy": Profile("long_nardy", hitting=False, bears_off=True, head=True, triple=False),
    "short_nardy": Profile("short_nardy", hitting=True, bears_off=True, head=False, triple=True),
    "backgammon": Profile("backgammon", hitting=True, bears_off=True, head=False, triple=True),
    "nard": Profile("nard", hitting=True, bears_off=False, head=False, triple=False),
}


def ruleset(rules: str) -> RuleSet:
    """The engine's rule set called ``rules``. Raises ``KeyError`` naming the known ones."""
    try:
        return RULESETS[rules]
    except KeyError:
        raise KeyError(f"no rule set {rules!r}; known: {', '.join(RULESETS)}") from None


@cache
def profile(rules: str) -> Profile:
    """The profile of ``rules`` (a known name, or derived from the rule set's results)."""
    if rules in _PROFILES:
        return _PROFILES[rules]
    rs = ruleset(rules)
    return Profile(rules, hitting=True, bears_off=True, head=False,
                   triple=any(r in ("koks", "backgammon") for r in rs.results))


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


def _general(positions: Sequence[BoardPosition], me: Side) -> Boards:
    n = len(positions)
    mine = np.zeros((n, POINTS), dtype=np.int64)
    theirs = np.zeros((n, POINTS), dtype=np.int64)
    bar = np.zeros((n, 2), dtype=np.int64)
    off = np.zeros((n, 2), dtype=np.int64)
    them = 1 - me
    for i, pos in enumerate(positions):
        for p, count in pos.in_perspective(me).items():
            if count > 0:
                mine[i, p - 1] = count
        for q, count in pos.in_perspective(them).items():
            if count > 0:
                theirs[i, q - 1] = count
        bar[i] = (pos.bar_of(me), pos.bar_of(them))
        off[i] = (pos.off_of(me), pos.off_of(them))
    return Boards(mine, theirs, bar, off)


# Black's own point q (index q - 1) is White's index _BLACK_INDEX[layout][q - 1]:
# Long Nardy's numbering (R2, q +- 12) or the hitting games' (H1, 25 - q).
_BLACK_INDEX = {
    "r2": np.array([(q + 12 if q <= 12 else q - 12) - 1 for q in range(1, 25)]),
    "h1": np.array([24 - q for q in range(1, 25)]),
}


# Positions packed as RuleSet.legal_positions_packed packs them: 24 points, two bars.
_PACK_POINTS = struct.Struct(f"{POINTS}b2x").pack
_PACK_POINTS_BAR = struct.Struct(f"{POINTS}b2b").pack


def packed_rows(data: bytes) -> Int8Array:
    """``RuleSet.legal_positions_packed``' bytes as rows of :data:`PACKED_SIZE` int8."""
    rows: Int8Array = np.frombuffer(data, dtype=np.int8).reshape(-1, PACKED_SIZE)
    return rows


def _from_rows(rows: Int8Array, me: Side, layout: str) -> Boards:
    """Packed positions (:func:`packed_rows`) seen by ``me``; the borne-off checkers are
    what is missing from 15."""
    points = rows[:, :POINTS]
    bar = rows[:, POINTS:].astype(np.int64)
    white = np.maximum(points, 0).astype(np.int64)
    black = np.maximum(-points, 0).astype(np.int64)[:, _BLACK_INDEX[layout]]
    off = CHECKERS - bar
    off[:, 0] -= white.sum(axis=1)
    off[:, 1] -= black.sum(axis=1)
    if me == 0:
        return Boards(white, black, bar, off)
    return Boards(black, white, bar[:, ::-1].copy(), off[:, ::-1].copy())


def _packed(positions: Sequence[Any], hitting: bool) -> bytes:
    """The positions' ``points`` (and ``bar`` pairs when ``hitting``) packed as
    ``RuleSet.legal_positions_packed`` packs them."""
    if hitting:
        pack_bar = _PACK_POINTS_BAR
        return b"".join([pack_bar(*pos.points, *pos.bar) for pos in positions])
    pack = _PACK_POINTS
    return b"".join([pack(*pos.points) for pos in positions])


def _fast(positions: Sequence[Any], me: Side, layout: str, hitting: bool) -> Boards:
    """The positions packed into one byte string read by NumPy."""
    return _from_rows(packed_rows(_packed(positions, hitting)), me, layout)


def _sample_positions(rs: RuleSet, count: int = 40, every: int = 4) -> list[BoardPosition]:
    """Every ``every``-th position of seeded random games, each game's last (finished)
    one included: checkers borne off and on the bar are in the sample."""
    rng = random.Random(7)
    position = rs.initial()
    found = [position]
    side = 0
    first = [True, True]
    turn = 0
    while len(found) < count:
        plays = rs.legal_plays(position, side, (rng.randint(1, 6), rng.randint(1, 6)),
                               first[side])
        first[side] = False
        position = rng.choice(plays).position
        turn += 1
        if rs.outcome(position) is not None:
            found.append(position)
            position, first = rs.initial(), [True, True]
        elif turn % every == 0:
            found.append(position)
        side = 1 - side
    return found


@cache
def _fast_layout(rules: str) -> str | None:
    """The fast path's numbering for ``rules`` if it reads sample positions exactly as
    the protocol does, else ``None``."""
    rs = ruleset(rules)
    sample = _sample_positions(rs)
    hitting = profile(rules).hitting
    if not all(isinstance(getattr(p, "points", None), tuple)
               and len(getattr(p, "points", ())) == POINTS
               and (not hitting or isinstance(getattr(p, "bar", None), tuple))
               for p in sample):
        return None
    for layout in _BLACK_INDEX:
        if all(_same(_fast(sample, me, layout, hitting), _general(sample, me)) for me in (0, 1)):
            return layout
    return None


def _same(a: Boards, b: Boards) -> bool:
    return all(np.array_equal(x, y) for x, y in
               ((a.mine, b.mine), (a.theirs, b.theirs), (a.bar, b.bar), (a.off, b.off)))


def boards(rules: str, positions: Sequence[BoardPosition], me: Side) -> Boards:
    """``positions`` (of rule set ``rules``) as arrays seen by ``me``."""
    layout = _fast_layout(rules)
    if layout is None or not positions:
        return _general(positions, me)
    return _fast(positions, me, layout, profile(rules).hitting)


@cache
def reads_packed(rules: str) -> bool:
    """Whether :func:`packed_boards` reads ``rules``' ``legal_positions_packed`` exactly
    as :func:`boards` reads its ``legal_positions``: on sample queries, the bytes are
    those the fast path (checked by :func:`_fast_layout`) packs from the positions."""
    rs = ruleset(rules)
    if _fast_layout(rules) is None or not callable(getattr(rs, "legal_positions_packed",
                                                           None)):
        return False
    hitting = profile(rules).hitting
    for i, position in enumerate(_sample_positions(rs)):
        side, rolls = i % 2, [(i % 6 + 1, (5 * i) % 6 + 1), (i % 3 + 1, i % 3 + 1)]
        for dice, data in zip(rolls, rs.legal_positions_packed(position, side, rolls, False),
                              strict=True):
            if data != _packed(rs.legal_positions(position, side, dice, False), hitting):
                return False
    return True


def packed_boards(rules: str, rows: Int8Array, me: Side) -> Boards:
    """Packed positions (:func:`packed_rows`; only where :func:`reads_packed`) as arrays
    seen by ``me``."""
    layout = _fast_layout(rules)
    assert layout is not None
    return _from_rows(rows, me, layout)


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
