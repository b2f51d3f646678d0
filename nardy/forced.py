"""The forced-play search every rule set shares (RULES R19-R21, RULES-FAMILY H11).

A rule set supplies its own one-die generator (``expand``, tuned for its own int
encoding) and the root layer; this module plays the dice left layer by layer and keeps
what the forced-play rules allow: the most dice any order can use (a play that ends the
game counts the dice it used), and with two different dice of which only one can be
played, the larger when it can.

A layer maps a state key to the rule set's own state tuple, whose last item is the
steps played so far; ``firsts`` layers map a state key to the first steps reaching it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .moves import Step

V = TypeVar("V")
"""A rule set's state tuple (ending with the steps so far)."""

Firsts = dict[int, set[Step]]
Expand = Callable[[dict[int, V], int, dict[int, V], dict[int, V],
                   Firsts | None, Firsts | None, Firsts | None], None]
"""``expand(layer, die, nxt, ended, firsts_in, firsts_out, ended_firsts)``: play ``die``
once from every state of ``layer``; new states go to ``nxt`` or (game over) ``ended``."""


@dataclass(slots=True)
class Search(Generic[V]):
    """The result of a search: the final states and what the forced-play rules allow."""

    finals: dict[int, V]
    firsts: set[Step]
    max_dice: int
    """Dice the maximal plays use (R19/R20); a play that ends the game (R28, H13/H14)
    counts the dice it used, so where some order plays more dice, that order must be
    played."""
    both_possible: bool = False
    """Non-double with two dice left: some play uses both (R19)."""


Shared = dict[int, tuple[dict[int, V], dict[int, V]]]
"""One die played from a root, by die: the states that go on and those that ended."""


def _from_root(expand: Expand[V], root: dict[int, V], d: int, shared: Shared[V],
               ) -> tuple[dict[int, V], dict[int, V]]:
    found = shared.get(d)
    if found is None:
        found = shared[d] = ({}, {})
        expand(root, d, found[0], found[1], None, None, None)
    return found


def search(expand: Expand[V], root: dict[int, V], dice_left: tuple[int, ...],
           want_firsts: bool, shared: Shared[V] | None = None) -> Search[V]:
    """All complete plays allowed by R19-R21 (H11) from the ``root`` states.

    ``dice_left`` is sorted high to low: one die, a double's dice, or two different.
    ``shared`` (searches of several rolls from one root, without firsts): the layers
    one die makes from the root, reused and added to by die; they are only read.
    """
    n = len(dice_left)
    if n == 0:
        return Search(root, set(), 0)
    assert shared is None or not want_firsts
    if n == 1 or dice_left[0] == dice_left[1]:
        d = dice_left[0]
        cur, cur_f = root, None
        depth = 0
        ended_at: list[tuple[int, dict[int, V], Firsts | None]] = []  # ended, by dice used
        for i in range(n):
            nxt_f: Firsts | None = None
            gone_f: Firsts | None = None
            if i == 0 and shared is not None:
                nxt, gone = _from_root(expand, root, d, shared)
            else:
                nxt, gone = {}, {}
                nxt_f = {} if want_firsts else None
                gone_f = {} if want_firsts else None
                expand(cur, d, nxt, gone, cur_f, nxt_f, gone_f)
            if gone:
                ended_at.append((depth + 1, gone, gone_f))
            if not nxt:
                break
            cur, cur_f = nxt, nxt_f
            depth += 1
        best = max([depth, *(used for used, _, _ in ended_at)])
        if best == 0:
            return Search(root, set(), 0)
        kept = [(layer, layer_f) for used, layer, layer_f in ended_at if used == best]
        if depth == best:
            kept.append((cur, cur_f))
        return _merged(kept, best, False)

    big, small = dice_left
    fa: Firsts | None = {} if want_firsts else None
    fb: Firsts | None = {} if want_firsts else None
    fea: Firsts | None = {} if want_firsts else None
    feb: Firsts | None = {} if want_firsts else None
    if shared is not None:
        layer_a, end_a = _from_root(expand, root, big, shared)
        layer_b, end_b = _from_root(expand, root, small, shared)
    else:
        layer_a, end_a, layer_b, end_b = {}, {}, {}, {}
        expand(root, big, layer_a, end_a, None, fa, fea)
        expand(root, small, layer_b, end_b, None, fb, feb)
    layer_2: dict[int, V] = {}
    ended: dict[int, V] = {}
    f2: Firsts | None = {} if want_firsts else None
    fe2: Firsts | None = {} if want_firsts else None
    expand(layer_a, small, layer_2, ended, fa, f2, fe2)
    expand(layer_b, big, layer_2, ended, fb, f2, fe2)
    if layer_2 or ended:  # R19: some order plays both dice, so both must be played
        return _merged([(ended, fe2), (layer_2, f2)], 2, True)
    if layer_a or end_a:  # R21: only one die plays, the larger if it can
        return _merged([(end_a, fea), (layer_a, fa)], 1, False)
    if layer_b or end_b:
        return _merged([(end_b, feb), (layer_b, fb)], 1, False)
    return Search(root, set(), 0)


def _merged(kept: list[tuple[dict[int, V], Firsts | None]], max_dice: int, both: bool,
            ) -> Search[V]:
    """The kept layers as one result. No key is in two of them: whether a state has
    ended the game is a property of the state, and the layers hold the same dice used.
    A single non-empty layer is the result's ``finals`` itself (results are only read)."""
    full = [layer for layer, _ in kept if layer]
    if len(full) == 1:
        finals = full[0]
    else:
        finals = {}
        for layer in full:
            finals.update(layer)
    firsts: set[Step] = set()
    for _, layer_f in kept:
        if layer_f:
            firsts.update(*layer_f.values())
    return Search(finals, firsts, max_dice, both)
