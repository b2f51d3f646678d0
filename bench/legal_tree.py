"""How big and how slow ``state.legal_tree`` is: over random games of
each rule set, the worst time to build a turn's tree and its size as JSON. Prints; asserts
nothing (figures belong here, not in tests).

    DEBUG=1 .venv/bin/python -m bench.legal_tree [--turns 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
    import django

    django.setup()
    # the settings are chosen above and the apps set up first: Django's modules load only then
    import nardy
    from games.selectors import legal_tree

    for d in nardy.descriptors():
        rules = nardy.ruleset(d.name)
        rng = random.Random(args.seed)
        position, side = rules.initial(), nardy.WHITE
        worst = size = stops = 0.0
        for number in range(args.turns):
            dice = ((rng.randint(1, 6),) * 2 if number % 5 == 0
                    else (rng.randint(1, 6), rng.randint(1, 6)))
            first = number < 2
            turn = rules.start_turn(position, side, dice, first)
            began = time.perf_counter()
            tree = legal_tree(turn)
            worst = max(worst, time.perf_counter() - began)
            size, stops = max(size, len(json.dumps(tree))), max(stops, len(tree))
            plays = rules.legal_plays(position, side, dice, first)
            if plays and plays[0].steps:
                position = plays[rng.randrange(len(plays))].position
            if rules.outcome(position):
                break
            side = nardy.other(side)
        print(f"{d.name:12} worst {worst * 1000:6.1f} ms  largest {size / 1000:5.1f} kB"
              f"  most stops {int(stops)}")


if __name__ == "__main__":
    main()
