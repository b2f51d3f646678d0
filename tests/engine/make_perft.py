"""Write tests/engine/data/perft.json: positions x 21 rolls -> distinct legal results.

    python -m tests.engine.make_perft [--check-all]

Positions come from seeded random games (every few turns, with the side to move and
its first-turn flag) plus a few boards with the mover's checkers spread wide. Every
count is computed by the engine AND by the brute-force reference
(tests/engine/bruteforce.py); the file is written only if they all agree.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from nardy import BLACK, WHITE, Position, legal_plays, side_name
from nardy.bench import random_game

from .bruteforce import reference_for_roll

DATA = Path(__file__).with_name("data") / "perft.json"
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
SEED = 20240601


def game_positions(rng: random.Random, games: int, every: int,
                   ) -> list[tuple[Position, int, bool]]:
    found: list[tuple[Position, int, bool]] = []
    for _ in range(games):
        side = rng.choice((WHITE, BLACK))
        offset = rng.randrange(every)
        found += [(position, mover, first)
                  for turn, position, mover, first in random_game(rng, side)
                  if turn < 2 or turn % every == offset]
    return found


def spread_positions(rng: random.Random, count: int) -> list[tuple[Position, int, bool]]:
    """The mover's 15 checkers on 8-12 points, the opponent's on 2-5 points."""
    found: list[tuple[Position, int, bool]] = []
    while len(found) < count:
        side = rng.choice((WHITE, BLACK))
        points = rng.sample(range(1, 25), rng.randint(8, 12))
        mine = dict.fromkeys(points, 1)
        for _ in range(15 - len(points)):
            mine[rng.choice(points)] += 1
        free = [p for p in range(1, 25) if p not in mine]
        theirs = rng.sample(free, rng.randint(2, 5))
        counts = dict(mine)
        for i, p in enumerate(theirs):
            counts[p] = -(15 - 3 * (len(theirs) - 1) if i == 0 else 3)
        found.append((Position.from_perspective(side, counts, 0, 0), side, False))
    return found


def build(games: int, every: int, spread: int, check_all: bool) -> dict[str, Any]:
    rng = random.Random(SEED)
    positions = [(*p, "game") for p in game_positions(rng, games, every)]
    positions += [(*p, "spread") for p in spread_positions(rng, spread)]
    entries = []
    started = time.perf_counter()
    for n, (position, side, first, source) in enumerate(positions):
        counts = []
        for dice in ROLLS:
            count = len(legal_plays(position, side, dice, first))
            expensive = dice[0] == dice[1] and len(position.in_perspective(side)) > 12
            if check_all or not expensive:
                reference = reference_for_roll(position, side, dice, first)
                if len(reference.results) != count:
                    raise SystemExit(f"MISMATCH {position.to_id()} {side_name(side)} {dice} "
                                     f"first={first}: engine {count}, brute force "
                                     f"{len(reference.results)}")
            counts.append(count)
        entries.append({"id": position.to_id(), "side": side_name(side),
                        "first_turn": first, "source": source, "counts": counts})
        if n % 50 == 0:
            print(f"{n}/{len(positions)} {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return {
        "about": "Long Nardy perft: for each position (ID per docs/notation.md, side to move, "
                 "first_turn), the number of distinct legal resulting positions for each roll "
                 "in 'rolls' order; source: 'game' (seeded random games) or 'spread' (the "
                 "mover's 15 checkers on 8-12 points). Written by python -m "
                 "tests.engine.make_perft, checked against tests/engine/bruteforce.py.",
        "rolls": [f"{a}-{b}" for a, b in ROLLS],
        "positions": entries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=14)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--spread", type=int, default=20)
    parser.add_argument("--check-all", action="store_true",
                        help="brute-force every roll, even doubles on wide boards (slow)")
    args = parser.parse_args()
    data = build(args.games, args.every, args.spread, args.check_all)
    DATA.parent.mkdir(exist_ok=True)
    with DATA.open("w") as f:
        f.write("{\n")
        f.write(f'  "about": {json.dumps(data["about"])},\n')
        f.write(f'  "rolls": {json.dumps(data["rolls"])},\n')
        f.write('  "positions": [\n')
        lines = [json.dumps(e) for e in data["positions"]]
        f.write(",\n".join(f"    {line}" for line in lines))
        f.write("\n  ]\n}\n")
    print(f"wrote {len(data['positions'])} positions to {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
