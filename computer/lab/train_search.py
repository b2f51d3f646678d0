"""The second training stage: the network fitted to its own 1-ply search, or to a
stronger teacher's estimates.

    nice -n 19 python -m computer.lab.train_search --rules long_nardy --rounds 4 --seed 1

TD(λ) self-play (:mod:`computer.lab.train`) learns from the network's own next estimates; this
stage corrects it by search instead, as gnubg's networks were corrected by rollouts, only
cheaper. Each round:

1. plays ``--games`` self-play games greedily at 0-ply (the evaluation every learned level
   uses: the bear-off database, the committed race network, the network being trained),
   the dice from ``--seed``;
2. keeps every contact position a side moved to (neither a race nor finished: the contact
   network's own domain);
3. computes each one's **1-ply** estimate (:meth:`computer.search.Evaluator.one_ply`: the
   average over the opponent's 21 rolls of the position after its best reply by 0-ply),
   the target; or with ``--plies 2`` its **2-ply** estimate (``--reduced``: the reduced
   2-ply, a third of the last ply's rolls; about 7 and 15 times the 1-ply's cost).
   With ``--teacher field`` the targets are the field engine's instead (short nardy,
   backgammon's board: :data:`computer.levels.FIELD_VALUED`): the same search with every
   position it reaches valued by the engine's raw network
   (:class:`~computer.search.Evaluator` with ``field=True``, as short nardy's levels
   play), at ``--plies`` 0, 1 or 2 — the network learns what the stronger evaluation
   says, through the rule set's own moves;
4. fits the network to those targets: ``--epochs`` passes in shuffled mini-batches of
   ``--batch`` rows, one gradient step of the summed cross-entropy per batch at
   ``--rate``.

Every round the log records the positions, the loss before and after the fit, and the
share of ``--eval-games`` 0-ply games the fitted network wins against the network the
stage started from (pairs of games on the same dice, colours swapped). The same command
writes the same weights on the same machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from computer import bearoff
from computer.board import boards, profile, ruleset
from computer.levels import picker
from computer.network import Net, equity, net_encoding
from computer.race import is_race
from computer.search import Evaluator, field_can_value
from computer.weights_io import WEIGHTS_DIR
from nardy import DEFAULT_RULES, BoardPosition, Side

from .match import MAX_TURNS, first_dice, paired_share
from .train import TrainingLog, describe_start


def contact_positions(rules: str, net: Net, games: int, rng: random.Random,
                      ) -> list[tuple[BoardPosition, Side]]:
    """The contact positions (mover's result, opponent to roll) of ``games`` greedy 0-ply
    self-play games of ``net`` (with the bear-off database and the committed race
    network, as the learned levels play)."""
    rs = ruleset(rules)
    prof = profile(rules)
    evaluator = Evaluator(rules, net, race=True)
    found: list[tuple[BoardPosition, Side]] = []
    played_opening = rs.opening == "roll_off_played"
    for _ in range(games):
        side = rng.randrange(2)
        position = rs.initial()
        first = [True, True]
        for turn in range(1, MAX_TURNS + 1):
            dice = first_dice(rng, played_opening) if turn == 1 else (
                rng.randint(1, 6), rng.randint(1, 6))
            results = rs.legal_positions(position, side, dice, first[side])
            first[side] = False
            best = int(np.argmax(equity(evaluator.static(results, side))))
            position = results[best]
            if rs.outcome(position) is not None:
                break
            b = boards(rules, [position], side)
            if not (is_race(b, prof)[0] or (prof.bears_off and bearoff.in_domain(b)[0])):
                found.append((position, side))
            side = 1 - side
        evaluator.clear()
    return found


TEACHERS = ("search", "field")
"""Whose estimates the network is fitted to: its own search's, or the field engine's
(:func:`targets`)."""


def targets(rules: str, net: Net, found: list[tuple[BoardPosition, Side]],
            plies: int = 1, reduced: bool = False, field: bool = False) -> np.ndarray:
    """The ``plies``-ply estimates (1 or 2; ``reduced``: the reduced 2-ply) of ``found``
    from each mover's side; with ``field``, the search's leaves valued by the field
    engine's raw network instead of ``net`` (then ``plies`` may be 0: the engine's own
    estimate of each position). Raises ``ValueError`` for another depth, or where the
    field engine cannot value ``rules`` (not installed, or not backgammon's board)."""
    if plies not in ((0, 1, 2) if field else (1, 2)):
        raise ValueError(f"targets are {'0-, ' if field else ''}1-ply or 2-ply estimates, "
                         f"not {plies}-ply")
    evaluator = Evaluator(rules, net, race=True, reduced=reduced, field=field)
    search = (evaluator.static, evaluator.one_ply, evaluator.two_ply)[plies]
    out = np.empty((len(found), 5))
    chunk = (1024, 256, 32)[plies]  # positions a search call: fewer the deeper it goes
    for me in (0, 1):
        rows = [i for i, (_, side) in enumerate(found) if side == me]
        for lo in range(0, len(rows), chunk):
            part = rows[lo: lo + chunk]
            out[part] = search([found[i][0] for i in part], me)
            evaluator.clear()
    return out


def fit(net: Net, x: np.ndarray, y: np.ndarray, epochs: int, batch: int, rate: float,
        rng: np.random.Generator) -> tuple[float, float]:
    """Mini-batch gradient steps of ``net`` towards ``y``; the mean loss per position over
    the first epoch and over the last."""
    losses = []
    for _ in range(epochs):
        order = rng.permutation(len(x))
        total = 0.0
        for lo in range(0, len(x), batch):
            rows = order[lo: lo + batch]
            total += net.train_step(x[rows], y[rows], rate)
        losses.append(total / max(len(x), 1))
    return losses[0], losses[-1]


def score(rules: str, net: Net, start: Net, games: int, seed: int) -> float:
    """The share of 0-ply games ``net`` wins against ``start`` (pairs on the same dice)."""
    mine = picker(rules, "network", net=net, race=True)
    theirs = picker(rules, "network", net=start, race=True)
    return paired_share(rules, mine, theirs, games, seed)


def train(rules: str, start: Net, rounds: int, games: int, seed: int, epochs: int = 3,
          batch: int = 128, rate: float = 0.001, eval_games: int = 400,
          log: list[str] | None = None,
          checkpoint: Callable[[Net], None] | None = None,
          plies: int = 1, reduced: bool = False, teacher: str = "search") -> Net:
    if teacher not in TEACHERS:
        raise ValueError(f"no teacher {teacher!r}; teachers: {', '.join(TEACHERS)}")
    enc = net_encoding(rules, start)
    net = Net(start.w1.copy(), start.b1.copy(), start.w2.copy(), start.b2.copy(),
              dict(start.meta))
    rng = random.Random(seed)
    fit_rng = np.random.default_rng(seed)
    lines = log if log is not None else []
    began = time.perf_counter()
    for r in range(1, rounds + 1):
        found = contact_positions(rules, net, games, rng)
        y = targets(rules, net, found, plies, reduced, field=teacher == "field")
        x = np.empty((len(found), enc.n_inputs), dtype=np.float32)
        for me in (0, 1):
            rows = [i for i, (_, side) in enumerate(found) if side == me]
            if rows:
                x[rows] = enc.encode(boards(rules, [found[i][0] for i in rows], me))
        first, last = fit(net, x, y, epochs, batch, rate, fit_rng)
        line = (f"round={r} elapsed={time.perf_counter() - began:.0f}s positions={len(found)} "
                f"loss/position first_epoch={first:.4f} last_epoch={last:.4f}")
        if eval_games:
            line += f" vs_start_0ply={score(rules, net, start, eval_games, seed + r):.3f}"
        print(line, flush=True)
        lines.append(line)
        net.meta.update({"search_rounds": str(r)})
        if checkpoint is not None:
            checkpoint(net)
    net.meta.update({"search_rounds": str(rounds), "search_games": str(games),
                     "search_seed": str(seed), "search_epochs": str(epochs),
                     "search_rate": str(rate),
                     "search_plies": f"{plies}{' reduced' if reduced else ''}",
                     "search_teacher": teacher})
    return net


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m computer.lab.train_search",
                                     description="Fit the network to its own 1-ply search.")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--start", type=Path, default=None,
                        help="the network to start from (default the committed one)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=500, help="self-play games a round")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--rate", type=float, default=0.001)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, choices=(0, 1, 2), default=1,
                        help="the targets' search depth (default 1; 0 with --teacher field "
                             "only)")
    parser.add_argument("--teacher", choices=TEACHERS, default="search",
                        help="the targets: the network's own search, or the same search "
                             "with the positions valued by the field engine (short nardy)")
    parser.add_argument("--reduced", action="store_true",
                        help="2-ply targets by the reduced 2-ply (a third of the last ply's rolls)")
    parser.add_argument("--out", type=Path, default=None,
                        help="weights file (default computer/weights/RULES.npz)")
    args = parser.parse_args(argv)
    if args.reduced and args.plies != 2:
        parser.error("--reduced is the reduced 2-ply: give it with --plies 2")
    if args.plies == 0 and args.teacher != "field":
        parser.error("0-ply targets are the network's own estimates: give --teacher field")
    if args.teacher == "field" and not field_can_value(args.rules):
        parser.error(f"the field engine cannot value {args.rules} positions here "
                     "(not installed, or not backgammon's board)")
    start_path = args.start or WEIGHTS_DIR / f"{args.rules}.npz"
    start = Net.load(start_path, args.rules)
    log = TrainingLog(
        "computer.lab.train_search", argv,
        [f"# start={describe_start(start_path, start)}; rounds={args.rounds} "
         f"games/round={args.games} epochs={args.epochs} batch={args.batch} "
         f"rate={args.rate} seed={args.seed} targets={args.plies}-ply"
         f"{' reduced' if args.reduced else ''} teacher={args.teacher}; "
         f"eval: 0-ply vs the start over {args.eval_games} games"],
        args.out or WEIGHTS_DIR / f"{args.rules}.npz")
    net = train(args.rules, start, args.rounds, args.games, args.seed, args.epochs,
                args.batch, args.rate, args.eval_games, log.lines, log.save,
                args.plies, args.reduced, args.teacher)
    log.finish(net)

if __name__ == "__main__":
    main()
