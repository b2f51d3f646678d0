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

from ..ruleset import LaterGames, Opening


@dataclass(frozen=True, slots=True)
class Variant:
    """One hitting game's rules, where they differ from the others."""

    name: str
    """The rule set's stable name (``RULESETS`` key)."""
    title: str
    tag: str
    """Two letters naming the rule set in its IDs: ``SN``, ``BG``, ``NR``."""
    start: dict[int, int]
    """H3: own point -> checkers, the same for both sides in their own numbering."""
    cap: int
    """H7: most own checkers on one point (0: no limit; ``nard``: 6)."""
    bear_off: bool
    """H12/H13: whether checkers are borne off (``nard``: no, the game ends when all
    15 are home)."""
    no_hit_and_hide: bool
    """H10 (``short_nardy``)."""
    opening: Opening
    later_games: LaterGames
    results: tuple[str, ...]
    """H15: result names, 1, 2 (and 3) points."""


_BACKGAMMON_START: Final = {24: 2, 13: 5, 8: 3, 6: 5}

SHORT_NARDY: Final = Variant(
    name="short_nardy", title="Short Nardy", tag="SN", start=_BACKGAMMON_START, cap=0,
    bear_off=True, no_hit_and_hide=True, opening="roll_off", later_games="loser_starts",
    results=("single", "mars", "koks"))
BACKGAMMON: Final = Variant(
    name="backgammon", title="Backgammon", tag="BG", start=_BACKGAMMON_START, cap=0,
    bear_off=True, no_hit_and_hide=False, opening="roll_off_played", later_games="roll_off",
    results=("single", "gammon", "backgammon"))
NARD: Final = Variant(
    name="nard", title="Nard", tag="NR", start={24: 2, 22: 2, 19: 3, 18: 2, 17: 3, 12: 3},
    cap=6, bear_off=False, no_hit_and_hide=False, opening="roll_off",
    later_games="loser_starts", results=("single", "mars"))

VARIANTS: Final[dict[str, Variant]] = {v.name: v for v in (SHORT_NARDY, BACKGAMMON, NARD)}
"""Every hitting game by rule-set name."""

BY_TAG: Final[dict[str, Variant]] = {v.tag: v for v in VARIANTS.values()}
