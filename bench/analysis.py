"""How long the game review (computer/review.py) takes per game.

    python -m bench.analysis --games 2 --depths 0 1 2 --rules long_nardy backgammon

The games are seeded games of the ``heuristic`` level against itself (closer to real
play than random moves). Each game is reviewed whole at each depth in this process, one
core (one BLAS thread, as ``computer`` sets); the figures are CPU seconds
(``time.process_time``: what the machine's other work cannot inflate) per game and per
turn, with the wall time beside them. The target: a 100-turn Long Nardy game in
at most 30 s at 1-ply and 5 min at 2-ply.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from computer.board import ruleset
from computer.levels import Picker, picker
from computer.review import TurnInput, review_game
from nardy import RULESETS

RULES = tuple(RULESETS)


def heuristic_game(rules: str, seed: int) -> list[TurnInput]:
    return level_game(rules, seed, ("heuristic", "heuristic"))


def level_game(rules: str, seed: int, levels: tuple[str, str],
               make: Callable[[str, str, random.Random], Picker] = picker,
               ) -> list[TurnInput]:
    """A seeded game of ``levels[0]`` (White) against ``levels[1]`` (Black), White first,
    the dice from ``seed``: its turns as the review reads them. ``make(rules, level,
    rng)`` makes a level's chooser (default :func:`computer.levels.picker`: the committed
    networks)."""
    rs = ruleset(rules)
    rng = random.Random(seed)
    choosers = [make(rules, level, random.Random(seed * 2 + i))
                for i, level in enumerate(levels)]
    position, side, first, turns = rs.initial(), 0, [True, True], []
    while rs.outcome(position) is None and len(turns) < 1000:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = rs.legal_plays(position, side, dice, first[side])
        play = plays[choosers[side](plays, side)]
        turns.append(TurnInput(position, side, dice, first[side], play.steps))
        first[side] = False
        position, side = play.position, 1 - side
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    parser.add_argument("--depths", nargs="+", type=int, default=[0, 1], choices=[0, 1, 2])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'rules':12} {'depth':>5} {'turns/game':>10} {'cpu s/game':>10} "
          f"{'cpu ms/turn':>11} {'wall s/game':>11}")
    for rules in args.rules:
        games = [heuristic_game(rules, args.seed + i) for i in range(args.games)]
        review_game(rules, games[0][:2], 0)  # warm-up: the weights loaded
        turns = sum(len(g) for g in games)
        for depth in args.depths:
            cpu, wall = time.process_time(), time.perf_counter()
            for game in games:
                review_game(rules, game, depth)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"{rules:12} {depth:>5} {turns / len(games):>10.1f} "
                  f"{cpu / len(games):>10.2f} {1000 * cpu / turns:>11.1f} "
                  f"{wall / len(games):>11.2f}", flush=True)


if __name__ == "__main__":
    main()
