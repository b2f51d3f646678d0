"""How a game ends and how a match is won: shared by every rule set (R28-R31, H14-H17).

>>> Outcome(WHITE, 2, "mars").mars
True
>>> Outcome(BLACK, 1, "single")
Outcome(winner=1, points=1, result='single')
>>> match_winner((3, 1), 3), match_winner((2, 2), 3)
(0, None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .descriptor import ResultKind
from .types import BLACK, WHITE, Side, check_side

RESULT_POINTS: Final[dict[str, int]] = {}
"""Every result name a game won on the board can have, with its points (R29, H15): the
registered rule sets' descriptors' results, filled by ``nardy.register`` alone (and
emptied of a rule set's own results by ``nardy.unregister``)."""

MAX_TURNS_PER_GAME: Final = 2_000
"""A cap on the turns of one game, for every program that plays games: the server
refuses the roll past it and the computer's games stop there. No rule ends a game by
its length; no real game comes close (a denial-of-service guard)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A game's result before any stake: ``winner``, ``points`` and the ``result`` name.

    ``result`` is ``single`` (1 point), ``mars`` / ``gammon`` (2) or ``koks`` /
    ``backgammon`` (3); which names a rule set uses is its own (R29, H15).
    Raises ``ValueError`` for a points/result pair that does not agree.
    """

    winner: Side
    points: int
    result: str

    def __post_init__(self) -> None:
        check_side(self.winner)
        if RESULT_POINTS.get(self.result) != self.points:
            raise ValueError(f"an outcome is single (1), mars/gammon (2) or koks/backgammon "
                             f"(3), not points={self.points!r} result={self.result!r}")

    @property
    def mars(self) -> bool:
        """More than a single game: mars, koks, gammon or backgammon."""
        return self.result != "single"


def match_winner(score: tuple[int, int], length: int) -> Side | None:
    """R31/H17: the side whose score (``(white, black)``) reached or passed ``length``.

    Raises ``ValueError`` for a length below 1, a negative score or both sides
    having reached the length (one game cannot give both sides points).
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"match length must be a positive int, not {length!r}")
    white, black = score
    if white < 0 or black < 0:
        raise ValueError(f"scores cannot be negative: {score!r}")
    if white >= length and black >= length:
        raise ValueError(f"both sides cannot have reached {length}: {score!r}")
    if white >= length:
        return WHITE
    if black >= length:
        return BLACK
    return None


def resign_offers(results: Iterable[ResultKind], conceded: Outcome) -> tuple[Outcome, ...]:
    """R30/H16 with a choice: the results a resigning side may offer instead of conceding
    ``conceded`` (what the position gives now, :meth:`RuleSet.resign_outcome`) — each of
    the rule set's ``results`` (its descriptor's, from ``single`` up) worth less than
    ``conceded`` (offering as much is resigning) and never less than a single, won by
    ``conceded.winner``. The opponent accepts one (the game ends with it) or refuses it
    (play goes on). Nothing is offered when resigning concedes a single.

    >>> from nardy.descriptor import BACKGAMMON
    >>> [o.result for o in resign_offers(BACKGAMMON.results, Outcome(WHITE, 3, "backgammon"))]
    ['single', 'gammon']
    >>> resign_offers(BACKGAMMON.results, Outcome(WHITE, 1, "single"))
    ()
    """
    return tuple(Outcome(conceded.winner, kind.points, kind.name) for kind in results
                 if kind.points < conceded.points)
