"""TD(λ) self-play training of the value network, TD-Gammon style.

    nice -n 19 python -m computer.lab.train --rules long_nardy --games 60000 --seed 1

The network plays both sides greedily at 0-ply (the dice are the exploration). After
each game, every position a side moved to (the game's last, finished one excepted) is
trained once towards its λ-return, computed backwards from the exact result: the
target of a position is the next position's estimate and the next target blended
``(1 - λ) V + λ G``, seen from the other side (:func:`~computer.network.flip`). One
batched gradient step per game on the summed cross-entropy; the rate falls linearly
to ``--final-rate`` over the run.

Everything is drawn from ``--seed`` (weights, dice, evaluation games), so the same
command on the same machine writes the same weights. The log (``--log``, default
beside the weights) records the command, the settings and, every ``--report`` games,
the speed, the loss and the network's score at 0-ply against the ``heuristic`` level
over ``--eval-games`` games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from computer.board import Boards, boards, profile, ruleset
from computer.levels import picker
from computer.network import (
    N_OUTPUTS,
    Encoding,
    FloatArray,
    Inputs,
    Net,
    encoding,
    equity,
    flip,
    net_encoding,
    outcome_vector,
    weights_digest,
)
from computer.weights_io import WEIGHTS_DIR
from nardy import DEFAULT_RULES, Outcome

from .match import MAX_TURNS, first_dice, play_game

Evaluate = Callable[[Boards, Inputs], FloatArray]
"""The estimates of a turn's results (``Boards`` and their encoding) from the mover's side."""


def greedy_game(rules: str, rng: random.Random, evaluate: Evaluate,
                max_turns: int = MAX_TURNS, enc: Encoding | None = None,
                ) -> Iterator[tuple[Boards, Inputs, FloatArray, int, Outcome | None]]:
    """A greedy 0-ply self-play game, turn by turn: each turn's results (as boards and
    inputs by ``enc``, default the rule set's current encoding), their estimates by
    ``evaluate`` (a finished game's by its result), the index of the one played (the
    best equity) and the game's outcome after it (None while it goes on). The dice and
    the starter are drawn from ``rng``."""
    rs = ruleset(rules)
    prof = profile(rules)
    enc = enc or encoding(rules)
    side = rng.randrange(2)
    position = rs.initial()
    first = [True, True]
    played_opening = rs.opening == "roll_off_played"
    for turn in range(1, max_turns + 1):
        dice = first_dice(rng, played_opening) if turn == 1 else (rng.randint(1, 6),
                                                                   rng.randint(1, 6))
        results = rs.legal_positions(position, side, dice, first[side])
        first[side] = False
        b = boards(rules, results, side)
        x = enc.encode(b)
        probs = evaluate(b, x)
        ended = b.off[:, 0] == 15 if prof.bears_off else (
            (b.mine[:, 6:].sum(axis=1) == 0) & (b.bar[:, 0] == 0))
        for i in np.flatnonzero(ended):
            outcome = rs.outcome(results[int(i)])
            if outcome is not None:
                probs[i] = outcome_vector(outcome.points)
        best = int(np.argmax(equity(probs)))
        position = results[best]
        outcome = rs.outcome(position)
        yield b, x, probs, best, outcome
        if outcome is not None:
            return
        side = 1 - side


def self_play(rules: str, net: Net, rng: random.Random, lam: float,
              max_turns: int = MAX_TURNS) -> tuple[Inputs, FloatArray, int]:
    """One greedy self-play game: the inputs of the positions moved to (the last, which
    ends the game, excluded), their λ-return targets, and the number of turns.

    A game still without a result after ``max_turns`` turns gives no rows: it is
    abandoned, since it has no result to learn from. (An untrained network can play
    such games in the hitting games: both sides hit and re-enter forever, never bearing
    in; one seed of 16 hidden units in backgammon does.)"""
    inputs: list[Inputs] = []
    values: list[FloatArray] = []
    enc = net_encoding(rules, net)
    turns = greedy_game(rules, rng, lambda b, x: net.forward(x), max_turns, enc)
    for turn, (_, x, probs, best, outcome) in enumerate(turns, 1):
        if outcome is not None:
            final = outcome_vector(outcome.points)
            return (*_targets(inputs, values, final, lam), turn)
        inputs.append(x[best])
        values.append(probs[best])
    return (np.empty((0, enc.n_inputs), dtype=np.float32),
            np.empty((0, N_OUTPUTS)), max_turns)


def _targets(inputs: list[Inputs], values: list[FloatArray], final: FloatArray,
             lam: float) -> tuple[Inputs, FloatArray]:
    n = len(inputs)
    targets = np.empty((n, final.shape[0]))
    g_next, v_next = final, final
    for t in range(n - 1, -1, -1):
        targets[t] = flip((1.0 - lam) * v_next + lam * g_next)
        g_next, v_next = targets[t], values[t]
    return np.array(inputs), targets


def score_against(rules: str, net: Net, level: str, games: int, seed: int) -> float:
    """The network's (0-ply) share of games won against ``level``, colours alternating."""
    rng = random.Random(seed)
    mine = picker(rules, "network", net=net)
    theirs = picker(rules, level, random.Random(seed + 1))
    won = 0
    for g in range(games):
        me = g % 2
        white, black = (mine, theirs) if me == 0 else (theirs, mine)
        won += play_game(rules, white, black, rng).outcome.winner == me
    return won / games


