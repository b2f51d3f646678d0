"""What committed dice add to a roll (the target: at most +0.2 ms).

    python -m bench.dice [--rolls 20000] [--blocks 7]

A roll's path is the same as before except where its dice come from: before, two
``secrets.randbelow(6) + 1``; now :func:`games.dice.turn_dice` (the game's seed from
hex, one HMAC-SHA-256, rejection sampling) and, once per game, :func:`games.dice.commit`
(32 random bytes and a SHA-256). This prints the time of each per roll (the lowest of
``--blocks`` blocks, which keeps other load on the machine out) and the difference.
No database: the game is an unsaved row.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT_MS = 0.2


def best_per_call(run: Callable[[], object], calls: int, blocks: int) -> float:
    """Seconds per call: the lowest block's mean."""
    best = float("inf")
    for _ in range(blocks):
        start = time.perf_counter()
        for _ in range(calls):
            run()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=20_000)
    parser.add_argument("--blocks", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
    import django

    django.setup()
    # the settings are chosen above and the apps set up first: Django's modules load only then
    from games import dice
    from games.models import Game, Match
    from nardy import DEFAULT_RULES

    match = Match(pk=4242, rules=DEFAULT_RULES, length=1)
    game = Game(match=match, number=1, turns=0)
    dice.commit(game)

    def before() -> tuple[int, int]:
        return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1

    def after() -> tuple[int, int]:
        game.turns += 1
        return dice.turn_dice(game)

    def commit() -> None:
        dice.commit(Game(match=match, number=2))

    old = best_per_call(before, args.rolls, args.blocks)
    new = best_per_call(after, args.rolls, args.blocks)
    per_game = best_per_call(commit, args.rolls // 4, args.blocks)
    added_ms = (new - old) * 1000
    print(f"dice of a roll before (secrets):          {old * 1e6:8.2f} µs")
    print(f"dice of a roll now (HMAC from the seed):  {new * 1e6:8.2f} µs")
    print(f"added per roll:                           {added_ms * 1000:8.2f} µs "
          f"({added_ms:.4f} ms; limit {LIMIT_MS} ms: {'ok' if added_ms <= LIMIT_MS else 'OVER'})")
    print(f"a game's commitment (once per game):      {per_game * 1e6:8.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
