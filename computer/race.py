"""Position classes and the race network, gnubg style.

A position is a **race** when the sides are past contact: no checker of either side
has an opposing checker still ahead of it on its way home, and none is on the bar. In
the hitting games (H1's mirrored numbering) that is: one's rearmost checker ``P`` and
the opponent's ``Q``, each in its own numbering, with ``P + Q < 25``; in Long Nardy
(R2's rotated numbering) every opposing checker stands, in one's own numbering, beyond
one's rearmost, and the other way round (no prime can form in front of a checker
any more). The same test serves both: the opponent's point ``q`` is one's point
``m(q)`` (an involution), and a race is ``min m(Q_i) > P`` and ``min m(P_i) > Q``.
Once a race, always a race (checkers only move forward).

The classes, as the evaluation reads them (:class:`computer.search.Evaluator`):

- **bear-off**: both sides all home (:func:`computer.bearoff.in_domain`): the exact
  database;
- **race**: the race network (``computer/weights/<rules>-race.npz``, trained by
  ``python -m computer.lab.train_race``) where one is committed;
- **contact**: everything else: the rule set's network, as before.

The race network reads the same inputs as the contact one (the per-point counts, the
bar, borne off, the pip count, "all home" and the block features of
:mod:`computer.network`; in a race the blocks are zero) and records its rule set and
encoding the same way (its ``meta`` adds ``class=race``), so a mismatch is refused on
loading just the same.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .board import _BLACK_INDEX, Boards, Profile, profile
from .network import Net, WeightsMismatchError
from .weights_io import WEIGHTS_DIR

POINTS = 24


def race_weights_path(rules: str) -> Path:
    return WEIGHTS_DIR / f"{rules}-race.npz"


def _rear(occupied: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Per row the highest occupied point (1..24), 0 when none."""
    found: npt.NDArray[np.int64] = np.where(
        occupied.any(axis=1), POINTS - np.argmax(occupied[:, ::-1], axis=1), 0)
    return found


def _front_seen(occupied: npt.NDArray[np.bool_], to_other: npt.NDArray[np.int64],
                ) -> npt.NDArray[np.int64]:
    """Per row the lowest of the occupied points in the other side's numbering
    (``to_other[q - 1] + 1``), 25 when none."""
    seen = np.where(occupied, to_other + 1, 25)
    low: npt.NDArray[np.int64] = seen.min(axis=1)
    return low


def is_race(b: Boards, prof: Profile) -> npt.NDArray[np.bool_]:
    """Per row: past contact (module docstring)."""
    to_mine = _BLACK_INDEX[prof.numbering]  # the opponent's index q - 1 -> one's own
    mine, theirs = b.mine > 0, b.theirs > 0
    race: npt.NDArray[np.bool_] = (
        (b.bar.sum(axis=1) == 0)
        & (_front_seen(theirs, to_mine) > _rear(mine))
        & (_front_seen(mine, to_mine) > _rear(theirs)))
    return race


@cache
def load_race_net(rules: str, path: Path | None = None) -> Net | None:
    """The race network of ``rules`` in ``path`` (default the committed one), or None
    without the committed one. Raises :class:`~computer.network.WeightsMismatchError` for
    weights of another rule set, encoding or class, ``OSError`` for a given file that
    cannot be read."""
    if path is None:
        path = race_weights_path(rules)
        if not path.exists():
            return None
    net = Net.load(path, rules)
    if net.meta.get("class") != "race":
        raise WeightsMismatchError(f"{path}: not a race network (meta class="
                                   f"{net.meta.get('class')!r})")
    return net


def has_race_net(rules: str) -> bool:
    return profile(rules).bears_off and race_weights_path(rules).exists()
