"""The one move generator of the hitting games (RULES-FAMILY H2, H6-H14).

A query works in the mover's own numbering with ints only. A state is one int key:

- bytes 0..25: the mover's counts, the mover's point ``p`` in byte ``p`` for White and
  byte ``25 - p`` for Black, so bytes 1..24 list the board in White's order for either
  side (point 25 is the bar, point 0 the borne-off checkers);
- bits ``208 + p``: the opponent has a blot (one checker) on the mover's point ``p``
  that has not been hit yet this turn (the opponent's closed points never change
  during the mover's turn, so they are fixed per query);
- bits ``240 + p`` (``short_nardy`` only, H10): the mover's point ``p`` holds the
  checker that hit this turn. Hitters only land on points without own checkers, so a
  point holds at most one; once another own checker joins it, a step from the point
  may be the other checker's (H10, "checkers on one point are alike"), and both
  readings are followed.

Plays are generated breadth-first, one die per layer, merging equal keys, so every
intermediate stop is judged (H8) and each distinct result is found once. The forced
play rules (H11) are counted exactly as Long Nardy's ``_search`` counts R19-R21.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Final

from .. import forced
from ..codec import PACKED_SIZE
from ..forced import Firsts
from ..moves import Step
from ..types import CHECKERS, WHITE, Side
from .position import HitPosition
from .variants import Variant

# ---------------------------------------------------------------------------
# Tables, built once at import.

BAR: Final = 25
_BIT: Final = tuple(1 << p for p in range(26))
_BAR_BIT: Final = 1 << BAR
_BLOT_BASE: Final = 208
_MARK_BASE: Final = 240
_BLOT_UNIT: Final = tuple(1 << (_BLOT_BASE + p) for p in range(26))
_MARK_UNIT: Final = tuple(1 << (_MARK_BASE + p) for p in range(26))
_POINTS_MASK: Final = sum(1 << p for p in range(1, 25))
_NO_MARKS: Final = (1 << _MARK_BASE) - 1
_BOARD_BYTES: Final = sum(255 << (8 * b) for b in range(1, 25))
_SHIFTS: Final = (tuple(8 * p for p in range(26)), tuple(8 * (25 - p) for p in range(26)))
_UNITS: Final = tuple(tuple(1 << sh for sh in shifts) for shifts in _SHIFTS)
_HIGH_POINTS: Final = tuple(tuple(p for p in range(24, 12, -1) if m >> (p - 13) & 1)
                            for m in range(4096))
_LOW_POINTS: Final = tuple(tuple(p for p in range(12, 0, -1) if m >> (p - 1) & 1)
                           for m in range(4096))
_OUTSIDE_HOME: Final = sum(1 << p for p in range(7, 26))
"""Bits of points 7..24 and the bar: a checker there is not home."""
_NOT_LOW: Final = tuple(~sum(1 << p for p in range(1, d + 1)) for d in range(7))
"""_NOT_LOW[d]: every bit but those of points 1..d."""

_PACK: Final = struct.Struct("x24b").pack
_UNPACK: Final = struct.Struct("x24b").unpack
_SIGNED: Final = tuple(range(128)) + tuple(range(-128, 0))


def _table(f: object) -> bytes:
    assert callable(f)
    return bytes(f(v) for v in _SIGNED)


_ONE, _ZERO = b"1"[0], b"0"[0]
_POSITIVE: Final = _table(lambda v: v if v > 0 else 0)
_NEGATIVE: Final = _table(lambda v: -v if v < 0 else 0)
_POSITIVE_BIT: Final = _table(lambda v: _ONE if v > 0 else _ZERO)
_NEGATIVE_BIT: Final = _table(lambda v: _ONE if v < 0 else _ZERO)
_POSITIVE_CLOSED: Final = _table(lambda v: _ONE if v > 1 else _ZERO)
_NEGATIVE_CLOSED: Final = _table(lambda v: _ONE if v < -1 else _ZERO)
_POSITIVE_BLOT: Final = _table(lambda v: _ONE if v == 1 else _ZERO)
_NEGATIVE_BLOT: Final = _table(lambda v: _ONE if v == -1 else _ZERO)
_BIASED_NEGATIVE: Final = _table(lambda v: 128 + v if v < 0 else 128)
_BIASED_POSITIVE: Final = _table(lambda v: 128 + v if v > 0 else 128)
_UNBIAS: Final = bytes(b ^ 0x80 for b in range(256))


def _make_steps() -> tuple[tuple[Step, ...], ...]:
    """_STEPS[d][s]: the interned step moving a checker from s (25: the bar) with die d."""
    table = []
    for d in range(7):
        row = [Step(1, 0, 1)]  # s = 0 is never a source
        for s in range(1, 26):
            row.append(Step(s, max(s - d, 0), d) if d else Step(1, 0, 1))
        table.append(tuple(row))
    return tuple(table)


_STEPS: Final = _make_steps()

# The slot descriptors' setters: the cheapest way to fill a frozen dataclass.
_set_rules: Final = vars(HitPosition)["rules"].__set__
_set_points: Final = vars(HitPosition)["points"].__set__
_set_bar: Final = vars(HitPosition)["bar"].__set__
_set_off: Final = vars(HitPosition)["off"].__set__


def new_position(rules: str, points: tuple[int, ...], bar: tuple[int, int],
                 off: tuple[int, int]) -> HitPosition:
    """A position without validation: the generator's results are consistent."""
    position = object.__new__(HitPosition)
    _set_rules(position, rules)
    _set_points(position, points)
    _set_bar(position, bar)
    _set_off(position, off)
    return position


