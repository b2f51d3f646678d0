"""The race network's second stage: fitted to rollouts that end in the exact database.

    nice -n 19 python -m computer.lab.race_rollouts --rules backgammon --rounds 2 --seed 1

The race network (:mod:`computer.race`) learned the races by TD(λ) self-play
(:mod:`computer.lab.train_race`); measured against gnubg's analysis, its play in races
outside the bear-off database lost about as much equity a move as the contact network's
in contact (docs/computer.md, "Round two, eighth part"). A race has no contact left, so
a short rollout values it well: each game played on, both sides by the evaluation being
corrected (the race network, then the exact database), until both sides are home — from
there the database's value is exact. Each round:

1. plays ``--games`` self-play games at 0-ply with the committed contact network, the
   race network being trained and the database, the dice from ``--seed``, and keeps
   every race position a side moved to outside the database's domain;
2. rolls each one out ``--trials`` times (a multiple of 36: trial ``t`` starts with the
   ``t mod 36``-th of the 36 rolls, so every first roll counts its share exactly), each
   trial played greedily at 0-ply to the database's domain or the end of the game; the
   target is the mean of the trials' final estimates (the database's exact outputs, or
   the result);
3. fits the race network to those targets (:func:`computer.lab.train_search.fit`).

Every round the log records the positions, the loss before and after the fit, and the
mean absolute change of equity the fit made on them. The same command writes the same
weights on the same machine.
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
from computer.network import N_OUTPUTS, FloatArray, Net, equity, flip, net_encoding
from computer.race import is_race, load_race_net, race_weights_path
from computer.search import Evaluator
from computer.weights_io import load_net
from nardy import DEFAULT_RULES, BoardPosition, Side

from .match import MAX_TURNS, first_dice
from .train import TrainingLog, describe_start
from .train_search import fit

DICE36: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
"""The 36 rolls, each once: a trial's first roll, stratified."""

MAX_PLIES = 80
"""A trial longer than this (never in practice: a race is done in far fewer) ends on its
last position's estimate."""


def _stop(rules: str, position: BoardPosition, side: Side) -> bool:
    """Whether a trial ends at ``position`` (``side`` just moved): the game is over or
    both sides are home (the database's domain)."""
    if ruleset(rules).outcome(position) is not None:
        return True
    return bool(bearoff.in_domain(boards(rules, [position], side))[0])


def race_positions(rules: str, contact: Net, race: Net, games: int, rng: random.Random,
                   ) -> list[tuple[BoardPosition, Side]]:
    """The race positions outside the database's domain (mover's result, opponent to
    roll) of ``games`` greedy 0-ply self-play games."""
    rs = ruleset(rules)
    prof = profile(rules)
    evaluator = Evaluator(rules, contact, race=race)
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
            position = results[int(np.argmax(equity(evaluator.static(results, side))))]
            if _stop(rules, position, side):
                break
            if is_race(boards(rules, [position], side), prof)[0]:
                found.append((position, side))
            side = 1 - side
        evaluator.clear()
    return found


def rollout(evaluator: Evaluator, position: BoardPosition, mover: Side, trials: int,
            rng: random.Random) -> FloatArray:
    """The mean over ``trials`` (a multiple of 36) greedy 0-ply games from ``position``
    (``mover`` just moved) of the final estimate, from ``mover``'s side."""
    if trials <= 0 or trials % len(DICE36):
        raise ValueError(f"trials: a positive multiple of 36, not {trials}")
    rules = evaluator.rules
    total = np.zeros(N_OUTPUTS)
    for t in range(trials):
        current, side = position, 1 - mover
        dice = DICE36[t % len(DICE36)]
        for _ in range(MAX_PLIES):
            results = evaluator.positions(current, side, dice, False)
            probs = evaluator.static(results, side)
            best = int(np.argmax(equity(probs)))
            current = results[best]
            if _stop(rules, current, side):
                break
            side = 1 - side
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        final = evaluator.static([current], side)[0]
        total += final if side == mover else flip(final)
        evaluator.clear()  # the caches serve one decision's queries, not a game's
    return total / trials


