"""Where the committed networks live and how the levels load them: below both the
levels (:mod:`computer.levels`) and the search (:mod:`computer.search`), which each need
the committed network of a rule set."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .network import Net

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
"""The committed networks (``<rules>.npz``, ``<rules>-race.npz``), the bear-off database
and the search settings: the data the runtime reads."""


class UnknownLevelError(ValueError):
    """The level does not exist, or not for this rule set (no trained weights)."""


def weights_path(rules: str) -> Path:
    return WEIGHTS_DIR / f"{rules}.npz"


@cache
def load_net(rules: str) -> Net:
    """The committed network of ``rules``. Raises ``UnknownLevelError`` without one,
    :class:`~computer.network.WeightsMismatchError` when it was trained for another rule
    set or encoding (or does not say)."""
    path = weights_path(rules)
    if not path.exists():
        raise UnknownLevelError(f"no trained network for {rules!r} ({path.name} missing)")
    return Net.load(path, rules)
