"""Contact features: what a strong player sees beyond the checker counts.

The ``contact-signed24`` encoding (:mod:`computer.network`) is the TD encoding's 208 inputs
followed by :data:`EXTRA` inputs for each side (the mover's, then the opponent's), each
computed in that side's own numbering, ``S`` the side and ``O`` the other:

====  =====================================================================================
 0    shots: the share of ``O``'s 36 rolls that hit a blot of ``S`` (hitting games; direct
      and combined shots, a combination blocked where ``S`` has a point; from ``O``'s bar
      too, the entry ignoring that the bar must be emptied first)
 1    pips lost: the expected pips ``S`` loses to ``O``'s next roll (per roll the hit that
      costs most, ``25 - p`` for a blot on point ``p``), / 25
 2    blots of ``S``, / 5 (hitting games)
 3    escapes: the share of the 36 rolls with which ``S``'s rearmost checker (the bar's
      first) moves its whole roll through the 12 points in front of it (the landing free
      of ``O``'s blocks and at least one of the two intermediate points free)
 4    ``S``'s closed home points (1..6 held against ``O``), / 6
 5    ``S``'s anchors: points held in ``O``'s home, / 3
 6    ``S``'s checkers in ``O``'s home (the back checkers), / 5
 7-12 mobility: for each die 1..6, whether ``S`` can play it (from the bar first: enter; else
      a checker lands on a point ``O`` does not block, or bears off when all are home)
====  =====================================================================================

"Blocks" and "held" are the rule set's: two checkers in the hitting games (H7), one in Long
Nardy (R6). In Long Nardy there are no hits, so contact inputs 0-2 are zero. Everything is
computed on bit masks for the whole batch at once (point ``p`` is bit ``p``; ``O``'s bar is
bit 0 where its checkers enter towards ``S``'s points).

The ``shape-signed24`` encoding adds :data:`SHAPE` inputs a side (:func:`shape`), what
players of the running games read beside the contact: the timing, the head, the last
checkers and the blocks in front of the opponent, again in each side's own numbering:

====  =====================================================================================
 0    ``S``'s checkers on its head (own point 24), / 15
 1    ``S``'s checkers in its starting quarter (own points 19..24, the bar too), / 15
 2    ``S``'s checkers not yet home (own points 7..24 and the bar), / 15
 3    bear-in pips: the pips ``S`` must play to bring every checker home, / 200
 4    ``S``'s rearmost checker: its point (25 on the bar, 0 when none is left), / 24
 5    the pips of ``S``'s three rearmost checkers, / 75
 6    timing: the pips of ``S``'s spare checkers (those beyond the ones holding their
      point), which it can play without giving up a point, / 300
 7    trapped: ``O``'s checkers behind ``S``'s longest run of held points (three or more
      in a row, in ``O``'s way; the lowest such run when two are as long), / 15
====  =====================================================================================
"""

from __future__ import annotations

import numpy as np

from .board import IntArray, Profile

EXTRA = 13
"""Contact inputs per side."""
SHAPE = 8
"""Shape inputs per side (:func:`shape`)."""

POINTS = 24
_ON_BOARD = ((1 << (POINTS + 1)) - 1) & ~1       # bits 1..24
_HOME = sum(1 << p for p in range(1, 7))

# Point r in the other side's numbering is own point _TO_MINE[...][r - 1] + 1 (R2, H1).
_TO_MINE = {"rotated": np.array([(r + 12 if r <= 12 else r - 12) - 1 for r in range(1, 25)]),
            "mirrored": np.array([24 - r for r in range(1, 25)])}
# The other side's home (its points 1..6) in one's own numbering, as a mask.
_THEIR_HOME = {numbering: sum(1 << (int(to_mine[r - 1]) + 1) for r in range(1, 7))
               for numbering, to_mine in _TO_MINE.items()}

_ROLLS = tuple(((a, b), (1 if a == b else 2) / 36)
               for a in range(1, 7) for b in range(1, a + 1))


def _escape_table() -> np.ndarray:
    """For each 12-bit mask of blocked points in front of a checker (bit ``i``: the point
    ``i + 1`` pips ahead): the share of the 36 rolls that move it by the whole roll."""
    table = np.zeros(4096)
    for mask in range(4096):
        def free(d: int, mask: int = mask) -> bool:
            return not mask >> (d - 1) & 1
        table[mask] = sum(free(a + b) and (free(a) or free(b))
                          for a in range(1, 7) for b in range(1, 7)) / 36
    return table


_ESCAPES = _escape_table()


def _mask(flags: np.ndarray, reversed_: bool = False) -> IntArray:
    """Per row of ``flags`` (``(..., 24)`` booleans over points 1..24) its bit mask: bit
    ``p`` for point ``p`` (``reversed_``: bit ``25 - p``)."""
    if reversed_:
        flags = flags[..., ::-1]
    packed = np.packbits(flags, axis=-1, bitorder="little").astype(np.int64)
    mask: IntArray = (packed[..., 0] | packed[..., 1] << 8 | packed[..., 2] << 16) << 1
    return mask


def _lowest_bit(mask: IntArray) -> IntArray:
    """The index of each mask's lowest set bit (meaningless for 0)."""
    low = (mask & -mask).astype(np.float64)
    return np.frexp(low)[1].astype(np.int64) - 1


