"""Games between two levels: training's evaluation games and tests (the arena,
:mod:`computer.lab.arena`, plays its own, its players seeing the position and the dice)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from computer.board import ruleset
from computer.levels import Picker
from nardy import MAX_TURNS_PER_GAME, Outcome, Side

MAX_TURNS = MAX_TURNS_PER_GAME
"""A game still without a result after this many turns is an error (the engine's cap,
the same the server keeps)."""


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome
    turns: int
    starter: Side


def first_dice(rng: random.Random, played_opening: bool) -> tuple[int, int]:
    """The first turn's dice: the roll-off's two different dice when the opening roll is
    played (H4, backgammon), else an ordinary roll."""
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if not played_opening or dice[0] != dice[1]:
            return dice


def play_game(rules: str, white: Picker, black: Picker, rng: random.Random,
              starter: Side | None = None) -> GameResult:
    """One game from the start; dice (and the starter, unless given) drawn from ``rng``.
    Raises ``RuntimeError`` past :data:`MAX_TURNS` turns."""
    rs = ruleset(rules)
    pickers = (white, black)
    side: Side = starter if starter is not None else rng.randrange(2)
    first_side = side
    position = rs.initial()
    first = [True, True]
    played_opening = rs.opening == "roll_off_played"
    for turn in range(1, MAX_TURNS + 1):
        if turn == 1:
            dice = first_dice(rng, played_opening)
        else:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = rs.legal_plays(position, side, dice, first[side])
        first[side] = False
        position = plays[pickers[side](plays, side)].position
        outcome = rs.outcome(position)
        if outcome is not None:
            return GameResult(outcome, turn, first_side)
        side = 1 - side
    raise RuntimeError(f"no result after {MAX_TURNS} turns")


def paired_share(rules: str, mine: Picker, theirs: Picker, games: int, seed: int) -> float:
    """The share of ``games`` games ``mine`` wins against ``theirs``, played in pairs on
    the same dice with the colours swapped (White starts), the dice drawn from ``seed``:
    a training log's cheap comparison of two evaluations."""
    won = 0
    for g in range(games):
        rng = random.Random(seed * 100_003 + g // 2)
        me = g % 2
        white, black = (mine, theirs) if me == 0 else (theirs, mine)
        won += play_game(rules, white, black, rng, starter=0).outcome.winner == me
    return won / games