def train(rules: str, rounds: int, games: int, trials: int, seed: int, epochs: int = 3,
          batch: int = 128, rate: float = 0.001, log: list[str] | None = None,
          checkpoint: Callable[[Net], None] | None = None, start: Net | None = None) -> Net:
    contact = load_net(rules)
    begin = start if start is not None else load_race_net(rules)
    if begin is None:
        raise ValueError(f"{rules} has no race network to start from")
    race = Net(begin.w1.copy(), begin.b1.copy(), begin.w2.copy(), begin.b2.copy(),
               dict(begin.meta))
    enc = net_encoding(rules, race)
    rng = random.Random(seed)
    fit_rng = np.random.default_rng(seed)
    lines = log if log is not None else []
    began = time.perf_counter()
    for r in range(1, rounds + 1):
        found = race_positions(rules, contact, race, games, rng)
        evaluator = Evaluator(rules, contact, race=race)
        y = np.array([rollout(evaluator, p, side, trials, rng) for p, side in found]
                     ).reshape(-1, N_OUTPUTS)
        x = np.empty((len(found), enc.n_inputs), dtype=np.float32)
        for me in (0, 1):
            rows = [i for i, (_, side) in enumerate(found) if side == me]
            if rows:
                x[rows] = enc.encode(boards(rules, [found[i][0] for i in rows], me))
        before = equity(race.forward(x)) if len(x) else np.zeros(0)
        first, last = fit(race, x, y, epochs, batch, rate, fit_rng)
        moved = float(np.abs(equity(race.forward(x)) - before).mean()) if len(x) else 0.0
        gap = float(np.abs(before - equity(y)).mean()) if len(x) else 0.0
        line = (f"round={r} elapsed={time.perf_counter() - began:.0f}s positions={len(found)} "
                f"loss/position first_epoch={first:.4f} last_epoch={last:.4f} "
                f"|equity - rollout| before={gap:.4f} fit_moved={moved:.4f}")
        print(line, flush=True)
        lines.append(line)
        race.meta.update({"rollout_rounds": str(r)})
        if checkpoint is not None:
            checkpoint(race)
    race.meta.update({"rollout_rounds": str(rounds), "rollout_games": str(games),
                      "rollout_trials": str(trials), "rollout_seed": str(seed),
                      "rollout_epochs": str(epochs), "rollout_rate": str(rate)})
    return race


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m computer.lab.race_rollouts",
        description="Fit the race network to rollouts ending in the bear-off database.")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--start", type=Path, default=None,
                        help="the race network to start from (default the committed one)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=300, help="self-play games a round")
    parser.add_argument("--trials", type=int, default=36,
                        help="rollouts per position, a multiple of 36")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--rate", type=float, default=0.001)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None,
                        help="weights file (default computer/weights/RULES-race.npz)")
    args = parser.parse_args(argv)
    if not profile(args.rules).bears_off:
        parser.error(f"{args.rules} does not bear off: no race class")
    if args.trials <= 0 or args.trials % len(DICE36):
        parser.error(f"--trials: a positive multiple of 36, not {args.trials}")
    start_path = args.start or race_weights_path(args.rules)
    try:
        start = Net.load(start_path, args.rules)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    log = TrainingLog(
        "computer.lab.race_rollouts", argv,
        [f"# start={describe_start(start_path, start)}; rounds={args.rounds} "
         f"games/round={args.games} trials={args.trials} epochs={args.epochs} "
         f"batch={args.batch} rate={args.rate} seed={args.seed}"],
        args.out or race_weights_path(args.rules))
    net = train(args.rules, args.rounds, args.games, args.trials, args.seed, args.epochs,
                args.batch, args.rate, log.lines, log.save, start)
    log.finish(net)


if __name__ == "__main__":
    main()
