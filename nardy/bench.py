"""Engine speed benchmark: ``python -m nardy.bench`` (see docs/benchmarks.md).

Prints three figures, all single-process and seeded:

1. random self-play games per second: every roll lists all distinct legal plays with
   :func:`legal_plays` and one is picked at random, until a side has borne off 15;
2. legal-plays queries per second over a fixed corpus (positions from seeded games
   times all 21 rolls);
3. the worst single query time over a stress set (15 checkers spread over many
   points, every double and some non-doubles); each query is timed ``--repeat`` times
   and its best time kept, so the figure is the query's cost, not a scheduler hiccup.

Then, for each hitting game (``short_nardy``, ``backgammon``, ``nard``, through
``RULESETS``), the same self-play figure and the worst query over its own stress set
(the mover spread wide against many blots, sometimes with checkers on the bar), and
its self-play speed as a share of Long Nardy's in the same run, by wall-clock time and
by this process's CPU time (steadier when the machine is shared).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterable, Iterator

from .board import BoardPosition
from .hitting import HITTING_RULESETS, HitPosition, HittingGame
from .longnardy import LONG_NARDY_RULES, legal_plays
from .position import Position
from .ruleset import RuleSet
from .types import BLACK, WHITE, Side

ROLLS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(1, 7) for b in range(1, a + 1))


def play_game(rng: random.Random, max_turns: int = 10_000,
              rules: RuleSet = LONG_NARDY_RULES) -> tuple[int, int]:
    """One random game of ``rules``; returns (turns, legal_plays calls' total plays
    listed). Each side's first turn is the game's first or second (R12)."""
    position = rules.initial()
    side: Side = WHITE if rng.random() < 0.5 else BLACK
    listed = 0
    for turn in range(1, max_turns + 1):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = rules.legal_plays(position, side, dice, turn <= 2)
        listed += len(plays)
        position = plays[rng.randrange(len(plays))].position
        if rules.outcome(position) is not None:
            return turn, listed
        side = 1 - side
    raise RuntimeError("game did not finish")  # pragma: no cover


def random_game(rng: random.Random, side: Side = WHITE,
                ) -> Iterator[tuple[int, Position, Side, bool]]:
    """One random game, seen before each roll: (turn number, position, side to move,
    that side's first turn). Each roll and play is drawn from ``rng``."""
    position = Position.initial()
    first = [True, True]
    turn = 0
    while position.outcome() is None:
        yield turn, position, side, first[side]
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, side, dice, first[side])
        first[side] = False
        position = rng.choice(plays).position
        side = 1 - side
        turn += 1


def corpus(seed: int, games: int = 20, every: int = 4) -> list[tuple[Position, Side, bool]]:
    """Positions (with side to move and first-turn flag) from seeded random games."""
    rng = random.Random(seed)
    found: list[tuple[Position, Side, bool]] = []
    for _ in range(games):
        found += [(position, side, first)
                  for turn, position, side, first in random_game(rng) if turn % every == 0]
    return found


