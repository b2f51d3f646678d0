"""The computer's lab: what makes and measures the runtime's networks, never imported
by it (``python -m computer.lab <command>``, :mod:`computer.lab.__main__`).

- training: :mod:`~computer.lab.train` (TD(λ) self-play), :mod:`~computer.lab.train_race`
  (the race network), :mod:`~computer.lab.train_search` (the network fitted to its own
  search), :mod:`~computer.lab.race_rollouts` (the race network fitted to rollouts),
  :mod:`~computer.lab.ensemble` (networks averaged into one);
- measuring: :mod:`~computer.lab.arena` (games between two players, with the win rate's
  interval), :mod:`~computer.lab.match` (games between two levels),
  :mod:`~computer.lab.gnubg` (GNU Backgammon as an arena player),
  :mod:`~computer.lab.champion` (MetinGames' Long Narde bot as one),
  :mod:`~computer.lab.external` (what the two share);
- :mod:`~computer.lab.bearoff`: building the exact bear-off databases;
- :mod:`~computer.lab.client`: the reference bot client, a standalone client of the
  public API;
- ``computer/lab/weights/``: networks kept for comparison, the previous committed ones
  (``previous/``) and candidates not adopted (``candidates/``), each with its log.

The runtime (``computer`` outside this package) loads only ``computer/weights/``.
"""

from __future__ import annotations

from pathlib import Path

from computer.network import Net

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
PREVIOUS_DIR = WEIGHTS_DIR / "previous"
"""The networks the committed ones replaced (``<rules>.npz`` and its log): the arena's
``--b-weights`` for a comparison, a training's ``--init``. An older one replaced in its
turn stays as ``<rules>-<encoding>.npz`` (:func:`previous_network`)."""
CANDIDATES_DIR = WEIGHTS_DIR / "candidates"
"""Networks trained on and measured but not adopted, each with its log."""


def previous_network(rules: str, encoding: str | None = None) -> Path:
    """The weights file of the network the committed one of ``rules`` replaced; with
    ``encoding``, the newest replaced network trained with that encoding (the previous
    one if it was, else ``<rules>-<encoding>.npz`` beside it). Raises
    ``FileNotFoundError`` when there is none."""
    path = PREVIOUS_DIR / f"{rules}.npz"
    if encoding is not None and (not path.exists()
                                 or Net.load(path, rules).meta.get("encoding") != encoding):
        path = PREVIOUS_DIR / f"{rules}-{encoding}.npz"
    if not path.exists():
        kind = f" of {encoding}" if encoding else ""
        raise FileNotFoundError(f"no previous {rules} network{kind} in {PREVIOUS_DIR}")
    return path

