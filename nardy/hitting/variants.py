"""What differs between the hitting games, as data (RULES-FAMILY H3-H5, H7, H10, H13, H15).

Everything the three games share (bar, entering, hitting, bearing off, forced play)
is written once in :mod:`.generate` and :mod:`.turn`; a :class:`Variant` only says
which of the differing rules apply: its descriptor's facts and the one rule only the
move generator needs.

>>> NARD.descriptor.cap, NARD.descriptor.bears_off, SHORT_NARDY.no_hit_and_hide
(6, False, True)
>>> sum(BACKGAMMON.descriptor.start.values())
15
>>> VARIANTS["nard"] is NARD and BY_TAG["NR"] is NARD
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import descriptor as d
from ..descriptor import Descriptor


@dataclass(frozen=True, slots=True)
class Variant:
    """One hitting game's rules, where they differ from the others: its
    :class:`~nardy.descriptor.Descriptor` (the facts every layer reads: name, tag,
    start, cap, whether it bears off, results…) and the one rule only the move
    generator needs (H10)."""

    descriptor: Descriptor
    no_hit_and_hide: bool
    """H10 (``short_nardy``)."""


SHORT_NARDY: Final = Variant(d.SHORT_NARDY, no_hit_and_hide=True)
BACKGAMMON: Final = Variant(d.BACKGAMMON, no_hit_and_hide=False)
NARD: Final = Variant(d.NARD, no_hit_and_hide=False)

VARIANTS: Final[dict[str, Variant]] = {}
"""The registered hitting games' variants by rule-set name: what a position reads its
rules from (``HitPosition.variant``). Filled and emptied by ``nardy.register`` and
``nardy.unregister`` alone."""

BY_TAG: Final[dict[str, Variant]] = {}
"""The same variants by their descriptor's tag, what a position or turn ID begins
with. Filled and emptied with :data:`VARIANTS`."""
