"""``python -m computer.lab bearoff build``: build the exact bear-off databases
(:mod:`computer.bearoff`: ``computer/weights/bearoff.npz`` and the two-sided table beside
it) and print their sizes and the time they took."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from computer.bearoff import (
    CHECKERS,
    MAX_ROLLS,
    PATH,
    SCALE,
    TWO_PATH,
    TWO_SIDED,
    index,
    positions,
    write,
    write_two_sided,
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m computer.lab bearoff",
                                     description="Build the exact bear-off databases.")
    parser.add_argument("command", choices=["build"])
    parser.add_argument("--out", type=Path, default=PATH)
    args = parser.parse_args(argv)
    started = time.process_time()
    tables = write(args.out)
    took = time.process_time() - started
    print(f"{len(positions())} positions; {args.out} {args.out.stat().st_size:,} bytes; "
          f"{took:.1f} s CPU")
    started = time.process_time()
    two = args.out.with_name(TWO_PATH.name)
    table = write_two_sided(two)
    took = time.process_time() - started
    print(f"two-sided, up to {TWO_SIDED} checkers a side: {len(table)} homes, "
          f"{table.size:,} pairs; {two} {two.stat().st_size:,} bytes; {took:.1f} s CPU")
    off = tables["off"].astype(np.float64) / SCALE
    full = int(index(np.array([0, 0, 0, 0, 0, CHECKERS]))[0])
    print(f"15 checkers on point 6: {off[full] @ np.arange(MAX_ROLLS):.4f} expected rolls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