def _shots(sources: IntArray, blots: IntArray, blocks: IntArray,
           ) -> tuple[np.ndarray, np.ndarray]:
    """The share of rolls that hit a blot and the expected pips lost: ``sources`` are the
    hitter's checkers (moving up the bits; bit 0 its bar), ``blots`` and ``blocks`` the
    target side's single checkers and held points."""
    shots = np.zeros(len(sources))
    loss = np.zeros(len(sources))
    free = ~blocks
    for (a, b), weight in _ROLLS:
        if a == b:
            hits = np.zeros_like(sources)
            reached = sources
            for _ in range(4):
                reached = (reached << a) & _ON_BOARD
                hits |= reached & blots
                reached &= free
        else:
            via_a, via_b = (sources << a) & _ON_BOARD, (sources << b) & _ON_BOARD
            hits = (via_a | via_b | ((via_a & free) << b) | ((via_b & free) << a)) & blots
        hit = hits != 0
        shots += weight * hit
        loss += weight * np.where(hit, 25 - _lowest_bit(hits), 0)
    return shots, loss


def contact(counts: IntArray, bar: IntArray, prof: Profile) -> np.ndarray:
    """The :data:`EXTRA` inputs of both sides: ``counts`` is ``(n, 2, 24)`` (each side's
    own points), ``bar`` ``(n, 2)``; the result is ``(n, 2, EXTRA)`` float32."""
    n = len(counts)
    need = 2 if prof.hits else 1
    to_mine = _TO_MINE[prof.numbering]
    other = counts[:, ::-1][:, :, to_mine]            # for side k: the other's, in k's numbering
    other_bar = bar[:, ::-1]
    own = _mask(counts > 0)
    held = _mask(counts >= need)
    blocked = _mask(other >= need)                    # the other side's blocks against k
    out = np.zeros((n, 2, EXTRA), dtype=np.float32)
    if prof.hits:
        blots = _mask(counts == 1)
        sources = _mask(other > 0) | (other_bar > 0)  # bit 0: the other's bar
        shots, loss = _shots(sources.ravel(), blots.ravel(), held.ravel())
        out[:, :, 0] = shots.reshape(n, 2)
        out[:, :, 1] = loss.reshape(n, 2) / 25.0
        out[:, :, 2] = np.bitwise_count(blots) / 5.0
    # The rearmost checker: 25 from the bar, else the highest own point, else none (0).
    rear = np.frexp(own.astype(np.float64))[1].astype(np.int64) - 1
    rear = np.where(bar > 0, 25, np.maximum(rear, 0))
    ahead = (_mask(other >= need, reversed_=True) >> np.clip(26 - rear, 0, 62)) & 0xFFF
    out[:, :, 3] = np.where(rear > 0, _ESCAPES[ahead], 1.0)
    out[:, :, 4] = np.bitwise_count(held & _HOME) / 6.0
    out[:, :, 5] = np.bitwise_count(held & _THEIR_HOME[prof.numbering]) / 3.0
    back = [int(to_mine[r - 1]) for r in range(1, 7)]
    out[:, :, 6] = counts[:, :, back].sum(axis=2) / 5.0
    home = (rear <= 6) & (rear > 0)
    for d in range(1, 7):
        inside = ((own >> d) & ~blocked & _ON_BOARD) != 0
        bears = home & (((own >> d) & 1).astype(bool) | (rear < d))
        enters = ~((blocked >> (25 - d)) & 1).astype(bool)
        out[:, :, 6 + d] = np.where(bar > 0, enters, inside | bears)
    return out


_POINT = np.arange(1, POINTS + 1)
_BEAR_IN = np.maximum(_POINT - 6, 0)


def shape(counts: IntArray, bar: IntArray, prof: Profile) -> np.ndarray:
    """The :data:`SHAPE` inputs of both sides: ``counts`` is ``(n, 2, 24)`` (each side's
    own points), ``bar`` ``(n, 2)``; the result is ``(n, 2, SHAPE)`` float32."""
    n = len(counts)
    need = 2 if prof.hits else 1
    out = np.zeros((n, 2, SHAPE), dtype=np.float32)
    out[:, :, 0] = counts[:, :, POINTS - 1] / 15.0
    out[:, :, 1] = (counts[:, :, 18:].sum(axis=2) + bar) / 15.0
    out[:, :, 2] = (counts[:, :, 6:].sum(axis=2) + bar) / 15.0
    out[:, :, 3] = (counts @ _BEAR_IN + 19 * bar) / 200.0
    # The checkers from the rear: the bar (at 25) first, then points 24 down to 1.
    rear_first = np.concatenate((bar[:, :, None], counts[:, :, ::-1]), axis=2)
    where = np.concatenate(([25], _POINT[::-1]))
    present = rear_first > 0
    first = np.argmax(present, axis=2)
    out[:, :, 4] = np.where(present.any(axis=2), where[first], 0) / 24.0
    before = np.cumsum(rear_first, axis=2) - rear_first
    last3 = np.clip(3 - before, 0, rear_first)
    out[:, :, 5] = (last3 @ where) / 75.0
    out[:, :, 6] = (np.maximum(counts - need, 0) @ _POINT) / 300.0
    # Trapped: in the other side's numbering (it moves from its 24 down to 1), the
    # points this side holds and the other's checkers still behind them.
    held = counts[:, :, _TO_MINE[prof.numbering]] >= need     # side k's, at the other's r
    other = counts[:, ::-1]                                    # the other's, on its own points
    behind = other[:, :, ::-1].cumsum(axis=2)[:, :, ::-1] - other  # other's above point r
    behind = behind + bar[:, ::-1, None]
    run = np.zeros((n, 2), dtype=np.int64)
    best = np.zeros((n, 2), dtype=np.int64)
    trapped = np.zeros((n, 2), dtype=np.int64)
    for r in range(POINTS):
        run = np.where(held[:, :, r], run + 1, 0)
        longer = run > best
        best = np.where(longer, run, best)
        trapped = np.where(longer, behind[:, :, r], trapped)
    out[:, :, 7] = np.where(best >= 3, trapped, 0) / 15.0
    return out
