"""``python -m bench.ratings``: how well the ratings order players, and the leaderboard's
speed (a measurement that prints, not a test).

1. A simulation: 200 synthetic players of known strength (normal, σ 300 points) play
   20,000 matches of mixed lengths (1, 3, 5, 7), each won with the probability the true
   strengths give (a length-``L`` match scales the difference by √L, as the site's model
   says). Opponents are drawn near in rating order, as pairing would. Printed: the
   Spearman rank correlation of the ratings with the true strengths after N matches,
   for the site's Glicko-2 (:mod:`ratings.glicko`) and for plain Elo (K 24, length-blind).
2. ``--leaderboard`` (PostgreSQL, ``DATABASE_URL``): 100,000 generated rated players in
   ``ratings_rating`` of a scratch database, then the leaderboard query's time (median
   of 50), with ``EXPLAIN`` naming the index.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from ratings import glicko

PLAYERS, MATCHES = 200, 20_000
CHECKPOINTS = (1_000, 2_000, 5_000, 10_000, 20_000)


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        for rank, index in enumerate(order):
            out[index] = float(rank)
        return out
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mean = (n - 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry, strict=True))
    var = sum((a - mean) ** 2 for a in rx)
    return cov / var


def simulate(seed: int) -> None:
    rng = random.Random(seed)
    truth = [rng.gauss(1500, 300) for _ in range(PLAYERS)]
    glicko_r = [glicko.Rating() for _ in range(PLAYERS)]
    elo = [1500.0] * PLAYERS
    print(f"{PLAYERS} players, {MATCHES:,} matches of 1/3/5/7 points (seed {seed})")
    print(f"{'matches':>8}  {'Glicko-2 √L':>12}  {'plain Elo':>10}")
    for n in range(1, MATCHES + 1):
        a = rng.randrange(PLAYERS)
        order = sorted(range(PLAYERS), key=lambda i: glicko_r[i].rating)
        pos = order.index(a)
        b = order[min(max(pos + rng.randint(-20, 20), 0), PLAYERS - 1)]
        if b == a:
            b = (a + 1) % PLAYERS
        length = rng.choice((1, 3, 5, 7))
        p = 1 / (1 + 10 ** (-math.sqrt(length) * (truth[a] - truth[b]) / 400))
        score = 1.0 if rng.random() < p else 0.0
        ga, gb = glicko_r[a], glicko_r[b]
        glicko_r[a] = glicko.update(ga, [(gb, score)], length=length, floor=True)
        glicko_r[b] = glicko.update(gb, [(ga, 1 - score)], length=length, floor=True)
        e = 1 / (1 + 10 ** (-(elo[a] - elo[b]) / 400))
        elo[a] += 24 * (score - e)
        elo[b] -= 24 * (score - e)
        if n in CHECKPOINTS:
            print(f"{n:>8,}  {spearman([r.rating for r in glicko_r], truth):>12.3f}  "
                  f"{spearman(elo, truth):>10.3f}")


def leaderboard(players: int) -> None:
    import os

    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
    django.setup()
    # the settings are chosen above and the apps set up first: Django's modules load only then
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from nardy import DEFAULT_RULES, RULESETS
    from ratings import selectors

    if connection.vendor != "postgresql":
        raise SystemExit("--leaderboard needs DATABASE_URL=postgres://…")
    old = setup_databases(verbosity=0, interactive=False)
    try:
        with connection.cursor() as cur:
            cur.execute("INSERT INTO accounts_user (password, is_superuser, username, "
                        "first_name, last_name, email, is_staff, is_active, date_joined, "
                        "display_name, is_bot, username_key) SELECT '', false, 'p' || i, '', "
                        "'', '', false, true, now(), '', false, 'p' || i "
                        "FROM generate_series(1, %s) i", [players])
            cur.execute("INSERT INTO ratings_rating (user_id, rules, rating, deviation, "
                        "volatility, matches, last_played_at) SELECT id, "
                        "(%s::text[])[1 + mod(id, %s)], "
                        "1500 + 300 * (random() + random() + random() - 1.5), "
                        "45 + random() * 200, 0.06, 20, now() - random() * interval '200 days' "
                        "FROM accounts_user", [list(RULESETS), len(RULESETS)])
            cur.execute("ANALYZE ratings_rating")
            sql, params = selectors.leaderboard_sql(DEFAULT_RULES)
            cur.execute("EXPLAIN " + sql, params)
            plan = "\n".join(r[0] for r in cur.fetchall())
        times = []
        for _ in range(50):
            start = time.perf_counter()
            body = selectors.leaderboard(DEFAULT_RULES)
            times.append((time.perf_counter() - start) * 1000)
        print(f"leaderboard over {players:,} rated players (4 rule sets): "
              f"{len(body['players'])} rows, median {statistics.median(times):.2f} ms, "
              f"max {max(times):.2f} ms (50 runs, selector and ORM included)")
        print(plan)
    finally:
        teardown_databases(old, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--leaderboard", action="store_true")
    parser.add_argument("--players", type=int, default=100_000)
    args = parser.parse_args()
    if args.leaderboard:
        leaderboard(args.players)
    else:
        simulate(args.seed)


if __name__ == "__main__":
    main()
