"""Helpers for the computer's tests: sample positions of every rule set."""

from __future__ import annotations

import random

from computer.board import ruleset
from nardy import BoardPosition, Side


def sample_positions(rules: str, count: int, seed: int,
                     ) -> list[tuple[BoardPosition, Side, tuple[int, int], bool]]:
    """(position, side to move, dice, first turn) from seeded random games of ``rules``."""
    rs = ruleset(rules)
    rng = random.Random(seed)
    found: list[tuple[BoardPosition, Side, tuple[int, int], bool]] = []
    while len(found) < count:
        position, side, first = rs.initial(), rng.randrange(2), [True, True]
        while rs.outcome(position) is None and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if rng.random() < 0.15:
                found.append((position, side, dice, first[side]))
            plays = rs.legal_plays(position, side, dice, first[side])
            first[side] = False
            position = rng.choice(plays).position
            side = 1 - side
    return found
