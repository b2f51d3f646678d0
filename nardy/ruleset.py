"""The interface every rule set of the engine implements, and the turn protocol.

The server reaches the rules only through :data:`nardy.RULESETS`
(``RULESETS[match.rules]``): positions, turns and results are values of the rule
set's own types, which all satisfy :class:`~nardy.board.BoardPosition` (in
:mod:`nardy.board`, below the codecs that read positions) and :class:`Turn` below.
Long Nardy (:mod:`nardy.longnardy`) is one implementation; the hitting games
(``short_nardy``, ``backgammon``, ``nard``) are siblings, never special cases inside
Long Nardy.

What differs between rule sets at the level of a match (who starts a game, whether
the opening roll is played) is data on the rule set's descriptor
(:attr:`RuleSet.opening` reads it), read by the one turn path in ``games.transitions``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Protocol

from .board import BoardPlay, BoardPosition
from .codec import BoardCodec
from .descriptor import Descriptor, LaterGames, Opening
from .moves import AskedStep, Step
from .outcome import Outcome
from .types import Side


class Turn(Protocol):
    """One side's turn in progress: immutable, :meth:`apply` returns the next one."""

    @property
    def position(self) -> BoardPosition: ...

    @property
    def side(self) -> Side: ...

    @property
    def dice(self) -> tuple[int, int]: ...

    @property
    def dice_left(self) -> tuple[int, ...]: ...

    @property
    def first_turn(self) -> bool: ...

    def legal_steps(self) -> tuple[Step, ...]:
        """R24/H11: the first steps of the complete plays the rules allow from here."""
        ...

    def hits(self, step: Step) -> bool:
        """Whether ``step``, played now, hits an opposing blot (always ``False`` in
        Long Nardy). Ask before :meth:`apply`."""
        ...

    def apply(self, step: Step) -> Turn:
        """Play one step (``die == 0`` resolved first). Raises ``IllegalMoveError``."""
        ...

    def apply_all(self, steps: Iterable[Step] | str) -> Turn: ...

    def resolve(self, src: int, dst: int) -> Step:
        """The legal step from ``src`` to ``dst``, finding its die. Raises
        ``IllegalMoveError`` (``ambiguous_die`` when several dice fit)."""
        ...

    def take(self, asked: Step | AskedStep) -> Step:
        """The step ``asked`` stands for (an asked step without a die is resolved).
        Raises ``NotationError`` for no step, ``IllegalMoveError`` as :meth:`resolve`."""
        ...

    def plays(self) -> Sequence[BoardPlay]:
        """The complete plays from this stop on."""
        ...

    def max_dice(self) -> int: ...

    def head_may_leave(self) -> int:
        """R13's counter (0 in rule sets without a head rule)."""
        ...

    def is_turn_over(self) -> bool: ...

    def pass_reason(self) -> str | None:
        """``"no legal move"`` when dice remain but none can be played, else ``None``."""
        ...

    def outcome(self) -> Outcome | None:
        """The result if the game ended on the board during this turn."""
        ...

    def to_id(self) -> str:
        """The turn ID; it names its rule set (docs/notation.md)."""
        ...


