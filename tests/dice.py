"""Planned dice: the server's dice chosen by a test.

Production has no seam for choosing dice (docs/fairness.md): :mod:`games.dice` derives
every die from the game's committed seed. A test plans dice by replacing, for the length
of a ``with planned(...)`` block, the module's functions that give a new game its seed and
draw its dice (``games.dice.commit``, ``roll_off_die`` and ``turn_dice``). Every caller
reaches them through the module (``dice.turn_dice(game)``), so the server code the test
calls, and a live server's threads in this process, roll the planned dice.

While dice are planned a new game is not committed (its dice are the plan's), and a
committed game rolls the planned dice too: its dice then no longer verify, which only a
test can make happen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from games import dice

if TYPE_CHECKING:
    from games.models import Game

DieSource = Callable[[], int]

_REAL = {"commit": dice.commit, "roll_off_die": dice.roll_off_die,
         "turn_dice": dice.turn_dice}
"""The server's own functions, put back when the last plan ends."""
_sources: list[DieSource] = []
"""The plans in force, innermost last; process-wide, as the patched module is."""
_lock = threading.Lock()


def _die() -> int:
    with _lock:
        source = _sources[-1]
    value = source()
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1..6, not {value}")
    return value


def _commit(game: Game) -> None:
    """A game started while dice are planned gets no seed: its dice are the plan's."""


def _roll_off_die(game: Game, side: int) -> int:
    die = _die()
    game.dice_drawn += 1
    return die


def _turn_dice(game: Game) -> tuple[int, int]:
    rolled = _die(), _die()
    game.dice_drawn += 2
    return rolled


_PLANNED = {"commit": _commit, "roll_off_die": _roll_off_die, "turn_dice": _turn_dice}


def _use(functions: Mapping[str, object]) -> None:
    for name, function in functions.items():
        setattr(dice, name, function)


@contextmanager
def planned(queue: list[int], then: DieSource | None = None) -> Iterator[list[int]]:
    """Inside the block the server's dice come from ``queue``, front first (values may be
    added to it while the block runs), then from ``then`` when it runs out (without
    ``then``, running out raises ``RuntimeError``). Blocks nest: the innermost plans."""

    def next_die() -> int:
        if queue:
            return queue.pop(0)
        if then is None:
            raise RuntimeError("the planned dice ran out")
        return then()

    with _lock:
        if not _sources:
            _use(_PLANNED)
        _sources.append(next_die)
    try:
        yield queue
    finally:
        with _lock:
            _sources.remove(next_die)
            if not _sources:
                _use(_REAL)