# ---------------------------------------------------------------------------
# The mover's view of a position.


@dataclass(slots=True)
class Mover:
    """A position seen by ``side`` as ints (see the module doc)."""

    side: Side
    rules: str
    key: int
    occ: int
    """Bit p: the mover has a checker on its point p (bit 25: on the bar)."""
    closed: int
    """Bit p: the opponent holds two or more checkers on the mover's point p (H7)."""
    blots: int
    """Bit p: the opponent has a blot on the mover's point p."""
    cap: int
    bear_off: bool
    no_hit_and_hide: bool
    shift: tuple[int, ...]
    unit: tuple[int, ...]
    convert: int
    """Excess-128 bytes of the opponent's checkers (see :meth:`position`)."""
    opp_bar: int
    opp_off: int
    cache: dict[int, int]

    @classmethod
    def of(cls, position: HitPosition, side: Side, variant: Variant) -> Mover:
        raw = _PACK(*position.points)
        shift = _SHIFTS[side]
        if side == WHITE:
            key = int.from_bytes(raw.translate(_POSITIVE), "little")
            occ = int(raw.translate(_POSITIVE_BIT)[::-1], 2)
            closed = int(raw.translate(_NEGATIVE_CLOSED)[::-1], 2)
            blots = int(raw.translate(_NEGATIVE_BLOT)[::-1], 2)
            convert = int.from_bytes(raw.translate(_BIASED_NEGATIVE), "little")
        else:
            key = int.from_bytes(raw.translate(_NEGATIVE), "little")
            occ = int(raw.translate(_NEGATIVE_BIT), 2) << 1
            closed = int(raw.translate(_POSITIVE_CLOSED), 2) << 1
            blots = int(raw.translate(_POSITIVE_BLOT), 2) << 1
            convert = int.from_bytes(raw.translate(_BIASED_POSITIVE), "little")
        bar = position.bar[side]
        key |= (bar << shift[BAR]) | (position.off[side] << shift[0])
        occ &= _POINTS_MASK
        if bar:
            occ |= _BAR_BIT
        blots &= _POINTS_MASK
        key |= blots << _BLOT_BASE
        facts = variant.descriptor
        return cls(side, position.rules, key, occ, closed & _POINTS_MASK, blots, facts.cap,
                   facts.bears_off, variant.no_hit_and_hide, shift, _UNITS[side], convert,
                   position.bar[1 - side], position.off[1 - side], {})

    def root(self, marks: tuple[int, ...]) -> Layer:
        """The search's first layer: one state per reading of who hit (H10)."""
        occ, blots = self.occ, self.blots
        return {self.key | (m << _MARK_BASE): (occ, blots, m, ()) for m in marks}

    def _opponent(self, key: int) -> tuple[int, int]:
        """The opponent's side of ``key``: its excess-128 board once the blots hit are
        gone (see ``convert``) and its checkers on the bar."""
        hit = self.blots & ~(key >> _BLOT_BASE)
        if not hit:
            return self.convert, self.opp_bar
        cached = self.cache.get(hit)
        if cached is None:
            delta = sum(self.unit[p] for p in range(1, 25) if hit >> p & 1)
            cached = self.convert + delta if self.side == WHITE else self.convert - delta
            self.cache[hit] = cached
        return cached, self.opp_bar + hit.bit_count()

    def position(self, key: int) -> HitPosition:
        """The position where the mover's checkers and the unhit blots are ``key``."""
        counts = key & _BOARD_BYTES
        convert, opp_bar = self._opponent(key)
        shift = self.shift
        bar = (key >> shift[BAR]) & 255
        off = (key >> shift[0]) & 255
        if self.side == WHITE:
            points = _UNPACK((convert + counts).to_bytes(25, "little").translate(_UNBIAS))
            return new_position(self.rules, points, (bar, opp_bar), (off, self.opp_off))
        points = _UNPACK((convert - counts).to_bytes(25, "little").translate(_UNBIAS))
        return new_position(self.rules, points, (opp_bar, bar), (self.opp_off, off))

    def packed(self, keys: Iterable[int]) -> bytes:
        """:meth:`position` of each of ``keys`` packed as ``RuleSet.legal_positions_packed``
        packs them: White's 24 points, White's bar and Black's bar as signed bytes."""
        bar_shift = self.shift[BAR]
        sign = 1 if self.side == WHITE else -1
        # Above the points (less the unused byte 0), the bars as biased bytes.
        mine_at, theirs_at = (8 * 24, 8 * 25) if self.side == WHITE else (8 * 25, 8 * 24)
        records = []
        for key in keys:
            convert, opp_bar = self._opponent(key)
            value = (((convert + sign * (key & _BOARD_BYTES)) >> 8)
                     | (128 + ((key >> bar_shift) & 255)) << mine_at
                     | (128 + opp_bar) << theirs_at)
            records.append(value.to_bytes(PACKED_SIZE, "little"))
        return b"".join(records).translate(_UNBIAS)

    def marks_of(self, key: int) -> int:
        return key >> _MARK_BASE


