"""How long the computer's levels take to decide, on positions from real play.

    python -m bench.computer --rules long_nardy --positions 300 --seed 1

The positions are every decision (more than one legal play) of seeded games of the
``heuristic`` level against itself — closer to what a level meets than random games.
Each level decides each position once, as the server plays it (backgammon's learned
levels and ``world-class`` through the field engine where it is installed, short
nardy's with the positions valued by it, ``computer.levels.field_valued``; ``--weights``
times the own network instead), in a process of its own making (one warm-up
decision first: the weights loaded, the caches built); the figures are the CPU time of
the process per decision (``time.process_time``: what the machine's other work cannot
inflate) and the wall time beside it, as mean, median, p95 (nearest rank) and max.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

from computer.board import ruleset
from computer.lab import arena
from computer.levels import (
    LEARNED,
    LEVELS,
    OWN_NETWORK,
    Chooser,
    Picker,
    chooser,
    engine_of,
    field_valued,
    levels_for,
    picker,
    through_field,
)
from computer.network import Net
from nardy import DEFAULT_RULES, BoardPlay, BoardPosition, Side

FULL = f"expert{arena.FULL}"


Decision = tuple[BoardPosition, Sequence[BoardPlay], Side]


def decisions(rules: str, count: int, seed: int) -> list[tuple[Sequence[BoardPlay], Side]]:
    """The first ``count`` decisions with a choice in seeded heuristic self-play games."""
    return [(plays, side) for _, plays, side in positioned(rules, count, seed)]


def positioned(rules: str, count: int, seed: int) -> list[Decision]:
    """:func:`decisions` with the position each starts from (which the field engine
    reads): the position, its legal plays, the side to play."""
    rs = ruleset(rules)
    rng = random.Random(seed)
    choose = picker(rules, "heuristic")
    found: list[Decision] = []
    while len(found) < count:
        position, side, first = rs.initial(), rng.randrange(2), [True, True]
        while rs.outcome(position) is None and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = rs.legal_plays(position, side, dice, first[side])
            first[side] = False
            if len(plays) > 1:
                found.append((position, plays, side))
            position = plays[choose(plays, side)].position
            side = 1 - side
    return found


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"mean {1000 * sum(values) / len(values):7.1f}  median "
            f"{1000 * ordered[len(ordered) // 2]:7.1f}  p95 {1000 * p95:7.1f}  "
            f"max {1000 * ordered[-1]:7.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.computer", description=__doc__)
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=None,
                        help="comma-separated, of: " + ", ".join(LEVELS) + " and "
                             f"{FULL} (the expert's 2-ply in full where it is reduced); "
                             "default: the learned levels the rule set has")
    parser.add_argument("--weights", type=Path, default=None,
                        help="the learned levels' network (default the committed one; "
                             "played with the committed race network, as the arena does)")
    args = parser.parse_args(argv)
    net = Net.load(args.weights, args.rules) if args.weights is not None else None
    known = levels_for(args.rules)
    wanted = ([name for name in args.levels.split(",") if name] if args.levels is not None
              else [name for name in LEVELS if name in LEARNED and name in known])
    if "expert" in known:
        known[FULL] = "the expert's full 2-ply"
    missing = [name for name in wanted if name not in known]
    if missing:
        parser.error(f"{args.rules} has no level {', '.join(missing)}; it has {', '.join(known)}")
    sample = positioned(args.rules, args.positions, args.seed)
    plays_each = sum(len(plays) for _, plays, _ in sample) / len(sample)
    print(f"{args.rules}: {len(sample)} decisions from heuristic self-play (seed {args.seed}), "
          f"{plays_each:.1f} legal plays each on average")
    for name in wanted:
        level = "expert" if name == FULL else name
        learned = net is not None and level in LEARNED
        own = learned or name == FULL or not through_field(args.rules, level)
        # Short nardy's levels search with the own search, the field engine valuing the
        # positions (both the expert and its full 2-ply) unless a network is given.
        valued = net is None and field_valued(args.rules, level)
        engine = (OWN_NETWORK if (learned or name == FULL) and not valued
                  else engine_of(args.rules, level))
        choose: Chooser
        if own:
            pick = picker(args.rules, level, net=net if learned else None,
                          race=True if learned else None,
                          reduced=False if name == FULL else None, field=valued)

            def choose(position: BoardPosition, plays: Sequence[BoardPlay], side: Side,
                       pick: Picker = pick) -> int:
                return pick(plays, side)
        else:
            choose = chooser(args.rules, level)
        choose(*sample[0])  # warm-up: the weights loaded, the caches built
        cpu: list[float] = []
        wall: list[float] = []
        for position, plays, side in sample:
            c0, w0 = time.process_time(), time.perf_counter()
            choose(position, plays, side)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        print(f"  {name:11} CPU  {_figures(cpu)}  ({engine})")
        print(f"  {'':11} wall {_figures(wall)}")


if __name__ == "__main__":
    main()
