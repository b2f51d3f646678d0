"""The server's dice: derived from each game's committed seed (issue 26, docs/fairness.md).

Every die of a live game — roll-offs, turns, the computer's turns — is drawn here:
:func:`commit` gives a new game its secret seed and published commitment,
:func:`roll_off_die` and :func:`turn_dice` derive the dice from it
(:mod:`games.fairness`, the one derivation the verifier shares). A game without a seed
(one in play from before commitments) rolls with ``secrets``.

**Scripted dice** (the test suite's planned dice, the development demo data) are the one
seam for choosing dice: :func:`planned`, a documented context manager. It works only when
the settings say so (``DICE_SCRIPTS_ALLOWED``, which ``nard_site.settings`` sets to
``DEBUG`` as the settings are loaded, and no environment variable can set on its own): a
server started with ``DEBUG`` off cannot switch it on. A game started while a script runs
is not committed (its dice are the script's); a committed game that rolls a scripted die
no longer verifies — which only a test can make happen.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games import fairness

if TYPE_CHECKING:
    from games.models import Game

DieSource = Callable[[], int]


# --- scripted dice (tests, demo data) ---------------------------------------------------------

_scripts: list[DieSource] = []
"""The scripts in force, innermost last; process-wide (a live server's thread rolls them
too). Only :func:`planned` changes it."""
_lock = threading.Lock()


def scripts_allowed() -> bool:
    """Whether scripted dice may be used: ``settings.DICE_SCRIPTS_ALLOWED`` (loaded as
    ``DEBUG``; the test settings and the development server only)."""
    return bool(getattr(settings, "DICE_SCRIPTS_ALLOWED", False))


@contextmanager
def planned(queue: list[int], then: DieSource | None = None) -> Iterator[list[int]]:
    """Inside the block the server's dice come from ``queue``, front first (values may be
    added to it while the block runs), then from ``then`` when it runs out (without
    ``then``, running out is an error). Raises ``ImproperlyConfigured`` unless
    :func:`scripts_allowed`."""
    if not scripts_allowed():
        raise ImproperlyConfigured("Scripted dice are for tests and development only "
                                   "(DICE_SCRIPTS_ALLOWED is off: DEBUG was off).")

    def next_die() -> int:
        if queue:
            return queue.pop(0)
        if then is None:
            raise RuntimeError("the planned dice ran out")
        return then()

    with _lock:
        _scripts.append(next_die)
    try:
        yield queue
    finally:
        with _lock:
            _scripts.remove(next_die)


def _scripted() -> DieSource | None:
    if not _scripts:
        return None
    if not scripts_allowed():  # the settings were changed under a script: refuse it
        raise ImproperlyConfigured("Scripted dice are off (DICE_SCRIPTS_ALLOWED).")
    return _scripts[-1]


def _scripted_die(source: DieSource) -> int:
    value = source()
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1..6, not {value}")
    return value


# --- the dice of a game --------------------------------------------------------------------


def commit(game: Game) -> None:
    """A new game's secret seed and its commitment (not while a script runs: its dice
    are the script's, so it is not committed)."""
    if _scripts:
        return
    seed = fairness.new_seed()
    game.dice_seed = seed.hex()
    game.dice_commitment = fairness.commitment(seed)


def game_dice(game: Game) -> fairness.GameDice | None:
    """What derives ``game``'s dice, or ``None`` for a game without a seed."""
    if not game.dice_seed:
        return None
    return fairness.GameDice(bytes.fromhex(game.dice_seed), game.match_id, game.number,
                             game.white_seed or None, game.black_seed or None)


def roll_off_die(game: Game, side: int) -> int:
    """``side``'s die in the game's current roll-off round (``dice_drawn // 2``)."""
    script = _scripted()
    derived = game_dice(game)
    if script is not None:
        die = _scripted_die(script)
    elif derived is not None:
        die = derived.roll_off(game.dice_drawn // 2, side)
    else:
        die = secrets.randbelow(6) + 1
    game.dice_drawn += 1
    return die


def turn_dice(game: Game) -> tuple[int, int]:
    """The two dice of the game's next turn (number ``game.turns + 1``)."""
    script = _scripted()
    derived = game_dice(game)
    if script is not None:
        dice = _scripted_die(script), _scripted_die(script)
    elif derived is not None:
        dice = derived.turn(game.turns + 1)
    else:
        dice = secrets.randbelow(6) + 1, secrets.randbelow(6) + 1
    game.dice_drawn += 2
    return dice


def first_die_rolled(game: Game) -> bool:
    """A die of the game is drawn: players' seeds no longer count (docs/fairness.md)."""
    return (game.dice_drawn > 0 or game.turns > 0 or game.rolloff_white is not None
            or game.rolloff_black is not None)


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


def reveal(game: Game) -> dict[str, str]:
    """The data an ending event carries for a committed game: the commitment and the
    server seed it promised (``{}`` for a game that is not committed)."""
    if not game.dice_seed:
        return {}
    return {"commitment": game.dice_commitment, "server_seed": game.dice_seed}
