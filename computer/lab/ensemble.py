"""Several trained networks as one: the mean of their estimates.

    python -m computer.lab.ensemble --rules backgammon --out computer/weights/backgammon.npz \\
        computer/weights/members/backgammon-td120k.npz \\
        computer/weights/members/backgammon-td98k.npz

Networks trained apart (another seed, more games, another rate) err in different places;
their mean errs less than either. The mean is taken of the outputs' **logits** (the
values before the sigmoid), and that mean is itself a network of this module's
architecture: the members' hidden units side by side (each member's input weights
unchanged, widened to the current encoding with zero weights for the inputs it never
read, :func:`computer.lab.train.widen`), their output weights divided by the number of
members, the output biases averaged. So an ensemble is played, searched, reviewed,
trained on and saved as any network is; it costs what a network of the members' hidden
units together costs (docs/computer.md has the timings and the strength it gives).

The log beside the weights names each member by its file and SHA-256 prefix.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from computer.network import Encoding, Net, encoding
from computer.weights_io import WEIGHTS_DIR
from nardy import DEFAULT_RULES

from .train import TrainingLog, describe_start, widen


def average(members: Sequence[Net], enc: Encoding) -> Net:
    """One network of ``enc`` whose output logits are the mean of ``members``' (each
    read through ``enc``: a member's inputs must be the first of ``enc``'s). Its meta is
    ``enc``'s with ``members`` (how many) and ``hidden``."""
    if not members:
        raise ValueError("an ensemble needs at least one member")
    rng = np.random.default_rng(0)  # unused: widen adds no hidden units here
    wide = [widen(net, enc, net.hidden, rng) for net in members]
    k = len(wide)
    w1 = np.concatenate([net.w1 for net in wide])
    b1 = np.concatenate([net.b1 for net in wide])
    w2 = np.concatenate([net.w2 / k for net in wide], axis=1)
    b2 = np.mean([net.b2 for net in wide], axis=0)
    return Net(w1, b1, w2, b2, {**enc.meta, "members": str(k), "hidden": str(len(b1))})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m computer.lab.ensemble",
        description="Average trained networks into one (the mean of their output logits).")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--out", type=Path, default=None,
                        help="weights file (default computer/weights/RULES.npz)")
    parser.add_argument("members", type=Path, nargs="+", help="the members' weights files")
    args = parser.parse_args(argv)
    out = args.out or WEIGHTS_DIR / f"{args.rules}.npz"
    if out.resolve() in {path.resolve() for path in args.members}:
        parser.error(f"--out {out} is one of the members: write the ensemble elsewhere")
    try:
        members = [Net.load(path, args.rules) for path in args.members]
    except (OSError, ValueError) as error:
        parser.error(str(error))
    header = [f"# rules={args.rules} members={len(members)}: the mean of their output logits"]
    header += [f"# member={describe_start(path, net)}"
               for path, net in zip(args.members, members, strict=True)]
    log = TrainingLog("computer.lab.ensemble", argv, header, out)
    net = average(members, encoding(args.rules))
    net.meta["ensemble"] = " ".join(path.name for path in args.members)
    log.lines.append(f"hidden={net.hidden} inputs={net.n_inputs}")
    log.finish(net)


if __name__ == "__main__":
    main()
