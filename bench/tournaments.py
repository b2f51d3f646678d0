"""``python -m bench.tournaments``: the pairings' speed (a measurement that prints, not
a test): a 1,000-player Swiss played round by round (each round's pairing time, the
rematches and the largest colour imbalance), and an arena's re-pairing of its waiting
players (100 of 1,000, and the usual handful), each the median of repeated runs.

Pure Python over :mod:`tournaments.pairing` (networkx's matching); no database: the
services add one read of the entrants and pairings per round (indexed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.pairing import ArenaPlayer, SwissPlayer, arena_pairs, swiss_round


def swiss(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    field = [SwissPlayer(i, 0.0, rng.gauss(1500, 250)) for i in range(players)]
    strength = {p.id: p.rating for p in field}
    print(f"Swiss, {players} players, {rounds} rounds")
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        made = swiss_round(field, number)
        took = time.perf_counter() - started
        by_id = {p.id: p for p in field}
        rematches = sum(1 for w, b in made.pairs if b in by_id[w].opponents)
        new = {}
        if made.bye is not None:
            p = by_id[made.bye]
            new[p.id] = SwissPlayer(p.id, p.score + 1, p.rating, p.colour, p.last_colour,
                                    p.byes + 1, p.opponents)
        for w, b in made.pairs:
            expected = 1 / (1 + 10 ** ((strength[b] - strength[w]) / 400))
            white_wins = rng.random() < expected
            for me, other, colour in ((w, b, 1), (b, w, -1)):
                p = by_id[me]
                won = white_wins == (colour == 1)
                new[me] = SwissPlayer(me, p.score + won, p.rating, p.colour + colour, colour,
                                      p.byes, p.opponents | {other})
        field = [new[p.id] for p in field]
        worst = max(abs(p.colour) for p in field)
        print(f"  round {number:2d}: {took * 1000:7.1f} ms, {len(made.pairs)} pairs, "
              f"{rematches} rematches, colour imbalance ≤ {worst}")


def arena(players: int, waiting: int, repeats: int, seed: int) -> None:
    rng = random.Random(seed)
    times = []
    for _ in range(repeats):
        field = [ArenaPlayer(i, float(rng.randint(0, 40)), rng.gauss(1500, 250),
                             tuple(rng.sample(range(players), 3))) for i in range(players)]
        chosen = rng.sample(field, waiting)
        started = time.perf_counter()
        arena_pairs(chosen)
        times.append(time.perf_counter() - started)
    median = statistics.median(times) * 1000
    print(f"Arena, {players} players, {waiting} waiting: median {median:.1f} ms, "
          f"worst {max(times) * 1000:.1f} ms ({repeats} runs)")


def streams(count: int, seconds: float) -> None:
    """``count`` streams of one tournament in one event loop (the ASGI server's), the
    cache local (LocMemCache; Redis in production adds a round trip per poll), the log's
    read counted instead of run; the CPU time of the process per second, and the reads."""
    import asyncio
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")  # the local cache
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    # After django.setup(): these import the app's models.
    from django.core.cache import cache

    from tournaments import selectors, stream
    from tournaments.services import seq_key

    reads = [0]

    def event_list(tournament_id: int, after: int, limit: int = 200) -> list[dict[str, object]]:
        reads[0] += 1
        return []

    selectors.event_list = event_list  # type: ignore[assignment]
    cache.set(seq_key(1), 5, None)

    async def run() -> None:
        async def follow() -> None:
            async for _chunk in stream.tournament_stream(1, 5):
                pass

        tasks = [asyncio.create_task(follow()) for _ in range(count)]
        await asyncio.sleep(2)
        reads[0] = 0
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        cache.set(seq_key(1), 6, None)  # one event: every stream reads once
        await asyncio.sleep(2)
        used, took = time.process_time() - cpu, time.perf_counter() - wall
        print(f"Tournament streams: {count} open for {took:.0f} s, one event: "
              f"{used / took * 100:.0f}% of a core, {reads[0]} log reads")
        for task in tasks:
            task.cancel()

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    swiss(args.players, args.rounds, args.seed)
    for waiting in (2, 10, 100):
        arena(args.players, waiting, 20, args.seed)
    streams(args.streams, args.seconds)


if __name__ == "__main__":
    main()
