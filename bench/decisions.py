"""A fingerprint of the computer's decisions: a hash per rule set and level.

    python -m bench.decisions --count 100 --seed 1

The positions are the first ``count`` decisions with a choice in seeded ``random``
self-play games of each rule set (the same on every machine: the engine and Python's
``random`` only). Every level of the rule set chooses its play there, through the
public calls the server makes (``computer.choose_play``; the ``random`` level with a
seeded generator), and the learned levels also answer whether they would offer a raise
(``computer.stake_decision``). The line printed per rule set and level is the SHA-256 of
those answers: a change that must not alter how the computer plays (a refactoring, a
faster search) leaves every line as it was; any changed decision changes the hash.
"""

from __future__ import annotations

import argparse
import hashlib
import random

import computer
from nardy import RULESETS, BoardPosition, Side


def positions(rules: str, count: int, seed: int) -> list[tuple[BoardPosition, Side,
                                                                tuple[int, int], bool]]:
    """The first ``count`` positions with more than one legal play, with the side to
    play, its dice and whether it is that side's first turn."""
    rs = RULESETS[rules]
    rng = random.Random(seed)
    found: list[tuple[BoardPosition, Side, tuple[int, int], bool]] = []
    while len(found) < count:
        position, side, first = rs.initial(), rng.randrange(2), [True, True]
        while rs.outcome(position) is None and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = rs.legal_plays(position, side, dice, first[side])
            if len(plays) > 1:
                found.append((position, side, dice, first[side]))
            if plays:
                position = plays[rng.randrange(len(plays))].position
            first[side] = False
            side = 1 - side
    return found


def fingerprint(rules: str, level: str, count: int, seed: int) -> str:
    digest = hashlib.sha256()
    rng = random.Random(seed)
    for position, side, dice, first in positions(rules, count, seed):
        steps = computer.choose_play(rules, level, position, side, dice, first, rng=rng)
        digest.update((" ".join(map(str, steps)) + "\n").encode())
        if level in ("network", "strong", "expert"):
            offer = computer.stake_decision(rules, level, position, side, question="offer",
                                            stake=1, next_stake=2, first_turn=first)
            digest.update(b"offer\n" if offer else b"keep\n")
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=list(RULESETS))
    args = parser.parse_args(argv)
    for rules in args.rules:
        for level in computer.levels_for(rules):
            print(f"{rules:12} {level:10} {fingerprint(rules, level, args.count, args.seed)}",
                  flush=True)


if __name__ == "__main__":
    main()
