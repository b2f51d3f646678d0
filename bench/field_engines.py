"""Backgammon's candidate field engines timed on the same decisions: Open Sage (the
``bgsage`` package the computer plays with, :mod:`computer.field`) and GNU Backgammon's
evaluation (the ``gnubg-nn`` package, not a dependency: install it apart and name its
directory).

    pip install --target /tmp/gnubgnn gnubg-nn==1.1.0a11
    python -m bench.field_engines --positions 150 --seed 1 --gnubg-nn /tmp/gnubgnn

The positions are :func:`bench.computer.positioned`'s backgammon sample, each played with
a roll drawn from ``--seed``; each engine chooses its best play at 0, 1 and 2 plies (GNU
Backgammon's count) and the CPU time per decision is printed (mean and p95).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from types import ModuleType

from bench.computer import positioned
from computer import field
from nardy import BACKGAMMON_RULES, BoardPosition, HitPosition, Side


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"mean {1000 * sum(values) / len(values):7.2f}  p95 {1000 * p95:7.2f} ms"


def _gnubg_nn(path: str | None) -> ModuleType | None:
    if path:
        sys.path.insert(0, path)
    try:
        return importlib.import_module("gnubg_nn")
    except ImportError:
        return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.field_engines", description=__doc__)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gnubg-nn", default=None, metavar="DIR",
                        help="where gnubg-nn is installed (pip install --target DIR)")
    args = parser.parse_args(argv)
    rs = BACKGAMMON_RULES
    sample = positioned(rs.name, args.positions, args.seed)
    rng = random.Random(args.seed)
    rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in sample]
    print(f"backgammon: {len(sample)} positions of bench.computer's sample (seed "
          f"{args.seed}), each with a seeded roll; CPU per decision")
    engines: list[tuple[str, Callable[[BoardPosition, Side, tuple[int, int], int], object]]] = []
    if field.available():
        def sage(position: BoardPosition, side: Side, dice: tuple[int, int],
                 plies: int) -> object:
            return field.best_play(position, side, rs.legal_plays(position, side, dice, False),
                                   plies)
        engines.append((field.engine_label() or field.ENGINE, sage))
    gnn = _gnubg_nn(args.gnubg_nn)
    if gnn is not None:
        def gnubg(position: BoardPosition, side: Side, dice: tuple[int, int],
                  plies: int) -> object:
            assert isinstance(position, HitPosition)
            board = gnn.board_from_position_id(position.gnubg_id(side))
            return gnn.best_move(board, dice[0], dice[1], n=plies)
        engines.append(("gnubg-nn", gnubg))
    for name, choose in engines:
        for plies in (0, 1, 2):
            times: list[float] = []
            for (position, _, side), dice in zip(sample, rolls, strict=True):
                start = time.process_time()
                choose(position, side, dice, plies)
                times.append(time.process_time() - start)
            print(f"  {name:24} {plies}-ply  {_figures(times)}", flush=True)
    if gnn is None:
        print("  gnubg-nn: not installed (--gnubg-nn DIR)")


if __name__ == "__main__":
    main()
