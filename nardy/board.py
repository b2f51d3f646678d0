"""What a position and a play of any rule set offer the layers above, whatever the rule
set: the protocols :class:`BoardPosition` and :class:`BoardPlay`.

They sit below the board codecs (:mod:`nardy.codec`), which read positions, and the rule
set protocol (:mod:`nardy.ruleset`), which makes and plays them.
"""

from __future__ import annotations

from typing import Protocol

from .moves import Step
from .types import Side


class BoardPosition(Protocol):
    """A position of any rule set, as the server reads it.

    The board methods below see one colour per point; a layer that shapes, draws or
    packs a board goes through the rule set's :attr:`~nardy.ruleset.RuleSet.codec`,
    which knows the whole layout (a point holding both colours included)."""

    @property
    def rules(self) -> str:
        """The name of its rule set (``RULESETS[position.rules]``)."""
        ...

    def in_perspective(self, side: Side) -> dict[int, int]:
        """Point (1..24, ``side``'s numbering) → signed count, positive ``side``'s."""
        ...

    def off_of(self, side: Side) -> int:
        """Checkers ``side`` has borne off."""
        ...

    def bar_of(self, side: Side) -> int:
        """Checkers ``side`` has on the bar (0 in games without hitting)."""
        ...

    def to_id(self) -> str:
        """The position ID; it names its rule set (docs/notation.md)."""
        ...


class BoardPlay(Protocol):
    """A complete play of any rule set: its steps in order and the resulting position
    (Long Nardy's :class:`~nardy.moves.Play`, the hitting games' ``HitPlay``,
    which also carries ``hits``, one flag per step). ``str()`` writes its notation."""

    @property
    def steps(self) -> tuple[Step, ...]: ...

    @property
    def position(self) -> BoardPosition: ...