class RuleSet(Protocol):
    """What the server needs from a rule set: a start, turns, plays and results.

    Its facts are its :attr:`descriptor`'s; ``name``, ``title``, ``results``,
    ``opening`` and ``later_games`` are read there (:class:`DescribedRuleSet` reads
    them once for every rule set), never stated a second time."""

    @property
    def descriptor(self) -> Descriptor:
        """The rule set's facts (:mod:`nardy.descriptor`): every layer above the engine
        reads these instead of asking which rule set it is."""
        ...

    @property
    def name(self) -> str:
        """``descriptor.name``, a stable identifier, e.g. ``"long_nardy"``."""
        ...

    @property
    def title(self) -> str:
        """``descriptor.title``, a human name, e.g. ``"Long Nardy"``."""
        ...

    @property
    def codec(self) -> BoardCodec:
        """How its positions are written: the API board, the drawing, the packed form
        (:mod:`nardy.codec`)."""
        ...

    @property
    def opening(self) -> Opening:
        """``descriptor.opening``."""
        ...

    @property
    def later_games(self) -> LaterGames:
        """``descriptor.later_games``."""
        ...

    @property
    def results(self) -> tuple[str, ...]:
        """``descriptor.result_names``: the result names a game won on the board may
        have (H15), e.g. ``("single", "mars")``."""
        ...

    def initial(self) -> BoardPosition:
        """The position every game starts from."""
        ...

    def start_turn(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                   first_turn: bool) -> Turn:
        """The turn state after ``side`` rolled ``dice``."""
        ...

    def legal_plays(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                    first_turn: bool) -> Sequence[BoardPlay]:
        """Every legal complete play, one per distinct result."""
        ...

    def legal_positions(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                        first_turn: bool) -> Sequence[BoardPosition]:
        """The resulting positions of :meth:`legal_plays`, in the same order, without
        building the plays (faster: what a search over the dice needs)."""
        ...

    def legal_positions_packed(self, position: BoardPosition, side: Side,
                               rolls: Iterable[tuple[int, int]], first_turn: bool,
                               ) -> tuple[bytes, ...]:
        """For each of ``rolls``, the results of :meth:`legal_positions` (in the same
        order) packed for a program that reads many at once (NumPy): records of
        :attr:`codec`'s ``packed_size`` bytes in its ``layout``, each the bytes of
        ``codec.pack`` (the built-in games: ``signed24``, 26 signed bytes, the counts
        on White's points 1..24, then White's and Black's checkers on the bar; what is
        missing from 15 is borne off). A search over the dice asks for all 21 rolls at
        once: they share work."""
        ...

    def outcome(self, position: BoardPosition) -> Outcome | None:
        """The result when the game is over, else ``None``."""
        ...

    def resign_outcome(self, position: BoardPosition, resigning_side: Side) -> Outcome:
        """The result when ``resigning_side`` concedes now (R30, H16)."""
        ...

    def position_from_id(self, text: str) -> BoardPosition:
        """Parse a position ID. Raises ``NotationError``."""
        ...

    def turn_from_id(self, text: str) -> Turn:
        """Parse a turn ID written by the turn's ``to_id()``. Raises ``NotationError``."""
        ...

    def position_from_perspective(self, side: Side, counts: Mapping[int, int],
                                  off_mine: int = 0, off_theirs: int = 0,
                                  bar_mine: int = 0, bar_theirs: int = 0) -> BoardPosition:
        """A position from a board in ``side``'s numbering (the API's board shape).
        Raises ``InvalidPositionError`` saying what is wrong."""
        ...


class DescribedRuleSet:
    """The part of a rule set its :class:`~nardy.descriptor.Descriptor` answers: the
    rule set's ``name``, ``title``, ``results``, ``opening`` and ``later_games`` are
    read from :attr:`descriptor`, so they cannot disagree with it. Every built-in rule
    set is one (``LongNardy``, ``HittingGame``).

    >>> from nardy.descriptor import NARD
    >>> rules = DescribedRuleSet(NARD)
    >>> rules.name, rules.title, rules.results, rules.opening, rules.later_games
    ('nard', 'Nard', ('single', 'mars'), 'roll_off', 'loser_starts')
    """

    def __init__(self, descriptor: Descriptor) -> None:
        self.descriptor: Final = descriptor

    @property
    def name(self) -> str:
        return self.descriptor.name

    @property
    def title(self) -> str:
        return self.descriptor.title

    @property
    def results(self) -> tuple[str, ...]:
        return self.descriptor.result_names

    @property
    def opening(self) -> Opening:
        return self.descriptor.opening

    @property
    def later_games(self) -> LaterGames:
        return self.descriptor.later_games