def widen(start: Net, enc: Encoding, hidden: int, rng: np.random.Generator) -> Net:
    """A network for ``enc`` that computes what ``start`` computes: ``start``'s inputs
    must be the first of ``enc``'s (``td-signed24`` is the first 208 of
    ``contact-signed24``) and its hidden units the first of ``hidden``. The new inputs
    start with zero weights; the new hidden units with small random input weights and
    zero output weights, so they change nothing until training moves them."""
    if start.n_inputs > enc.n_inputs or start.hidden > hidden:
        raise ValueError(f"cannot widen a network of {start.n_inputs} inputs and "
                         f"{start.hidden} hidden units to {enc.n_inputs} and {hidden}")
    fresh = Net.create(hidden, rng, enc.n_inputs, enc.meta)
    w1 = fresh.w1.copy()
    w1[: start.hidden] = 0.0
    w1[: start.hidden, : start.n_inputs] = start.w1
    b1 = np.zeros(hidden)
    b1[: start.hidden] = start.b1
    w2 = np.zeros((N_OUTPUTS, hidden))
    w2[:, : start.hidden] = start.w2
    return Net(w1, b1, w2, start.b2.copy(), enc.meta)


def train(rules: str, games: int, seed: int, hidden: int = 80, lam: float = 0.7,
          rate: float = 0.005, final_rate: float = 0.002, report: int = 1000,
          eval_games: int = 100, log: list[str] | None = None,
          max_seconds: float | None = None, stop_after: int | None = None,
          checkpoint: Callable[[Net], None] | None = None,
          init: Net | None = None) -> Net:
    """Train a new network for ``rules`` by ``games`` self-play games (see the module
    docstring); progress lines are printed and appended to ``log``. With
    ``max_seconds`` training stops at the first report past that time; the log and
    ``meta["games"]`` say after how many games, and ``stop_after`` (``--stop-after``)
    with that number repeats the run exactly (the rate schedule still runs over
    ``games``). ``checkpoint`` is
    called with the network at each report (its ``meta["games"]`` the games so far).
    ``init``: start from this network (:func:`widen`ed to the current encoding and
    ``hidden``) instead of random weights."""
    enc = encoding(rules)
    if init is not None:
        net = widen(init, enc, hidden, np.random.default_rng(seed))
    else:
        net = Net.create(hidden, np.random.default_rng(seed), enc.n_inputs, enc.meta)
    rng = random.Random(seed)
    lines = log if log is not None else []
    start = time.perf_counter()
    planned = games
    turns = 0
    loss = 0.0
    abandoned = 0
    for game in range(1, games + 1):
        x, target, n_turns = self_play(rules, net, rng, lam)
        turns += n_turns
        abandoned += not len(x)
        step = rate + (final_rate - rate) * (game - 1) / max(games - 1, 1)
        if len(x):
            loss += net.train_step(x, target, step) / len(x)
        if game % report == 0 or game == games:
            elapsed = time.perf_counter() - start
            done = report if game % report == 0 else game % report
            line = (f"games={game} elapsed={elapsed:.0f}s games/s={game / elapsed:.1f} "
                    f"turns/game={turns / done:.1f} loss/position={loss / done:.4f} "
                    f"rate={step:.4f}")
            if abandoned:
                line += f" abandoned={abandoned}"
            if eval_games:
                share = score_against(rules, net, "heuristic", eval_games, seed + game)
                line += f" vs_heuristic_0ply={share:.3f}"
            print(line, flush=True)
            lines.append(line)
            turns = 0
            loss = 0.0
            abandoned = 0
            if checkpoint is not None:
                net.meta.update({"games": str(game)})
                checkpoint(net)
            timed_out = max_seconds is not None and elapsed > max_seconds
            if (timed_out or (stop_after is not None and game >= stop_after)) and game < games:
                why = "time cap" if timed_out else "--stop-after"
                lines.append(f"# {why}: stopped after {game} of {games} games "
                             f"(repeat with --stop-after {game})")
                print(lines[-1], flush=True)
                games = game
                break
    net.meta.update({**enc.meta, "games": str(games), "planned_games": str(planned),
                     "seed": str(seed),
                     "hidden": str(hidden), "lambda": str(lam), "rate": str(rate),
                     "final_rate": str(final_rate)})
    return net


