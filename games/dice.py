"""Server-side dice from ``secrets``; the demo data and tests plan them instead."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager

DieSource = Callable[[], int]


def secure_die() -> int:
    return secrets.randbelow(6) + 1


_source: DieSource = secure_die


def roll_die() -> int:
    value = _source()
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1..6, not {value}")
    return value


@contextmanager
def planned(queue: list[int]) -> Iterator[list[int]]:
    """Inside the block the server's dice come from ``queue``, front first."""
    global _source

    def next_die() -> int:
        if not queue:
            raise RuntimeError("the planned dice ran out")
        return queue.pop(0)

    saved, _source = _source, next_die
    try:
        yield queue
    finally:
        _source = saved


# --- dice plans: how a scripted game picks each roll (demo data, tests) ------------------

DicePlan = Callable[[str, random.Random], tuple[int, int]]


def fair(side: str, rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def favour(favourite: str) -> DicePlan:
    """High dice for ``favourite``, low ones for the other side: a mars in the making."""

    def plan(side: str, rng: random.Random) -> tuple[int, int]:
        if side == favourite:
            return rng.choice([4, 5, 6]), rng.choice([4, 5, 6])
        return rng.choice([1, 2]), rng.choice([1, 2, 3])

    return plan
