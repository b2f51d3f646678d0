"""Write tests/engine/data/perft_<rules>.json for each hitting game: positions x 21
rolls -> the number of distinct legal results.

    python -m tests.engine.hitting.make_perft [--check-all]

Positions come from seeded random games of each rule set (every few turns, either
side to move), so they include checkers on the bar and bearing off; the file says
how many of each. Every count is computed by the engine AND by the brute-force
reference (tests/engine/hitting/bruteforce.py), except wide doubles unless
``--check-all``; a file is written only if they all agree.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from nardy import BLACK, RULESETS, WHITE, HitPosition, side_name

from .bruteforce import reference_for_roll

DATA = Path(__file__).resolve().parents[1] / "data"
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
SEED = 20261201
RULES = ("short_nardy", "backgammon", "nard")


def path_for(rules: str) -> Path:
    return DATA / f"perft_{rules}.json"


def game_positions(rules: str, rng: random.Random, games: int, every: int,
                   ) -> list[tuple[HitPosition, int]]:
    ruleset = RULESETS[rules]
    found: list[tuple[HitPosition, int]] = []
    for _ in range(games):
        position = ruleset.initial()
        assert isinstance(position, HitPosition)
        side = rng.choice((WHITE, BLACK))
        offset = rng.randrange(every)
        turn = 0
        while ruleset.outcome(position) is None:
            if turn % every == offset:
                found.append((position, side))
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            chosen = rng.choice(ruleset.legal_plays(position, side, dice, False)).position
            assert isinstance(chosen, HitPosition)
            position = chosen
            side = 1 - side
            turn += 1
    return found


def build(rules: str, games: int, every: int, check_all: bool) -> dict[str, Any]:
    rng = random.Random(f"{SEED} {rules}")
    ruleset = RULESETS[rules]
    entries = []
    for position, side in game_positions(rules, rng, games, every):
        counts = []
        for dice in ROLLS:
            count = len(ruleset.legal_plays(position, side, dice, False))
            if check_all or dice[0] != dice[1] or count <= 150:
                reference = reference_for_roll(position, side, dice)
                if len(reference.results) != count:
                    raise SystemExit(f"MISMATCH {position.to_id()} {side_name(side)} {dice}: "
                                     f"engine {count}, brute force {len(reference.results)}")
            counts.append(count)
        kind = ("bar" if position.bar_of(side) else
                "bear_off" if rules != "nard" and position.all_home(side) else "board")
        entries.append({"id": position.to_id(), "side": side_name(side), "kind": kind,
                        "counts": counts})
    return {
        "about": f"{rules} perft: for each position (ID per docs/notation.md, side to move), "
                 "the number of distinct legal resulting positions (board, bar and off) for "
                 "each roll in 'rolls' order; kind: 'bar' (the mover has a checker on the "
                 "bar), 'bear_off' (all the mover's checkers home) or 'board'. Positions "
                 "from seeded random games. Written by python -m "
                 "tests.engine.hitting.make_perft, checked against "
                 "tests/engine/hitting/bruteforce.py.",
        "rolls": [f"{a}-{b}" for a, b in ROLLS],
        "positions": entries,
    }


def write(path: Path, data: dict[str, Any]) -> None:
    with path.open("w") as f:
        f.write("{\n")
        f.write(f'  "about": {json.dumps(data["about"])},\n')
        f.write(f'  "rolls": {json.dumps(data["rolls"])},\n')
        f.write('  "positions": [\n')
        f.write(",\n".join(f"    {json.dumps(e)}" for e in data["positions"]))
        f.write("\n  ]\n}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--check-all", action="store_true")
    parser.add_argument("rules", nargs="*", default=list(RULES))
    args = parser.parse_args()
    for rules in args.rules:
        every = args.every * 2 if rules == "nard" else args.every
        data = build(rules, args.games, every, args.check_all)
        write(path_for(rules), data)
        kinds = [e["kind"] for e in data["positions"]]
        print(f"{rules}: wrote {len(kinds)} positions ({kinds.count('bar')} bar, "
              f"{kinds.count('bear_off')} bear_off) to {path_for(rules)}", file=sys.stderr)


if __name__ == "__main__":
    main()
