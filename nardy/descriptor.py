"""What a rule set *is*, as data: the one source of rule-set facts for every layer.

A :class:`Descriptor` says what a layer above the engine needs to know about a rule set
without asking which one it is: its title (one spelling; translated at the edge), the
results a game won on the board may have and their worth, whether it has a head rule,
hits, a bar, bears off, how the two sides number the points, how a match's games begin.
The server's choices, the record's titles, the admin, the computer's profile, the
heuristic and the web client (through ``GET rules/``) all read it; nothing outside the
engine spells a rule set's name or branches on it.

>>> LONG_NARDY.title, LONG_NARDY.head, LONG_NARDY.hits, LONG_NARDY.worth("mars")
('Long Nardy', True, False, 2)
>>> BACKGAMMON.triple, NARD.bears_off, NARD.cap
(True, False, 6)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

Opening = Literal["roll_off", "roll_off_played"]
"""How a game that needs a starter begins (H4): ``roll_off`` — one die each, the two
dice are not played and the starter then rolls (R7); ``roll_off_played`` — the higher
die starts and plays the two roll-off dice as its first turn (backgammon)."""

LaterGames = Literal["loser_starts", "roll_off"]
"""Who starts the second and later games of a match (R8, H5)."""

Numbering = Literal["rotated", "mirrored"]
"""How the opponent's point numbers map to one's own: ``rotated`` — the opponent's
point ``q`` is one's ``q ± 12`` (Long Nardy, R2: both sides travel the same way round,
starting from opposite corners); ``mirrored`` — it is one's ``25 − q`` (the hitting
games, H1: the two sides travel in opposite directions)."""


@dataclass(frozen=True, slots=True)
class ResultKind:
    """One result a game won on the board may have (R29, H15)."""

    name: str
    """The stable name in the API and the record: ``single``, ``mars``, ``gammon``,
    ``koks``, ``backgammon``."""
    points: int
    """Its worth before any stake: 1, 2 or 3."""
    title: str
    """A human name, e.g. ``"Mars"``."""
    explanation: str
    """One sentence a player reads on the result, e.g. why it is a mars."""


@dataclass(frozen=True, slots=True)
class Descriptor:
    """The facts of one rule set (see the module docstring)."""

    name: str
    """The stable name: the API's ``rules``, the key of ``RULESETS``."""
    title: str
    """The human name, one spelling: ``"Short Nardy"``."""
    tag: str
    """Two letters naming the rule set in its position and turn IDs (docs/notation.md);
    empty for Long Nardy, whose IDs (``P1-…``) came before the tags."""
    results: tuple[ResultKind, ...]
    """The results of a game won on the board, from the least (``single``) up."""
    head: bool
    """Long Nardy's head rule (R11): one checker a turn leaves own point 24."""
    hits: bool
    """A lone checker can be hit and sent to the bar (H7)."""
    bar: bool
    """Checkers stand on a bar and enter from it (H8). ``False``: the API's ``bar`` is
    always zeros."""
    bears_off: bool
    """The game ends by bearing off 15 checkers; ``False``: it ends when all 15 are home
    (``nard``, H13)."""
    cap: int
    """The most own checkers one point may hold (0: no limit; ``nard``: 6, H7)."""
    numbering: Numbering
    start: dict[int, int]
    """The starting layout, own point -> checkers, the same for both sides in their own
    numbering."""
    opening: Opening
    later_games: LaterGames
    summary: str
    """One sentence saying what the game is, for a menu."""
    home: tuple[int, ...] = field(default=(1, 2, 3, 4, 5, 6))
    """The own points of the home, where checkers must be before bearing off."""

    @property
    def triple(self) -> bool:
        """Some result is worth 3 points (koks, backgammon)."""
        return any(r.points == 3 for r in self.results)

    @property
    def result_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.results)

    def worth(self, result: str) -> int:
        """The points of ``result`` in this rule set. Raises ``KeyError`` for a result
        this rule set does not have."""
        for r in self.results:
            if r.name == result:
                return r.points
        raise KeyError(f"{self.title} has no result {result!r}; "
                       f"it has {', '.join(self.result_names)}")


SINGLE: Final = ResultKind("single", 1, "Single",
                           "The loser had borne off at least one checker.")
_LONG_MARS: Final = ResultKind("mars", 2, "Mars",
                               "The loser had borne off no checker (R29).")
_HIT_MARS: Final = ResultKind("mars", 2, "Mars",
                              "The loser had no checker in its home (H15).")
_KOKS: Final = ResultKind("koks", 3, "Koks",
                          "The loser still had a checker on the bar or in the winner's home "
                          "(H15).")
_GAMMON: Final = ResultKind("gammon", 2, "Gammon",
                            "The loser had borne off no checker (H15).")
_BACKGAMMON: Final = ResultKind("backgammon", 3, "Backgammon",
                                "The loser had borne off no checker and still had one on the "
                                "bar or in the winner's home (H15).")
_SHORT_MARS: Final = ResultKind("mars", 2, "Mars", "The loser had borne off no checker (H15).")

_BACKGAMMON_START: Final = {24: 2, 13: 5, 8: 3, 6: 5}

LONG_NARDY: Final = Descriptor(
    name="long_nardy", title="Long Nardy", tag="", results=(SINGLE, _LONG_MARS),
    head=True, hits=False, bar=False, bears_off=True, cap=0, numbering="rotated",
    start={24: 15}, opening="roll_off", later_games="loser_starts",
    summary="No hitting: all 15 checkers start on the head and race the same way round; "
            "block the opponent with your own points.")
SHORT_NARDY: Final = Descriptor(
    name="short_nardy", title="Short Nardy", tag="SN", results=(SINGLE, _SHORT_MARS, _KOKS),
    head=False, hits=True, bar=True, bears_off=True, cap=0, numbering="mirrored",
    start=_BACKGAMMON_START, opening="roll_off", later_games="loser_starts",
    summary="Backgammon's board with hitting, but no hit-and-hide and koks for three.")
BACKGAMMON: Final = Descriptor(
    name="backgammon", title="Backgammon", tag="BG",
    results=(SINGLE, _GAMMON, _BACKGAMMON), head=False, hits=True, bar=True, bears_off=True,
    cap=0, numbering="mirrored", start=_BACKGAMMON_START, opening="roll_off_played",
    later_games="roll_off",
    summary="The classic: hitting, the bar, gammons and backgammons; the opening roll "
            "is played.")
NARD: Final = Descriptor(
    name="nard", title="Nard", tag="NR", results=(SINGLE, _HIT_MARS), head=False, hits=True,
    bar=True, bears_off=False, cap=6, numbering="mirrored",
    start={24: 2, 22: 2, 19: 3, 18: 2, 17: 3, 12: 3}, opening="roll_off",
    later_games="loser_starts",
    summary="The Persian game: hitting, at most six checkers a point, and the game ends "
            "when all 15 are home.")
