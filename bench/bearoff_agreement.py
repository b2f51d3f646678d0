"""The race target: how often the bear-off database's choice is the best play.

    nice python -m bench.bearoff_agreement --checkers 5 --decisions 20000
    nice python -m bench.bearoff_agreement --checkers 5 --decisions 5000 --plies 1

For two-sided races of up to ``--checkers`` checkers a side (every pair of such homes),
the exact win chance of the side to roll is solved by plain expectimax over the dice
(:class:`ExactRace`: each roll played to the result of highest exact win chance, the
plays from the database's successor tables, which tests/computer/test_bearoff.py checks
against each rule set's ``legal_positions``). On sampled positions and rolls with at
least two distinct results, the database's choice (the result of highest
:func:`computer.bearoff.race` win chance: what the learned levels' 0-ply picks in the
domain, where no mars is possible with fewer than 15 checkers) is compared with the
exact best (``--plies 1``: each result valued by the average over the other side's
rolls of its best reply by the database, as the ``strong`` level looks ahead); it
agrees when its exact win chance equals the best's (to 1e-9). Prints the
agreement with its 95 % Wilson interval and the largest loss of win chance. Gammons are
outside what this measures (they need 15 checkers a side, too many to solve exactly).

Since the database holds an exact two-sided table for both sides up to
``computer.bearoff.TWO_SIDED`` (6) checkers, races of up to 5 are inside it. To measure
the rest, ``--outside`` samples only races where a side has more than that, solved by
``computer.bearoff.two_sided(--checkers)`` (the same expectimax, vectorised: 15 s CPU
for 7 checkers; tests/computer/test_bearoff.py checks it against :class:`ExactRace`
and a brute force through the engine)::

    nice python -m bench.bearoff_agreement --checkers 7 --decisions 20000 --outside
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

import numpy as np

from computer import bearoff
from computer.lab.arena import wilson
from computer.search import ROLLS


class ExactRace:
    """``value[x, y]``: the exact probability that the side to roll with home ``x``
    (a row of :func:`computer.bearoff.positions` with at most ``checkers``) beats the
    other, with home ``y``, each side playing to win."""

    def __init__(self, checkers: int, vectorised: bool = False) -> None:
        pos = bearoff.positions()
        if vectorised:
            self.rows, table = bearoff.two_sided(checkers)
            m = len(self.rows)
            self.local = np.full(len(pos) + 1, m, dtype=np.int64)
            self.local[self.rows] = np.arange(m)
            self.value = np.full((m + 1, m + 1), np.nan)
            self.value[:m, :m] = table
            return
        n = len(pos)
        small = np.flatnonzero(pos.sum(axis=1) <= checkers)
        self.rows = small
        local = np.full(n + 1, len(small), dtype=np.int64)  # the dummy: never best
        local[small] = np.arange(len(small))
        self.local = local
        m = len(small)
        pip = pos[small] @ np.arange(1, 7)
        value = np.zeros((m + 1, m + 1))
        value[m, :] = np.nan
        xs, ys = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
        xs, ys = xs.ravel(), ys.ravel()
        live = (xs != 0) & (ys != 0)  # the empty home (row 0) has finished
        total = pip[xs] + pip[ys]
        for level in np.unique(total[live]):
            at = np.flatnonzero(live & (total == level))
            x, y = xs[at], ys[at]
            v = np.zeros(len(at))
            for dice, weight in ROLLS:
                cand = local[bearoff.successors(small[x], dice)]
                after = np.where(cand == 0, 1.0, 1.0 - value[y[:, None], cand])
                after = np.where(cand == m, -np.inf, after)
                v += weight * after.max(axis=1)
            value[x, y] = v
        self.value = value

    def sample(self, rng: random.Random, outside: bool = False,
               ) -> tuple[list[int], list[int]]:
        """Two non-empty homes of the solved size (``outside``: drawn until a side has
        more checkers than the two-sided table holds)."""
        pos = bearoff.positions()
        while True:
            x, y = (pos[self.rows[rng.randrange(1, len(self.rows))]] for _ in range(2))
            if not outside or max(x.sum(), y.sum()) > bearoff.TWO_SIDED:
                return [int(c) for c in x], [int(c) for c in y]

    def after(self, home: Sequence[int], other: Sequence[int]) -> float:
        """The exact win chance of the side that has just moved to ``home``, the side
        with ``other`` to roll."""
        h = int(self.local[bearoff.index(np.array(home))[0]])
        if h == 0:
            return 1.0
        o = int(self.local[bearoff.index(np.array(other))[0]])
        return float(1.0 - self.value[o, h])


def db_values(homes: np.ndarray, other: Sequence[int], plies: int) -> np.ndarray:
    """The database's win chance of the side that has just moved to each of ``homes``
    (the side with ``other`` to roll): at 0-ply :func:`computer.bearoff.race`; at 1-ply
    the average over the other side's 21 rolls of its best reply by the database."""
    pos = bearoff.positions()
    values = np.ones(len(homes))
    live = homes.sum(axis=1) > 0
    if plies == 0:
        others = np.repeat(np.array([other]), int(live.sum()), axis=0)
        values[live] = 1.0 - bearoff.race(others, homes[live])[:, 0]
        return values
    row = bearoff.index(np.array(other))
    for i in np.flatnonzero(live):
        total = 0.0
        for dice, weight in ROLLS:
            replies = pos[sorted({int(t) for t in bearoff.successors(row, dice)[0]
                                  if t < len(pos)})]
            if (replies.sum(axis=1) == 0).any():
                continue  # the other side finishes: a loss
            mine = np.repeat(homes[i:i + 1], len(replies), axis=0)
            total += weight * float(bearoff.race(mine, replies)[:, 0].min())
        values[i] = total
    return values


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bearoff_agreement")
    parser.add_argument("--checkers", type=int, default=5, help="most checkers a side")
    parser.add_argument("--decisions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, choices=[0, 1], default=0,
                        help="the database's choice at 0-ply (the network level) or 1-ply")
    parser.add_argument("--outside", action="store_true",
                        help="only races outside the two-sided table (a side with more "
                             "than computer.bearoff.TWO_SIDED checkers), solved by "
                             "computer.bearoff.two_sided")
    args = parser.parse_args(argv)
    if args.outside and args.checkers <= bearoff.TWO_SIDED:
        parser.error(f"--outside needs --checkers above {bearoff.TWO_SIDED}")
    start = time.process_time()
    solver = ExactRace(args.checkers, vectorised=args.outside)
    solved = time.process_time() - start
    pos = bearoff.positions()
    rng = random.Random(args.seed)
    agree = done = 0
    worst = 0.0
    while done < args.decisions:
        x, y = solver.sample(rng, args.outside)
        dice = ROLLS[rng.randrange(len(ROLLS))][0]  # each of the 21 alike
        found = sorted({int(i) for i in bearoff.successors(bearoff.index(np.array(x)), dice)[0]
                        if i < len(pos)})
        if len(found) < 2:
            continue
        homes = pos[found]
        db = db_values(homes, y, args.plies)
        exact = np.array([solver.after(h, y) for h in homes])
        loss = float(exact.max() - exact[int(np.argmax(db))])
        agree += loss <= 1e-9
        worst = max(worst, loss)
        done += 1
    low, high = wilson(agree, done)
    print(f"races of up to {args.checkers} checkers a side ({len(solver.rows)} homes, solved "
          f"in {solved:.1f} s CPU): {done} decisions with a choice (seed {args.seed}), "
          f"the database's choice at {args.plies}-ply"
          + (f"; only races with a side above {bearoff.TWO_SIDED} checkers"
             if args.outside else ""))
    print(f"the database's choice is an exact best play in {agree} = {100 * agree / done:.2f} % "
          f"[{100 * low:.2f}, {100 * high:.2f}]; the largest loss of win chance "
          f"{worst:.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
