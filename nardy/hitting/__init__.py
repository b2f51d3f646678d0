"""The hitting games of the nardy family: ``short_nardy``, ``backgammon`` and ``nard``
(``RULES-FAMILY.md`` H1-H16), as siblings of Long Nardy behind the ``RuleSet``
interface.

What they share (the bar, entering, hitting, bearing off, forced play) is written once
(:mod:`.generate`, :mod:`.turn`); what differs is a :class:`~.variants.Variant`
(:mod:`.variants`). Positions are :class:`HitPosition` (:mod:`.position`), turns
:class:`HitTurn` and plays :class:`HitPlay`.

>>> SHORT_NARDY_RULES.name, BACKGAMMON_RULES.opening, NARD_RULES.results
('short_nardy', 'roll_off_played', ('single', 'mars'))
"""

from __future__ import annotations

from typing import Final

from .position import HitPosition
from .turn import HitPlay, HittingGame, HitTurn
from .variants import BACKGAMMON, NARD, SHORT_NARDY, VARIANTS, Variant

SHORT_NARDY_RULES: Final = HittingGame(SHORT_NARDY)
BACKGAMMON_RULES: Final = HittingGame(BACKGAMMON)
NARD_RULES: Final = HittingGame(NARD)
HITTING_RULESETS: Final[tuple[HittingGame, ...]] = (SHORT_NARDY_RULES, BACKGAMMON_RULES,
                                                    NARD_RULES)

__all__ = [
    "BACKGAMMON_RULES",
    "HITTING_RULESETS",
    "NARD_RULES",
    "SHORT_NARDY_RULES",
    "VARIANTS",
    "HitPlay",
    "HitPosition",
    "HitTurn",
    "HittingGame",
    "Variant",
]
