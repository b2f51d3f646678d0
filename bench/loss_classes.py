"""Where a learned level loses equity in backgammon, by class of position, as GNU
Backgammon judges it (docs/computer.md, "Round two, eighth part").

    python -m bench.loss_classes --level network --games 200 --seed 7
    python -m bench.loss_classes --level network --games 200 --seed 7 \\
        --race-weights computer/lab/weights/candidates/backgammon-race-rollouts.npz

Plays ``--games`` seeded games of ``--level`` against itself (with ``--weights`` and
``--race-weights``, the networks to measure; default the committed ones), has gnubg
analyse every move at 0-ply, cubeless (:func:`bench.review_validation.gnubg_losses`),
and sorts the moves with a choice by the position the mover rolled in, seen by the
mover, into the first class that fits:

- ``bear-off db``: both sides home (:func:`computer.bearoff.in_domain`: the database
  plays these exactly);
- ``race``: no contact left, outside the database (:func:`computer.race.is_race`);
- ``contact, bar``: the mover has a checker on the bar;
- ``contact, 3+ back``: three or more of the mover's checkers in the opponent's home
  (a back game or a stuck anchor);
- ``contact, bear-in/off``: 11 or more of the mover's checkers home or off;
- ``contact, other``.

For each class: the moves, gnubg's mean equity loss a move, its blunders (loss at
least 0.08) and the class's share of all the loss. The same arguments print the same
table.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bench.analysis import level_game
from bench.review_validation import BLUNDER, gnubg_losses
from computer import bearoff
from computer.board import Boards, boards, profile
from computer.levels import LEVELS, Picker, picker
from computer.network import Net
from computer.race import is_race, load_race_net
from computer.review import TurnInput
from nardy import BACKGAMMON_RULES

RULES = BACKGAMMON_RULES.name
"""gnubg judges backgammon only."""
CLASSES = ("bear-off db", "race", "contact, bar", "contact, 3+ back",
           "contact, bear-in/off", "contact, other")
HOME = 6
BACK = 3
"""Checkers in the opponent's home that make ``contact, 3+ back``."""
BEARING_IN = 11
"""Checkers home or off that make ``contact, bear-in/off``."""


def classify(b: Boards) -> list[str]:
    """The class of each position of ``b`` (seen by the side to move)."""
    db = bearoff.in_domain(b)
    race = is_race(b, profile(RULES))
    out = []
    for i in range(len(b)):
        if db[i]:
            out.append(CLASSES[0])
        elif race[i]:
            out.append(CLASSES[1])
        elif b.bar[i, 0] > 0:
            out.append(CLASSES[2])
        elif int(b.mine[i, -HOME:].sum()) >= BACK:
            out.append(CLASSES[3])
        elif int(b.mine[i, :HOME].sum() + b.off[i, 0]) >= BEARING_IN:
            out.append(CLASSES[4])
        else:
            out.append(CLASSES[5])
    return out


def turn_class(turn: TurnInput) -> str:
    return classify(boards(RULES, [turn.position], turn.side))[0]


def tally(games: Sequence[list[TurnInput]], losses: Sequence[Sequence[float | None]],
          ) -> dict[str, list[float]]:
    """Each class's losses over the moves gnubg calls a choice (negative ones, gnubg's
    rounding, as 0)."""
    by: dict[str, list[float]] = {name: [] for name in CLASSES}
    for turns, ref in zip(games, losses, strict=True):
        if len(turns) != len(ref):
            raise SystemExit("gnubg read another number of moves than were written")
        for turn, loss in zip(turns, ref, strict=True):
            if loss is not None:
                by[turn_class(turn)].append(max(0.0, loss))
    return by


def table(by: dict[str, list[float]]) -> list[str]:
    everything = [x for values in by.values() for x in values]
    total = sum(everything) or 1.0
    lines = [f"{'class':22} {'moves':>6} {'mean loss':>9} {'blunders':>8} {'share':>6}"]
    for name, values in [*by.items(), ("all", everything)]:
        a = np.asarray(values)
        mean = float(a.mean()) if len(a) else 0.0
        lines.append(f"{name:22} {len(a):6} {mean:9.4f} {int(np.sum(a >= BLUNDER)):8} "
                     f"{100 * float(a.sum()) / total:5.1f}%")
    return lines


def maker(net: Net | None, race: Net | None) -> Callable[[str, str, random.Random], Picker]:
    """Choosers that play with ``net`` and ``race`` (``None``: the committed ones)."""
    def make(rules: str, level: str, rng: random.Random) -> Picker:
        return picker(rules, level, rng, net,
                      race=race if race is not None else (True if net is not None else None))
    return make


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.loss_classes",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="network", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--race-weights", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games: at least 1")
    try:
        net = Net.load(args.weights, RULES) if args.weights is not None else None
        race = load_race_net(RULES, args.race_weights) if args.race_weights else None
    except (OSError, ValueError) as error:
        parser.error(str(error))
    start = time.perf_counter()
    make = maker(net, race)
    games = [level_game(RULES, args.seed * 100_003 + i, (args.level, args.level), make)
             for i in range(args.games)]
    print(f"{RULES}: {args.games} games of {args.level} against itself, seed {args.seed}"
          f"{f', weights {args.weights}' if args.weights else ''}"
          f"{f', race weights {args.race_weights}' if args.race_weights else ''} "
          f"({time.perf_counter() - start:.0f} s to play)", flush=True)
    start = time.perf_counter()
    losses = gnubg_losses(RULES, games)
    print(f"gnubg 0-ply cubeless analysis: {time.perf_counter() - start:.0f} s")
    for line in table(tally(games, losses)):
        print(line)


if __name__ == "__main__":
    main()
