"""TD(λ) self-play training of the race network (:mod:`computer.race`).

    nice -n 19 python -m computer.lab.train_race --rules backgammon --games 20000 --seed 1

Each game is played from the start by the committed contact network at 0-ply (with
the bear-off database in its domain) until the position becomes a race
(:func:`computer.race.is_race`); from there both sides play greedily at 0-ply by the
race network, and every race position a side moves to is trained towards its
λ-return, as :mod:`computer.lab.train` does, ending at the first position in the
bear-off database's domain (its exact value is the return: the race network is never
asked there) or at the game's result. The race network starts as a copy of the
contact network (so it begins as good as what it replaces, and learns only the races)
and records ``class=race`` in its meta. The rate falls linearly over the run; every
``--report`` games the log records the speed, the loss, and the share of
``--eval-games`` 0-ply games won by the network with the race network against the
same network without it (the same dice for both colours' games), drawn from
``--seed`` like everything else: the same command writes the same weights.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from computer import bearoff
from computer.board import Boards, profile
from computer.levels import picker
from computer.network import N_OUTPUTS, FloatArray, Inputs, Net, net_encoding
from computer.race import is_race, race_weights_path
from computer.weights_io import load_net
from nardy import DEFAULT_RULES

from .match import paired_share
from .train import TrainingLog, _targets, greedy_game


def race_game(rules: str, contact: Net, race: Net, rng: random.Random, lam: float,
              ) -> tuple[Inputs, FloatArray, int]:
    """One self-play game: the inputs of the race positions moved to (outside the
    bear-off domain), their λ-return targets, and the number of race turns."""
    prof = profile(rules)
    inputs: list[Inputs] = []
    values: list[FloatArray] = []

    def evaluate(b: Boards, x: Inputs) -> FloatArray:
        probs = contact.forward(x)
        domain = bearoff.in_domain(b)
        racing = np.flatnonzero(is_race(b, prof) & ~domain)
        if len(racing):
            probs[racing] = race.forward(x[racing])
        rows = np.flatnonzero(domain)
        if len(rows):
            probs[rows] = bearoff.exact_outputs(Boards(b.mine[rows], b.theirs[rows],
                                                       b.bar[rows], b.off[rows]))
        return probs

    enc = net_encoding(rules, contact)
    for b, x, probs, best, outcome in greedy_game(rules, rng, evaluate, enc=enc):
        one = Boards(b.mine[best:best + 1], b.theirs[best:best + 1], b.bar[best:best + 1],
                     b.off[best:best + 1])
        if outcome is not None or bearoff.in_domain(one)[0]:
            if not inputs:
                break
            return (*_targets(inputs, values, probs[best], lam), len(inputs))
        if is_race(one, prof)[0]:
            inputs.append(x[best])
            values.append(probs[best])
    return np.empty((0, enc.n_inputs), np.float32), np.empty((0, N_OUTPUTS)), 0


def score(rules: str, race: Net, games: int, seed: int) -> float:
    """The share of 0-ply games won with the race network against without it (each
    pair of games on the same dice, colours swapped)."""
    mine = picker(rules, "network", race=race)
    theirs = picker(rules, "network", race=False)
    return paired_share(rules, mine, theirs, games, seed)


def train(rules: str, games: int, seed: int, lam: float = 0.7, rate: float = 0.002,
          final_rate: float = 0.0005, report: int = 1000, eval_games: int = 200,
          log: list[str] | None = None,
          checkpoint: Callable[[Net], None] | None = None) -> Net:
    contact = load_net(rules)
    race = Net(contact.w1.copy(), contact.b1.copy(), contact.w2.copy(), contact.b2.copy(),
               {**net_encoding(rules, contact).meta, "class": "race"})
    rng = random.Random(seed)
    lines = log if log is not None else []
    start = time.perf_counter()
    turns = rows = 0
    loss = 0.0
    for game in range(1, games + 1):
        x, target, n = race_game(rules, contact, race, rng, lam)
        turns += n
        step = rate + (final_rate - rate) * (game - 1) / max(games - 1, 1)
        if len(x):
            loss += race.train_step(x, target, step) / len(x)
            rows += 1
        if game % report == 0 or game == games:
            elapsed = time.perf_counter() - start
            line = (f"games={game} elapsed={elapsed:.0f}s games/s={game / elapsed:.1f} "
                    f"race_turns/game={turns / report:.1f} "
                    f"loss/position={loss / max(rows, 1):.4f} rate={step:.5f}")
            if eval_games:
                line += f" vs_contact_net_0ply={score(rules, race, eval_games, seed + game):.3f}"
            print(line, flush=True)
            lines.append(line)
            turns = rows = 0
            loss = 0.0
            if checkpoint is not None:
                race.meta.update({"games": str(game)})
                checkpoint(race)
    race.meta.update({"games": str(games), "seed": str(seed), "lambda": str(lam),
                      "rate": str(rate), "final_rate": str(final_rate),
                      "start": "the contact network"})
    return race


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m computer.lab.train_race",
                                     description="TD(λ) training of the race network.")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--rate", type=float, default=0.002)
    parser.add_argument("--final-rate", type=float, default=0.0005)
    parser.add_argument("--report", type=int, default=1000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not profile(args.rules).bears_off:
        parser.error(f"{args.rules} does not bear off: no race class")
    log = TrainingLog(
        "computer.lab.train_race", argv,
        [f"# rules={args.rules} games={args.games} seed={args.seed} lambda={args.lam} "
         f"rate={args.rate}->{args.final_rate}; eval: 0-ply with vs without the race "
         f"network over {args.eval_games} games every {args.report}"],
        args.out or race_weights_path(args.rules))
    net = train(args.rules, args.games, args.seed, args.lam, args.rate, args.final_rate,
                args.report, args.eval_games, log.lines, log.save)
    log.finish(net)

if __name__ == "__main__":
    main()