# ---------------------------------------------------------------------------
# The generator.

# A layer maps a state key to (occ, blots, marks, steps so far).
State = tuple[int, int, int, tuple[Step, ...]]
Layer = dict[int, State]


def expand(g: Mover, layer: Layer, d: int, nxt: Layer, ended: Layer,
            firsts_in: Firsts | None, firsts_out: Firsts | None,
            ended_firsts: Firsts | None) -> None:
    """Play die ``d`` once from every state of ``layer`` in every legal way.

    New states go to ``nxt`` (or ``ended`` when the move wins the game, H13/H14).
    When ``firsts_out`` is given, each new state collects the set of first steps
    that reach it (``firsts_in`` None means ``layer`` is the turn's root).
    """
    closed = g.closed
    cap = g.cap
    bear_off = g.bear_off
    hide_rule = g.no_hit_and_hide
    shift = g.shift
    unit = g.unit
    bit = _BIT
    blot_unit = _BLOT_UNIT
    steps_d = _STEPS[d]
    open_landing = ~(closed << d)
    not_low = _NOT_LOW[d]
    not_below = _NOT_LOW[d - 1]
    high_points, low_points = _HIGH_POINTS, _LOW_POINTS
    enter = BAR - d
    off_shift = shift[0]
    for key, (occ, blots, marks, steps) in layer.items():
        if occ & _BAR_BIT:  # H9: the bar first
            if closed & bit[enter] or (cap and occ & bit[enter]
                                       and (key >> shift[enter]) & 255 >= cap):
                continue
            sources: tuple[int, ...] = (BAR,)
        else:
            cand = occ & open_landing
            if not bear_off or occ & _OUTSIDE_HOME:
                cand &= not_low  # H12/H13: no bearing off
            else:
                top = occ.bit_length() - 1
                # H12: exact point d, or the highest point when d is above it.
                cand = bit[top] if top < d else cand & not_below
            if not cand:
                continue
            sources = high_points[cand >> 13] + low_points[(cand >> 1) & 0xFFF]
        for s in sources:
            t = s - d
            occ2 = occ ^ bit[s] if (key >> shift[s]) & 255 == 1 else occ
            blots2 = blots
            if t > 0:
                tb = bit[t]
                if cap and occ & tb and (key >> shift[t]) & 255 >= cap:
                    continue  # H7: nard's six on a point
                key2 = key + unit[t] - unit[s]
                hit = blots & tb
                if hit:
                    blots2 = blots ^ tb
                    key2 -= blot_unit[t]
                occ2 |= tb
                done = not bear_off and not occ2 & _OUTSIDE_HOME  # H13: all 15 home
            else:
                hit = 0
                key2 = key + unit[0] - unit[s]
                done = (key2 >> off_shift) & 255 == CHECKERS  # H14
            step = steps_d[s]
            target = ended if done else nxt
            if hide_rule and (hit or marks & bit[s]):
                for key3, marks3 in _hitter_choices(key2, s, t, hit, occ, marks, key, shift):
                    if key3 in target:
                        if firsts_out is not None:
                            fo = ended_firsts if done else firsts_out
                            assert fo is not None
                            fo[key3] |= firsts_in[key] if firsts_in is not None else {step}
                        continue
                    target[key3] = (occ2, blots2, marks3, (*steps, step))
                    if firsts_out is not None:
                        fo = ended_firsts if done else firsts_out
                        assert fo is not None
                        fo[key3] = set(firsts_in[key]) if firsts_in is not None else {step}
                continue
            if key2 in target:
                if firsts_out is not None:
                    fo = ended_firsts if done else firsts_out
                    assert fo is not None
                    fo[key2] |= firsts_in[key] if firsts_in is not None else {step}
                continue
            target[key2] = (occ2, blots2, marks, (*steps, step))
            if firsts_out is not None:
                fo = ended_firsts if done else firsts_out
                assert fo is not None
                fo[key2] = set(firsts_in[key]) if firsts_in is not None else {step}


