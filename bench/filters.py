"""The 2-ply move filters measured: what each setting gives up against a wider search,
and what it costs.

    python -m bench.filters --rules backgammon --positions 200 --seed 1

The positions are :func:`bench.computer.decisions` (every decision with a choice of
seeded ``heuristic`` self-play games). The reference for a decision: every legal play at
1-ply, the best ``--reference-keep`` of them by 1-ply at 2-ply (reply filter 2), the
best of those by 2-ply. Each setting (root filters and reply filter, :data:`SETTINGS`)
then decides the same position as the ``expert`` level would with it; its choice is
scored by the reference's 2-ply equity (computed for it when the reference did not keep
it). Printed per setting: the share of decisions where it chose the reference's play
(with the 95 % Wilson interval), the mean and largest equity given up, and its CPU time
per decision (mean and p95, ``time.process_time``). The other settings search their
2-ply in full; "committed" is the expert's own (reduced but in backgammon). The
committed network and the bear-off and race evaluations as every learned level uses
them.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from computer.lab.arena import wilson
from computer.levels import REDUCED
from computer.network import equity
from computer.search import EXPERT_FILTERS, REPLY_FILTER, Evaluator, Filter, gc_paused
from computer.weights_io import load_net
from nardy import DEFAULT_RULES

from .computer import decisions


@dataclass(frozen=True)
class Setting:
    name: str
    filters: tuple[Filter, ...]
    reply_filter: int
    reduced: bool | None = False
    """The 2-ply's last ply over a third of the rolls (``computer.search.ROLL_GROUPS``);
    ``None``: as the ``expert`` of the rule set (``computer.levels.REDUCED``)."""


SETTINGS: tuple[Setting, ...] = (
    Setting("committed", EXPERT_FILTERS, REPLY_FILTER, None),
    Setting("full 2-ply", EXPERT_FILTERS, REPLY_FILTER, False),
    Setting("reduced 2-ply", EXPERT_FILTERS, REPLY_FILTER, True),
    Setting("narrow 4/0.12, 2/0.06", (Filter(4, 0.12), Filter(2, 0.06)), 1),
    Setting("3 at 2-ply", (Filter(6, 0.16), Filter(3, 0.10)), 1),
    Setting("8/0.20 at 1-ply", (Filter(8, 0.20), Filter(2, 0.08)), 1),
    Setting("8/0.20, 3/0.10", (Filter(8, 0.20), Filter(3, 0.10)), 1),
    Setting("reply filter 2", EXPERT_FILTERS, 2),
    Setting("reduced, 3 at 2-ply", (Filter(6, 0.16), Filter(3, 0.10)), 1, True),
    Setting("reduced, 8/0.20, 3/0.10", (Filter(8, 0.20), Filter(3, 0.10)), 1, True),
)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.filters", description=__doc__)
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-keep", type=int, default=8)
    args = parser.parse_args(argv)
    net = load_net(args.rules)
    found = decisions(args.rules, args.positions, args.seed)
    reference = Evaluator(args.rules, net, reply_filter=2)
    agree = {s.name: 0 for s in SETTINGS}
    lost: dict[str, list[float]] = {s.name: [] for s in SETTINGS}
    cpu: dict[str, list[float]] = {s.name: [] for s in SETTINGS}
    ref_cpu: list[float] = []
    for plays, side in found:
        positions = [p.position for p in plays]
        started = time.process_time()
        with gc_paused():
            one = equity(reference.one_ply(positions, side))
            top = [int(i) for i in np.argsort(-one, kind="stable")[: args.reference_keep]]
            deep = dict(zip(top, equity(reference.two_ply([positions[i] for i in top], side)),
                            strict=True))
        ref_cpu.append(time.process_time() - started)
        best = max(deep, key=lambda i: (deep[i], -i))
        for setting in SETTINGS:
            reduced = args.rules in REDUCED if setting.reduced is None else setting.reduced
            evaluator = Evaluator(args.rules, net, reply_filter=setting.reply_filter,
                                  reduced=reduced)
            started = time.process_time()
            choice = evaluator.best_play(plays, side, 2, setting.filters)
            cpu[setting.name].append(time.process_time() - started)
            if choice not in deep:
                with gc_paused():
                    deep[choice] = float(equity(reference.two_ply([positions[choice]],
                                                                  side))[0])
                reference.clear()
            agree[setting.name] += choice == best or deep[choice] >= deep[best]
            lost[setting.name].append(max(0.0, deep[best] - deep[choice]))
        reference.clear()
    n = len(found)
    print(f"{args.rules}: {n} decisions (seed {args.seed}); reference: all plays at 1-ply, "
          f"the best {args.reference_keep} at 2-ply with reply filter 2 "
          f"(CPU {1000 * sum(ref_cpu) / n:.0f} ms mean, {1000 * _p95(ref_cpu):.0f} p95)")
    print(f"{'setting':24} {'same as reference':>26} {'equity lost mean/max':>22} "
          f"{'CPU ms mean/p95':>16}")
    for setting in SETTINGS:
        k = agree[setting.name]
        low, high = wilson(k, n)
        losses, times = lost[setting.name], cpu[setting.name]
        print(f"{setting.name:24} {100 * k / n:6.1f} % [{100 * low:4.1f}, {100 * high:5.1f}]"
              f"{'':5} {sum(losses) / n:9.4f} / {max(losses):6.3f} "
              f"{1000 * sum(times) / n:8.1f} / {1000 * _p95(times):5.0f}")


if __name__ == "__main__":
    main()
