"""The server's dice: derived from each game's committed seed (docs/fairness.md).

Every die of a live game — roll-offs, turns, the computer's turns — is drawn here:
:func:`commit` gives a new game its secret seed and published commitment,
:func:`roll_off_die` and :func:`turn_dice` derive the dice from it
(:mod:`games.fairness`, the one derivation the verifier shares). A game without a seed
(one in play from before commitments) rolls with ``secrets``. Nothing here lets anyone
choose the dice: the test suite plans its dice in its own support (``tests/dice.py``), and
the demo data is a match record loaded by the import (:mod:`games.demo`).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from games import fairness

if TYPE_CHECKING:
    from games.models import Game


def commit(game: Game) -> None:
    """A new game's secret seed and its commitment."""
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
    derived = game_dice(game)
    if derived is not None:
        die = derived.roll_off(game.dice_drawn // 2, side)
    else:
        die = secrets.randbelow(6) + 1
    game.dice_drawn += 1
    return die


def turn_dice(game: Game) -> tuple[int, int]:
    """The two dice of the game's next turn (number ``game.turns + 1``)."""
    derived = game_dice(game)
    if derived is not None:
        dice = derived.turn(game.turns + 1)
    else:
        dice = secrets.randbelow(6) + 1, secrets.randbelow(6) + 1
    game.dice_drawn += 2
    return dice


def first_die_rolled(game: Game) -> bool:
    """A die of the game is drawn: players' seeds no longer count (docs/fairness.md)."""
    return (game.dice_drawn > 0 or game.turns > 0 or game.rolloff_white is not None
            or game.rolloff_black is not None)


def reveal(game: Game) -> dict[str, str]:
    """The data an ending event carries for a committed game: the commitment and the
    server seed it promised (``{}`` for a game that is not committed)."""
    if not game.dice_seed:
        return {}
    return {"commitment": game.dice_commitment, "server_seed": game.dice_seed}