def describe_start(path: Path, net: Net) -> str:
    """``NAME sha256=… (ENCODING, H hidden, G games)``: a start network in a log's header."""
    return (f"{path.name} sha256={weights_digest(path)} ({net.meta.get('encoding')}, "
            f"{net.hidden} hidden, {net.meta.get('games', '?')} games)")


class TrainingLog:
    """One training command's log and weights file: the command and ``header`` lines
    first (printed at once), the progress lines the training appends to :attr:`lines`,
    and a last "done in" line. :meth:`save` writes the weights and the log beside them
    (the checkpoint at each report); :meth:`finish` the final ones. Every training
    command (``computer.lab.train``, ``computer.lab.train_race``, ``computer.lab.train_search``)
    keeps its log this way, so each weights file has the log that reproduces it."""

    def __init__(self, prog: str, argv: list[str] | None, header: list[str], out: Path,
                 log_path: Path | None = None) -> None:
        self.out = out
        self.log_path = log_path or out.with_suffix(".log")
        command = f"python -m {prog} " + " ".join(argv if argv is not None else sys.argv[1:])
        self.lines = [f"# {command}", *header]
        self.started = time.perf_counter()
        print("\n".join(self.lines), flush=True)

    def save(self, net: Net) -> None:
        self.out.parent.mkdir(parents=True, exist_ok=True)
        net.save(self.out)
        self.log_path.write_text("\n".join(self.lines) + "\n")

    def finish(self, net: Net) -> None:
        self.lines.append(f"# done in {time.perf_counter() - self.started:.0f}s; "
                          f"weights: {self.out.name}")
        self.save(net)
        print(self.lines[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m computer.lab.train",
                                     description="TD(λ) self-play training of the network.")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--rate", type=float, default=0.005)
    parser.add_argument("--final-rate", type=float, default=0.002)
    parser.add_argument("--report", type=int, default=1000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--max-minutes", type=float, default=None,
                        help="stop at the first report past this many minutes")
    parser.add_argument("--stop-after", type=int, default=None,
                        help="stop after this many games (the rate schedule runs over --games)")
    parser.add_argument("--out", type=Path, default=None,
                        help="weights file (default computer/weights/RULES.npz)")
    parser.add_argument("--init", type=Path, default=None,
                        help="start from these weights (widened to the current encoding "
                             "and --hidden) instead of random ones")
    parser.add_argument("--log", type=Path, default=None,
                        help="log file (default: the weights file with .log)")
    args = parser.parse_args(argv)
    init = Net.load(args.init, args.rules) if args.init is not None else None
    header = [f"# rules={args.rules} games={args.games} seed={args.seed} hidden={args.hidden} "
              f"lambda={args.lam} rate={args.rate}->{args.final_rate} "
              f"eval: 0-ply vs heuristic over {args.eval_games} games every {args.report}"]
    if init is not None:
        header.append(f"# init={describe_start(args.init, init)}")
    log = TrainingLog("computer.lab.train", argv, header,
                      args.out or WEIGHTS_DIR / f"{args.rules}.npz", args.log)
    net = train(args.rules, args.games, args.seed, args.hidden, args.lam, args.rate,
                args.final_rate, args.report, args.eval_games, log.lines,
                None if args.max_minutes is None else 60 * args.max_minutes, args.stop_after,
                log.save, init)
    log.finish(net)

if __name__ == "__main__":
    main()
