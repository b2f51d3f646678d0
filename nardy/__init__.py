"""The rules engine: pure Python, standard library only, no Django.

The public API::

    from nardy import (WHITE, BLACK, SIDE_NAMES, Side, other, Step, Play, Position,
        TurnState, Outcome, IllegalMoveError, NotationError, legal_plays, match_winner,
        to_perspective, RULESET)

See ``docs/notation.md`` for step/play notation and the position and turn IDs.
"""

from __future__ import annotations

from typing import Final

from .codec import ApiBoard, BoardCodec, SignedCounts
from .errors import EngineError, IllegalMoveError, InvalidPositionError, NotationError
from .hitting import (
    BACKGAMMON_RULES,
    NARD_RULES,
    SHORT_NARDY_RULES,
    HitPlay,
    HitPosition,
    HittingGame,
    HitTurn,
)
from .longnardy import LongNardy, TurnState, legal_plays
from .moves import PASS_TEXT, AskedStep, Play, Step, format_play, parse_play
from .outcome import MAX_TURNS_PER_GAME, RESULT_POINTS, Outcome, match_winner
from .position import Position, resign_outcome
from .ruleset import PACKED_SIZE, BoardPlay, BoardPosition, LaterGames, Opening, RuleSet, Turn
from .types import (
    BLACK,
    CHECKERS,
    HEAD,
    SIDE_NAMES,
    WHITE,
    Side,
    opp,
    other,
    parse_side,
    side_name,
    to_perspective,
)

RULESET: Final[LongNardy] = LongNardy()
"""Long Nardy, the rule set this project plays."""

RULESETS: Final[dict[str, RuleSet]] = {
    RULESET.name: RULESET,
    SHORT_NARDY_RULES.name: SHORT_NARDY_RULES,
    BACKGAMMON_RULES.name: BACKGAMMON_RULES,
    NARD_RULES.name: NARD_RULES,
}
"""Every rule set by name; the server reaches the rules only through this."""


def ruleset(name: str) -> RuleSet:
    """The rule set called ``name``. Raises ``KeyError`` naming the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"no rule set {name!r}; known: {', '.join(RULESETS)}") from None

__all__ = [
    "BACKGAMMON_RULES",
    "BLACK",
    "CHECKERS",
    "HEAD",
    "MAX_TURNS_PER_GAME",
    "NARD_RULES",
    "PACKED_SIZE",
    "PASS_TEXT",
    "RESULT_POINTS",
    "RULESET",
    "RULESETS",
    "SHORT_NARDY_RULES",
    "SIDE_NAMES",
    "WHITE",
    "ApiBoard",
    "AskedStep",
    "BoardCodec",
    "BoardPlay",
    "BoardPosition",
    "EngineError",
    "HitPlay",
    "HitPosition",
    "HitTurn",
    "HittingGame",
    "IllegalMoveError",
    "InvalidPositionError",
    "LaterGames",
    "LongNardy",
    "NotationError",
    "Opening",
    "Outcome",
    "Play",
    "Position",
    "RuleSet",
    "Side",
    "SignedCounts",
    "Step",
    "Turn",
    "TurnState",
    "format_play",
    "legal_plays",
    "match_winner",
    "opp",
    "other",
    "parse_play",
    "parse_side",
    "resign_outcome",
    "ruleset",
    "side_name",
    "to_perspective",
]
