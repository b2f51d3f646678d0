"""What differs between the hitting games, as data (RULES-FAMILY H3-H5, H7, H10, H13, H15).

Everything the three games share (bar, entering, hitting, bearing off, forced play)
is written once in :mod:`.generate` and :mod:`.turn`; a :class:`Variant` only says
which of the differing rules apply.

>>> VARIANTS["nard"].cap, VARIANTS["nard"].bear_off, VARIANTS["short_nardy"].no_hit_and_hide
(6, False, True)
>>> sum(VARIANTS["backgammon"].start.values())
15
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import descriptor as d
from ..descriptor import Descriptor
from ..ruleset import LaterGames, Opening


@dataclass(frozen=True, slots=True)
class Variant:
    """One hitting game's rules, where they differ from the others: its
    :class:`~nardy.descriptor.Descriptor` (the facts every layer reads) and the one rule
    only the move generator needs (H10)."""

    descriptor: Descriptor
    no_hit_and_hide: bool
    """H10 (``short_nardy``)."""

    @property
    def name(self) -> str:
        """The rule set's stable name (``RULESETS`` key)."""
        return self.descriptor.name

    @property
    def title(self) -> str:
        return self.descriptor.title

    @property
    def tag(self) -> str:
        """Two letters naming the rule set in its IDs: ``SN``, ``BG``, ``NR``."""
        return self.descriptor.tag

    @property
    def start(self) -> dict[int, int]:
        """H3: own point -> checkers, the same for both sides in their own numbering."""
        return self.descriptor.start

    @property
    def cap(self) -> int:
        """H7: most own checkers on one point (0: no limit; ``nard``: 6)."""
        return self.descriptor.cap

    @property
    def bear_off(self) -> bool:
        """H12/H13: whether checkers are borne off (``nard``: no, the game ends when all
        15 are home)."""
        return self.descriptor.bears_off

    @property
    def opening(self) -> Opening:
        return self.descriptor.opening

    @property
    def later_games(self) -> LaterGames:
        return self.descriptor.later_games

    @property
    def results(self) -> tuple[str, ...]:
        """H15: result names, 1, 2 (and 3) points."""
        return self.descriptor.result_names


SHORT_NARDY: Final = Variant(d.SHORT_NARDY, no_hit_and_hide=True)
BACKGAMMON: Final = Variant(d.BACKGAMMON, no_hit_and_hide=False)
NARD: Final = Variant(d.NARD, no_hit_and_hide=False)

VARIANTS: Final[dict[str, Variant]] = {v.name: v for v in (SHORT_NARDY, BACKGAMMON, NARD)}
"""Every hitting game by rule-set name (a game added at run time joins through
:func:`add_variant`)."""

BY_TAG: Final[dict[str, Variant]] = {v.tag: v for v in VARIANTS.values()}


def add_variant(variant: Variant) -> None:
    """Make ``variant``'s positions and IDs known (``HittingGame`` does it). Raises
    ``ValueError`` when another variant already has its name or tag."""
    for table, key in ((VARIANTS, variant.name), (BY_TAG, variant.tag)):
        known = table.get(key)
        if known is not None and known is not variant:
            raise ValueError(f"a hitting game {known.name!r} already uses {key!r}")
    if len(variant.tag) != 2:
        raise ValueError(f"a hitting game's tag is two letters, not {variant.tag!r}")
    VARIANTS[variant.name] = variant
    BY_TAG[variant.tag] = variant


def remove_variant(variant: Variant) -> None:
    """Forget ``variant`` (the reverse of :func:`add_variant`; a no-op if unknown)."""
    if VARIANTS.get(variant.name) is variant:
        del VARIANTS[variant.name]
    if BY_TAG.get(variant.tag) is variant:
        del BY_TAG[variant.tag]
