"""The development demo data's matches: whole matches whose dice a plan chooses.

The server's own dice come only from each game's committed seed (:mod:`games.dice`), so a
demo match is not played by the server: it is written as a match record — each game
played in the engine from the start, the dice of each roll chosen by a :data:`DicePlan`,
each turn playing the first legal step until the turn ends, every roll-off won by White
6-1 — and loaded through the import of match records (:func:`games.importing.match_import`),
which plays it through the one turn path, checks it against the rules and labels it as
imported (its ``match_created`` event: ``imported: true``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from nardy import (
    BLACK,
    MAX_TURNS_PER_GAME,
    RULESETS,
    WHITE,
    Outcome,
    Side,
    Step,
    format_play,
    match_winner,
    other,
    side_name,
)
from nardy.record import format_record

DicePlan = Callable[[str, random.Random], tuple[int, int]]
"""A roll's two dice for the side (``"white"`` or ``"black"``) about to roll."""

ROLL_OFF = (6, 1)
"""Every demo roll-off: White 6, Black 1 (R7, H4)."""


def fair(side: str, rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def favour(favourite: str) -> DicePlan:
    """High dice for ``favourite``, low ones for the other side: a mars in the making."""

    def plan(side: str, rng: random.Random) -> tuple[int, int]:
        if side == favourite:
            return rng.choice([4, 5, 6]), rng.choice([4, 5, 6])
        return rng.choice([1, 2]), rng.choice([1, 2, 3])

    return plan


DEMO_PLANS: tuple[DicePlan, ...] = (favour("white"), fair, favour("white"))
"""Game ``n`` of a demo match rolls with plan ``n`` (the last repeats): White wins with
mars games (Long Nardy: 4-1, games 1 and 3 mars)."""


def _game(rules: str, number: int, starter: Side | None, plan: DicePlan, rng: random.Random,
          score: list[int], max_turns: int) -> tuple[dict[str, Any], Outcome]:
    """Game ``number`` as the record's JSON form writes it (``starter`` None: a roll-off
    decides), and its outcome; ``score`` (White's, Black's) is brought up to date."""
    ruleset = RULESETS[rules]
    opening: tuple[int, int] | None = None
    rolled_off = starter is None
    if starter is None:
        starter = WHITE  # ROLL_OFF: White's die is the higher
        if ruleset.opening == "roll_off_played":
            opening = ROLL_OFF
    position, side = ruleset.initial(), starter
    first_turn = [True, True]
    turns: list[dict[str, Any]] = []
    for turn in range(1, max_turns + 1):
        dice = opening or plan(side_name(side), rng)
        opening = None
        state = ruleset.start_turn(position, side, dice, first_turn[side])
        first_turn[side] = False
        steps: list[Step] = []
        hits: list[bool] = []
        while state.outcome() is None and not state.is_turn_over():
            step = state.legal_steps()[0]
            steps.append(step)
            hits.append(state.hits(step))
            state = state.apply(step)
        outcome = state.outcome()
        turns.append({"number": turn, "side": side_name(side), "dice": list(dice),
                      "notation": format_play(steps, hits),
                      "pass_reason": None if outcome else state.pass_reason() or None})
        if outcome is not None:
            break
        position, side = state.position, other(side)
    else:
        raise RuntimeError(f"demo game {number} did not end in {max_turns} turns")
    score[outcome.winner] += outcome.points
    game = {"number": number,
            "roll_off": [{"white": ROLL_OFF[0], "black": ROLL_OFF[1]}] if rolled_off else [],
            "starter": side_name(starter), "turns": turns,
            "result": {"winner": side_name(outcome.winner), "points": outcome.points,
                       "mars": outcome.mars, "result": outcome.result,
                       "resigned": None, "refused": None, "stake": 1,
                       "score": {"white": score[WHITE], "black": score[BLACK]}}}
    return game, outcome


def demo_record(white: str, black: str, *, rules: str, length: int = 3,
                plans: Sequence[DicePlan] = DEMO_PLANS, seed: int = 0,
                max_turns: int = MAX_TURNS_PER_GAME) -> str:
    """The text record of a demo match between the players named ``white`` and ``black``
    (a match without stakes): game ``n`` rolls with ``plans[n - 1]`` (the last plan
    repeats), drawing from ``random.Random(seed)``. Raises ``RuntimeError`` for a game
    longer than ``max_turns`` turns."""
    rng = random.Random(seed)
    score = [0, 0]
    games: list[dict[str, Any]] = []
    starter: Side | None = None
    while (winner := match_winner((score[WHITE], score[BLACK]), length)) is None:
        number = len(games) + 1
        game, outcome = _game(rules, number, starter, plans[min(number, len(plans)) - 1],
                              rng, score, max_turns)
        games.append(game)
        loser = other(outcome.winner)
        starter = None if RULESETS[rules].later_games == "roll_off" else loser  # H5 / R8
    return format_record({
        "rules": rules, "white": white, "black": black, "length": length, "hotseat": False,
        "stakes": "none", "date": None, "status": "finished", "winner": side_name(winner),
        "score": {"white": score[WHITE], "black": score[BLACK]}, "games": games})
