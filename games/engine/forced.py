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


def search(expand: Expand[V], root: dict[int, V], dice_left: tuple[int, ...],
           want_firsts: bool) -> Search[V]:
    """All complete plays allowed by R19-R21 (H11) from the ``root`` states.

    ``dice_left`` is sorted high to low: one die, a double's dice, or two different.
    """
    n = len(dice_left)
    if n == 0:
        return Search(root, set(), 0)
    if n == 1 or dice_left[0] == dice_left[1]:
        d = dice_left[0]
        cur, cur_f = root, None
        depth = 0
        ended_at: list[tuple[int, dict[int, V], Firsts | None]] = []  # ended, by dice used
        for _ in range(n):
            nxt: dict[int, V] = {}
            nxt_f: Firsts | None = {} if want_firsts else None
            gone: dict[int, V] = {}
            gone_f: Firsts | None = {} if want_firsts else None
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
    layer_a: dict[int, V] = {}
    layer_b: dict[int, V] = {}
    end_a: dict[int, V] = {}
    end_b: dict[int, V] = {}
    fa: Firsts | None = {} if want_firsts else None
    fb: Firsts | None = {} if want_firsts else None
    fea: Firsts | None = {} if want_firsts else None
    feb: Firsts | None = {} if want_firsts else None
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
    ended the game is a property of the state, and the layers hold the same dice used."""
    finals: dict[int, V] = {}
    firsts: set[Step] = set()
    for layer, layer_f in kept:
        finals.update(layer)
        if layer_f:
            firsts.update(*layer_f.values())
    return Search(finals, firsts, max_dice, both)