def stress_positions(seed: int, count: int = 40) -> Iterator[tuple[Position, Side]]:
    """Boards where the mover's 15 checkers are spread over 11-15 points."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        spread = rng.randint(11, 15)
        points = rng.sample(range(1, 25), spread)
        mine = dict.fromkeys(points, 1)
        for _ in range(15 - spread):
            mine[rng.choice(points)] += 1
        free = [p for p in range(1, 25) if p not in mine]
        theirs = rng.sample(free, rng.randint(1, min(6, len(free))))
        counts: dict[int, int] = dict(mine)
        left = 15
        for i, p in enumerate(theirs):
            n = left if i == len(theirs) - 1 else rng.randint(1, left - (len(theirs) - i - 1))
            counts[p] = -n
            left -= n
        yield Position.from_perspective(WHITE, counts, 0, 0), WHITE
        made += 1


def bench_games(seed: int, games: int, rules: RuleSet = LONG_NARDY_RULES,
                ) -> tuple[float, int, int]:
    rng = random.Random(seed)
    turns = listed = 0
    start = time.perf_counter()
    for _ in range(games):
        t, n = play_game(rng, rules=rules)
        turns += t
        listed += n
    return time.perf_counter() - start, turns, listed


def bench_corpus(seed: int) -> tuple[float, int]:
    queries = [(p, s, f, r) for p, s, f in corpus(seed) for r in ROLLS]
    start = time.perf_counter()
    for p, s, f, r in queries:
        legal_plays(p, s, r, f)
    return time.perf_counter() - start, len(queries)


def bench_worst(seed: int, repeat: int, rules: RuleSet = LONG_NARDY_RULES,
                ) -> tuple[float, str, int]:
    """The worst best-of-``repeat`` query time over the stress set of ``rules``."""
    worst = 0.0
    worst_case = ""
    queries = 0
    rolls = [(d, d) for d in range(1, 7)] + [(6, 5), (2, 1), (4, 3)]
    stress: Iterable[tuple[BoardPosition, Side]] = (
        ((p, WHITE) for p in hitting_stress_positions(rules, seed))
        if isinstance(rules, HittingGame) else stress_positions(seed))
    for position, side in stress:
        for dice in rolls:
            best = float("inf")
            for _ in range(repeat):
                start = time.perf_counter()
                plays = rules.legal_plays(position, side, dice, False)
                best = min(best, time.perf_counter() - start)
            queries += 1
            if best > worst:
                worst = best
                worst_case = f"{position.to_id()} {dice[0]}-{dice[1]}: {len(plays)} plays"
    return worst, worst_case, queries


def hitting_stress_positions(rules: HittingGame, seed: int, count: int = 40,
                             ) -> Iterator[HitPosition]:
    """White (to move) spread over 10-15 points, sometimes with 1-2 on the bar; Black
    as blots on up to 9 other points and the rest on one or two points."""
    rng = random.Random(seed)
    cap = rules.descriptor.cap or 15
    made = 0
    while made < count:
        on_bar = rng.choice((0, 0, 1, 2))
        spread = rng.randint(10, 15 - on_bar)
        points = rng.sample(range(1, 25), spread)
        mine = dict.fromkeys(points, 1)
        for _ in range(15 - on_bar - spread):
            p = rng.choice(points)
            if mine[p] < cap:
                mine[p] += 1
        placed = sum(mine.values()) + on_bar
        free = [p for p in range(1, 25) if p not in mine]
        rng.shuffle(free)
        blots = free[:rng.randint(3, min(9, len(free) - 2))]
        counts: dict[int, int] = dict(mine)
        for p in blots:
            counts[p] = -1
        rest = 15 - len(blots)
        stacks = free[len(blots):len(blots) + 3]
        for i, p in enumerate(stacks):
            n = min(cap, rest if i == len(stacks) - 1 else rest // 2)
            counts[p] = -n
            rest -= n
        if rest or placed != 15:
            continue
        try:
            yield rules.position_from_perspective(WHITE, counts, 0, 0, on_bar, 0)
        except ValueError:
            continue
        made += 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    cpu = time.process_time()
    elapsed, turns, listed = bench_games(args.seed, args.games)
    long_cpu_rate = args.games / (time.process_time() - cpu)
    print(f"self-play: {args.games} games, {turns} turns in {elapsed:.2f} s: "
          f"{args.games / elapsed:.1f} games/s, {turns / elapsed:.0f} turns/s, "
          f"{listed / turns:.1f} plays per turn")
    long_rate = args.games / elapsed
    elapsed, n = bench_corpus(args.seed)
    print(f"corpus: {n} legal_plays queries in {elapsed:.2f} s: {n / elapsed:.0f} queries/s, "
          f"{elapsed / n * 1e6:.0f} us each")
    worst, case, n = bench_worst(args.seed, args.repeat)
    print(f"stress: {n} queries, worst {worst * 1e3:.2f} ms ({case})")
    for rules in HITTING_RULESETS:
        cpu = time.process_time()
        elapsed, turns, listed = bench_games(args.seed, args.games, rules)
        cpu_rate = args.games / (time.process_time() - cpu)
        rate = args.games / elapsed
        print(f"{rules.name} self-play: {args.games} games, {turns} turns in {elapsed:.2f} s: "
              f"{rate:.1f} games/s ({rate / long_rate:.0%} of long_nardy; by CPU time "
              f"{cpu_rate / long_cpu_rate:.0%}), {turns / elapsed:.0f} turns/s, "
              f"{listed / turns:.1f} plays per turn")
        worst, case, n = bench_worst(args.seed, args.repeat, rules)
        print(f"{rules.name} stress: {n} queries, worst {worst * 1e3:.2f} ms ({case})")


if __name__ == "__main__":
    main()
