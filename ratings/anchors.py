"""The computer levels as fixed anchors of the rating scale (issue 25 item 3).

Each published rating is derived from the arena's measured head-to-head results
(docs/computer.md, "Measured strength": 1,000 games each unless said) by the expected
score of a 1-point match between two exactly known ratings (``g = 1``, ``L = 1``):

    E = 1 / (1 + 10^(−D/400))    so    D = 400 · log10(p / (1 − p))

starting from ``random`` = :data:`RANDOM` in every rule set and walking the chain of
measurements. They are data: they change only when the levels (or their measurements)
do. docs/ratings.md shows the arithmetic.
"""

from __future__ import annotations

import math
from typing import Final

RANDOM: Final = 1000.0
"""The floor of the scale: the uniformly random level, in every rule set."""

MEASURED: Final[dict[str, list[tuple[str, str, float, int]]]] = {
    # rules: [(A, B, A's share of games won, games)], in the order the chain is walked
    "long_nardy": [("heuristic", "random", 0.980, 1000), ("network", "heuristic", 0.766, 1000),
                   ("expert", "heuristic", 0.856, 1000)],
    "backgammon": [("heuristic", "random", 0.997, 1000), ("network", "heuristic", 0.677, 1000),
                   # via GNU Backgammon 0-ply (not a level): network 33.2 %, expert 42.8 %
                   ("gnubg", "network", 1 - 0.332, 500), ("expert", "gnubg", 0.428, 500)],
    # short nardy and nard: heuristic v random not measured there; Long Nardy's 98.0 %
    # (the same heuristic family) stands in for it until it is.
    "short_nardy": [("heuristic", "random", 0.980, 0), ("network", "heuristic", 0.656, 1000)],
    "nard": [("heuristic", "random", 0.980, 0), ("network", "heuristic", 0.608, 1000)],
}
"""The arena figures the anchors come from (``games`` 0: borrowed, see above)."""


def difference(share: float) -> float:
    """The rating difference at which the expected score of a 1-point match is ``share``."""
    return 400.0 * math.log10(share / (1.0 - share))


def _derive() -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = {}
    for rules, chain in MEASURED.items():
        known = {"random": RANDOM}
        for a, b, share, _ in chain:
            known[a] = round(known[b] + difference(share))
        known.pop("gnubg", None)  # a yardstick, not a level of ours
        table[rules] = {level: float(value) for level, value in known.items()}
    return table


ANCHORS: Final[dict[str, dict[str, float]]] = _derive()
"""rules → level → its published rating (levels without a measurement have none)."""


def anchor(rules: str, level: str) -> float | None:
    return ANCHORS.get(rules, {}).get(level)
