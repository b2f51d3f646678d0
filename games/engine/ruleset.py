"""The interface every rule set of the engine implements.

Long Nardy (:mod:`games.engine.longnardy`) is one implementation; a hitting game of
the same family (bar, re-entry) would be a sibling module with its own position and
turn types, registered in :data:`games.engine.RULESETS`, never a special case inside
Long Nardy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from .position import Outcome
from .types import Side

PositionT = TypeVar("PositionT")
TurnT_co = TypeVar("TurnT_co", covariant=True)
PlayT_co = TypeVar("PlayT_co", covariant=True)


class RuleSet(Protocol[PositionT, TurnT_co, PlayT_co]):
    """What the server needs from a rule set: a start, turns, plays and results."""

    @property
    def name(self) -> str:
        """A stable identifier, e.g. ``"long_nardy"``."""
        ...

    def initial(self) -> PositionT:
        """The position every game starts from."""
        ...

    def start_turn(self, position: PositionT, side: Side, dice: tuple[int, int],
                   first_turn: bool) -> TurnT_co:
        """The turn state after ``side`` rolled ``dice``."""
        ...

    def legal_plays(self, position: PositionT, side: Side, dice: tuple[int, int],
                    first_turn: bool) -> Sequence[PlayT_co]:
        """Every legal complete play, one per distinct result."""
        ...

    def outcome(self, position: PositionT) -> Outcome | None:
        """The result when the game is over, else ``None``."""
        ...

    def resign_outcome(self, position: PositionT, resigning_side: Side) -> Outcome:
        """The result when ``resigning_side`` concedes now."""
        ...

    def turn_from_id(self, text: str) -> TurnT_co:
        """Parse a turn ID written by the turn state's ``to_id()``."""
        ...