def _hitter_choices(key2: int, s: int, t: int, hit: int, occ: int, marks: int, key: int,
                    shift: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """H10: the (key, marks) readings of a step from ``s`` to ``t`` (0 = off).

    A checker that hit this turn may not land where own checkers stand. When ``s``
    holds the hitter and others, the step may be either's: both readings are kept.
    """
    tb = _BIT[t] if t > 0 else 0
    if not marks & _BIT[s]:
        if hit:  # the mover becomes the hitter
            return ((key2 + _MARK_UNIT[t], marks | tb),)
        return ((key2, marks),)
    hitter_may_land = t <= 0 or not occ & tb
    moved_hitter = marks ^ _BIT[s] | tb
    key_hitter = key2 - _MARK_UNIT[s] + (_MARK_UNIT[t] if t > 0 else 0)
    if (key >> shift[s]) & 255 == 1:  # the hitter stands alone: it is the one moving
        return ((key_hitter, moved_hitter),) if hitter_may_land else ()
    other = ((key2 + _MARK_UNIT[t], marks | tb),) if hit else ((key2, marks),)
    return (*other, (key_hitter, moved_hitter)) if hitter_may_land else other


Search = forced.Search[State]
"""What :func:`search` finds (see :mod:`nardy.forced`)."""


def search(g: Mover, root: Layer, dice_left: tuple[int, ...], want_firsts: bool,
           shared: forced.Shared[State] | None = None) -> Search:
    """All complete plays allowed by H11 (as R19-R21) from the ``root`` states
    (``shared``: see :func:`nardy.forced.search`)."""
    return forced.search(partial(expand, g), root, dice_left, want_firsts, shared)


def distinct_finals(finals: Layer) -> Layer:
    """One state per distinct result: the readings of who hit (H10) are forgotten."""
    out: Layer = {}
    for key, value in finals.items():
        out.setdefault(key & _NO_MARKS, value)
    return out


def hit_flags(g: Mover, steps: tuple[Step, ...]) -> tuple[bool, ...]:
    """Which of ``steps`` (played in order from the mover's start) hit a blot."""
    blots = g.blots
    flags = []
    for step in steps:
        t = step.dst
        if t and blots >> t & 1:
            blots ^= 1 << t
            flags.append(True)
        else:
            flags.append(False)
    return tuple(flags)
