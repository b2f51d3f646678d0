"""The computer's reply time while a game review runs beside it (the target: analysis
never delays the computer's reply in another match).

    python -m bench.review_latency --rules long_nardy --level expert --positions 60

On the server the review runs on its own queue and worker (docs/architecture.md, "Game
reviews"), so a computer turn never waits behind one in the queue; what remains is the
CPU the two share. This measures that: the wall time of the computer's decisions
(``--level`` on seeded positions, :func:`bench.computer.decisions`) in this process,

1. with nothing else of ours running,
2. while another process reviews games at 2 plies without yielding (nice 0),
3. while it does so at the analysis worker's priority (``ANALYSIS_WORKER_NICE``, 10),

printing mean, median, p95 and max per decision for each. The background process reviews
seeded heuristic games (:func:`bench.analysis.heuristic_game`) in a loop until stopped.
The figures depend on what else the machine runs (this one has 2 cores shared with other
work); run it alone for clean ones.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.computer import _figures, decisions
from computer.levels import picker
from nardy import RULESETS

REVIEWER = """
import os, sys
os.nice(int(sys.argv[2]))
from bench.analysis import heuristic_game
from computer.review import review_game
rules, seed = sys.argv[1], 1
print("ready", flush=True)
while True:
    review_game(rules, heuristic_game(rules, seed), 2)
    seed += 1
"""


def timed(rules: str, level: str, sample: Sequence[tuple[Any, int]]) -> list[float]:
    choose = picker(rules, level)
    times = []
    for plays, side in sample:
        start = time.perf_counter()
        choose(plays, side)
        times.append(time.perf_counter() - start)
    return times


def with_reviewer(rules: str, nice: int | None, run: Callable[[], list[float]]) -> list[float]:
    if nice is None:
        return run()
    process = subprocess.Popen([sys.executable, "-c", REVIEWER, rules, str(nice)],
                               stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": os.getcwd()})
    try:
        assert process.stdout is not None
        process.stdout.readline()  # "ready": its weights are loaded
        time.sleep(1.0)            # into its first review
        return run()
    finally:
        process.kill()
        process.wait()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=next(iter(RULESETS)), choices=list(RULESETS))
    parser.add_argument("--level", default="expert")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--review-rules", default=None, choices=list(RULESETS),
                        help="the background review's rule set (default: --rules)")
    args = parser.parse_args(argv)
    sample = decisions(args.rules, args.positions, args.seed)
    timed(args.rules, args.level, sample[:3])  # warm-up: the weights loaded
    review_rules = args.review_rules or args.rules
    print(f"{args.rules}: {args.level}'s decisions on {len(sample)} positions (seed "
          f"{args.seed}); background: 2-ply reviews of {review_rules} games; "
          f"os.cpu_count() = {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")
    for label, nice in (("alone", None), ("beside a review at nice 0", 0),
                        ("beside a review at nice 10", 10)):
        times = with_reviewer(review_rules, nice,
                              lambda: timed(args.rules, args.level, sample))
        print(f"  {label:28} wall {_figures(times)}", flush=True)


if __name__ == "__main__":
    main()
