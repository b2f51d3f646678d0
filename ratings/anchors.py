"""The computer levels as fixed anchors of the rating scale.

Each published rating is derived from the arena's measured head-to-head results
(computer/lab/NOTEBOOK.md, "Round one: measured strength": 1,000 games each unless
said; the figures are data, in ``anchors.json``) by the expected score of a 1-point
match between two exactly known ratings (``g = 1``, ``L = 1``):

    E = 1 / (1 + 10^(−D/400))    so    D = 400 · log10(p / (1 − p))

starting from ``random`` = :data:`RANDOM` in every rule set and walking the chain of
measurements. They are data: they change only when the levels (or their measurements)
do. docs/ratings.md shows the arithmetic.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Final

RANDOM: Final = 1000.0
"""The floor of the scale: the uniformly random level, in every rule set."""

MEASURED: Final[dict[str, list[tuple[str, str, float, int]]]] = {
    rules: [(a, b, float(share), int(games)) for a, b, share, games in chain]
    for rules, chain in json.loads(
        (Path(__file__).with_name("anchors.json")).read_text(encoding="utf-8"))["measured"].items()}
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
