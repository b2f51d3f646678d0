"""Measured strength: games between two levels, with a confidence interval.

    python -m computer.strength --rules long_nardy --a expert --b heuristic --games 200 --seed 1

Plays ``--games`` games from the start, ``A`` with White in the even games and Black
in the odd ones, each game's starter and dice drawn from ``--seed``. Prints ``A``'s
share of games won with its 95 % Wilson interval, ``A``'s mean points per game
(mars/gammon counting), the mars share of each side's wins and the mean time per move
of each level (moves with one legal play excluded).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import BoardPlay as Play
from games.engine import Side

from .levels import Picker, picker
from .match import play_game


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` out of ``games`` (95 % with ``z = 1.96``).

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if games <= 0:
        raise ValueError("no games")
    p = wins / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - half) / scale, (centre + half) / scale


class Timed:
    """A picker that records how long each real decision took."""

    def __init__(self, inner: Picker) -> None:
        self.inner = inner
        self.times: list[float] = []

    def __call__(self, plays: Sequence[Play], side: Side) -> int:
        if len(plays) == 1:
            return 0
        start = time.perf_counter()
        choice = self.inner(plays, side)
        self.times.append(time.perf_counter() - start)
        return choice


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    points: int = 0
    a_marses: int = 0
    b_marses: int = 0


def run(rules: str, a: str, b: str, games: int, seed: int,
        progress: bool = False) -> tuple[Tally, Timed, Timed]:
    rng = random.Random(seed)
    timed_a = Timed(picker(rules, a, random.Random(seed + 1)))
    timed_b = Timed(picker(rules, b, random.Random(seed + 2)))
    tally = Tally()
    for g in range(games):
        a_side = g % 2
        white, black = (timed_a, timed_b) if a_side == 0 else (timed_b, timed_a)
        outcome = play_game(rules, white, black, rng).outcome
        tally.games += 1
        if outcome.winner == a_side:
            tally.wins += 1
            tally.points += outcome.points
            tally.a_marses += outcome.points > 1
        else:
            tally.points -= outcome.points
            tally.b_marses += outcome.points > 1
        if progress and (g + 1) % 10 == 0:
            print(f"  {g + 1} games: {a} won {tally.wins}", flush=True)
    return tally, timed_a, timed_b


def _ms(times: list[float]) -> str:
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"{1000 * sum(times) / len(times):.1f} ms mean, {1000 * p95:.1f} ms p95, "
            f"{1000 * ordered[-1]:.0f} ms max over {len(times)} decisions")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m computer.strength",
                                     description="Play two levels against each other.")
    parser.add_argument("--rules", default="long_nardy")
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="heuristic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    tally, timed_a, timed_b = run(args.rules, args.a, args.b, args.games, args.seed,
                                  args.progress)
    low, high = wilson(tally.wins, tally.games)
    print(f"{args.rules}: {args.a} vs {args.b}, {tally.games} games, seed {args.seed}")
    print(f"{args.a} won {tally.wins}/{tally.games} = {100 * tally.wins / tally.games:.1f} % "
          f"(95 % Wilson interval {100 * low:.1f}-{100 * high:.1f} %), "
          f"{tally.points / tally.games:+.3f} points per game")
    print(f"marses: {tally.a_marses} of {args.a}'s {tally.wins} wins, "
          f"{tally.b_marses} of {args.b}'s {tally.games - tally.wins}")
    print(f"time per move: {args.a} {_ms(timed_a.times)}; {args.b} {_ms(timed_b.times)}")
    print(f"elapsed {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
