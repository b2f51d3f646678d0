"""A deliberately simple reference move generator, written straight from RULES.md.

It shares nothing with the engine's generator: it reads the board through
``Position.in_perspective`` into a plain list, recurses over every die order and
every checker, checks each rule the obvious way (all 19 prime windows before and
after every die, a scan for checkers outside home, ...), and filters the complete
plays with R19-R21 at the end. It is slow on purpose; the tests run it on samples.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy import Position


def opp_number(p: int) -> int:
    """R2."""
    return p + 12 if p <= 12 else p - 12


@dataclass(frozen=True)
class Reference:
    """What the rules allow: the distinct results and the legal first steps (R24)."""

    results: frozenset[Position]
    first_steps: frozenset[tuple[int, int, int]]  # (src, dst, die), dst 0 = off
    max_dice: int


def full_windows(board: list[int]) -> set[int]:
    """R14: the k of every window k..k+5 where the mover has a checker on each point."""
    return {k for k in range(1, 20) if all(board[p] > 0 for p in range(k, k + 6))}


def opponent_ahead(board: list[int], k: int) -> bool:
    """R15: an opposing checker on a point whose opponent number is below every
    opponent number of the window k..k+5."""
    lowest = min(opp_number(p) for p in range(k, k + 6))
    return any(board[q] < 0 and opp_number(q) < lowest for q in range(1, 25))


def try_step(board: list[int], off: int, src: int, die: int, head_used: int, allowance: int,
             ) -> tuple[list[int], int, int, int] | None:
    """One die, straight from the rules; the new (board, off, head_used, dst) or None."""
    if board[src] <= 0:
        return None
    if src == 24 and head_used >= allowance:  # R11, R12
        return None
    dst = src - die
    new = list(board)
    new[src] -= 1
    if dst >= 1:
        if board[dst] < 0:  # R6
            return None
        new[dst] += 1
        before = full_windows(board)
        for k in full_windows(new) - before:  # R16, R17
            if not opponent_ahead(new, k):  # R15, R18
                return None
        new_off = off
    else:
        if any(board[p] > 0 for p in range(7, 25)):  # R25
            return None
        if dst < 0 and any(board[p] > 0 for p in range(src + 1, 25)):  # R26
            return None
        dst = 0
        new_off = off + 1
    return new, new_off, head_used + (1 if src == 24 else 0), dst


def reference(position: Position, side: int, dice_left: tuple[int, ...], head_left: int,
              ) -> Reference:
    """Every complete play from this state, filtered by R19-R21 (R28 ends a play)."""
    view = position.in_perspective(side)
    board = [0] * 25
    for p, n in view.items():
        board[p] = n
    start_off = position.off_of(side)
    terminals: list[tuple[tuple[int, ...], int, bool, tuple[tuple[int, int, int], ...]]] = []

    def recurse(board: list[int], off: int, dice: tuple[int, ...], head_used: int,
                steps: tuple[tuple[int, int, int], ...]) -> None:
        if off == 15:  # R28: the game is over
            terminals.append((tuple(board), len(steps), True, steps))
            return
        moved = False
        for i, die in enumerate(dice):
            if die in dice[:i]:
                continue  # the same value again would give the same children
            rest = dice[:i] + dice[i + 1:]
            for src in range(24, 0, -1):
                result = try_step(board, off, src, die, head_used, head_left)
                if result is None:
                    continue
                moved = True
                new, new_off, new_head, dst = result
                recurse(new, new_off, rest, new_head, (*steps, (src, dst, die)))
        if not moved:
            terminals.append((tuple(board), len(steps), False, steps))

    recurse(board, start_off, dice_left, 0, ())
    # R19/R20 read literally: the plays using the most dice; a play that ends the game
    # (R28) counts the dice it used, no more.
    best = max(used for _, used, _, _ in terminals)
    kept = [t for t in terminals if t[1] == best]
    distinct = len(set(dice_left)) == 2
    if distinct and not any(used == 2 for _, used, _, _ in kept):
        # R21: either die could be played but not both: the larger, if it can be.
        larger = max(dice_left)
        with_larger = [t for t in kept if t[3] and t[3][0][2] == larger]
        if with_larger:
            kept = with_larger
    results = set()
    for final, _used, _ended, steps in kept:
        counts = {p: final[p] for p in range(1, 25) if final[p]}
        off = start_off + sum(1 for s in steps if s[1] == 0)
        results.add(Position.from_perspective(side, counts, off, position.off_of(1 - side)))
    firsts = frozenset(t[3][0] for t in kept if t[3])
    return Reference(frozenset(results), firsts, best)


def reference_for_roll(position: Position, side: int, dice: tuple[int, int],
                       first_turn: bool) -> Reference:
    a, b = dice
    dice_left = (a,) * 4 if a == b else (a, b)
    allowance = 2 if first_turn and a == b and a in (3, 4, 6) else 1
    return reference(position, side, dice_left, allowance)
