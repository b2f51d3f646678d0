"""A deliberately simple reference move generator for the hitting games, written
straight from RULES-FAMILY.md H2-H14.

It shares nothing with the engine's generator: the mover's checkers are a plain list
of individual checkers ``[point, has_hit]`` (point 25 = the bar, 0 = off), the
opponent's a plain list of counts; it recurses over every die order and every
checker, checks each rule the obvious way and filters the complete plays with H11
(as R19-R21) at the end. H10's "some choice of which checker moved" is literal: every
checker on the source point is tried. Slow on purpose; the tests run it on samples.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy import HitPosition

BAR = 25


@dataclass(frozen=True)
class Reference:
    results: frozenset[HitPosition]
    first_steps: frozenset[tuple[int, int, int]]  # (src, dst, die); dst 0 = off
    max_dice: int


def _won(rules: str, mine: list[list[int]]) -> bool:
    if rules == "nard":
        return all(1 <= c[0] <= 6 for c in mine)
    return all(c[0] == 0 for c in mine)


def _try(rules: str, mine: list[list[int]], theirs: list[int], opp_bar: int, index: int,
         die: int) -> tuple[list[list[int]], list[int], int, int] | None:
    """Move checker ``index`` with ``die``; the new (mine, theirs, opp_bar, dst) or None."""
    src, has_hit = mine[index]
    if src == 0:
        return None
    on_bar = any(c[0] == BAR for c in mine)
    if on_bar and src != BAR:  # H9
        return None
    dst = src - die
    new_theirs = list(theirs)
    new_bar = opp_bar
    hit = False
    if dst >= 1:
        if theirs[dst] >= 2:  # H7: closed
            return None
        own_there = sum(1 for c in mine if c[0] == dst)
        if rules == "nard" and own_there >= 6:  # H7: nard's cap
            return None
        if rules == "short_nardy" and has_hit and own_there:  # H10
            return None
        if theirs[dst] == 1:
            new_theirs[dst] = 0
            new_bar += 1
            hit = True
    else:
        if rules == "nard":  # H13
            return None
        if any(c[0] > 6 for c in mine):  # H12 (the bar is 25)
            return None
        if dst < 0 and any(c[0] > src for c in mine):
            return None
        dst = 0
    new_mine = [list(c) for c in mine]
    new_mine[index] = [dst, 1 if (has_hit or hit) else 0]
    return new_mine, new_theirs, new_bar, dst


def reference(position: HitPosition, side: int, dice_left: tuple[int, ...]) -> Reference:
    rules = position.rules
    view = position.in_perspective(side)
    mine: list[list[int]] = []
    theirs = [0] * 25
    for p, n in view.items():
        if n > 0:
            mine += [[p, 0] for _ in range(n)]
        else:
            theirs[p] = -n
    mine += [[BAR, 0] for _ in range(position.bar_of(side))]
    mine += [[0, 0] for _ in range(position.off_of(side))]
    opp_bar = position.bar_of(1 - side)
    terminals: list[tuple[HitPosition, int, tuple[tuple[int, int, int], ...]]] = []

    def result(mine: list[list[int]], theirs: list[int], opp_bar: int) -> HitPosition:
        counts: dict[int, int] = {p: -n for p, n in enumerate(theirs) if n}
        for c in mine:
            if 1 <= c[0] <= 24:
                counts[c[0]] = counts.get(c[0], 0) + 1
        return HitPosition.from_perspective(
            rules, side, counts, sum(1 for c in mine if c[0] == 0), position.off_of(1 - side),
            sum(1 for c in mine if c[0] == BAR), opp_bar)

    def recurse(mine: list[list[int]], theirs: list[int], opp_bar: int, dice: tuple[int, ...],
                steps: tuple[tuple[int, int, int], ...]) -> None:
        if _won(rules, mine):  # H13/H14: the game is over
            terminals.append((result(mine, theirs, opp_bar), len(steps), steps))
            return
        moved = False
        for i, die in enumerate(dice):
            if die in dice[:i]:
                continue
            rest = dice[:i] + dice[i + 1:]
            tried = set()
            for index, checker in enumerate(mine):
                if tuple(checker) in tried:
                    continue
                tried.add(tuple(checker))
                after = _try(rules, mine, theirs, opp_bar, index, die)
                if after is None:
                    continue
                moved = True
                new_mine, new_theirs, new_bar, dst = after
                recurse(new_mine, new_theirs, new_bar, rest, (*steps, (checker[0], dst, die)))
        if not moved:
            terminals.append((result(mine, theirs, opp_bar), len(steps), steps))

    recurse(mine, theirs, opp_bar, dice_left, ())
    best = max(used for _, used, _ in terminals)
    kept = [t for t in terminals if t[1] == best]
    if len(set(dice_left)) == 2 and best == 1:
        larger = max(dice_left)
        with_larger = [t for t in kept if t[2][0][2] == larger]
        if with_larger:
            kept = with_larger
    return Reference(frozenset(t[0] for t in kept), frozenset(t[2][0] for t in kept if t[2]),
                     best)


def reference_for_roll(position: HitPosition, side: int, dice: tuple[int, int]) -> Reference:
    a, b = dice
    return reference(position, side, (a,) * 4 if a == b else (a, b))
