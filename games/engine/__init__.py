"""The rules engine: pure Python, standard library only, no Django.

The public API::

    from games.engine import (WHITE, BLACK, Side, other, Step, Play, Position, TurnState,
        Outcome, IllegalMoveError, NotationError, legal_plays, match_winner,
        to_perspective, RULESET)

See ``docs/notation.md`` for step/play notation and the position and turn IDs.
"""

from __future__ import annotations

from typing import Any, Final

from .errors import EngineError, IllegalMoveError, InvalidPositionError, NotationError
from .longnardy import LongNardy, TurnState, legal_plays
from .moves import PASS_TEXT, Play, Step, format_play, parse_play
from .position import Outcome, Position, match_winner, resign_outcome
from .ruleset import RuleSet
from .types import (
    BLACK,
    CHECKERS,
    HEAD,
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

RULESETS: Final[dict[str, RuleSet[Any, Any, Any]]] = {RULESET.name: RULESET}
"""Every rule set by name."""

__all__ = [
    "BLACK",
    "CHECKERS",
    "HEAD",
    "PASS_TEXT",
    "RULESET",
    "RULESETS",
    "WHITE",
    "EngineError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LongNardy",
    "NotationError",
    "Outcome",
    "Play",
    "Position",
    "RuleSet",
    "Side",
    "Step",
    "TurnState",
    "format_play",
    "legal_plays",
    "match_winner",
    "opp",
    "other",
    "parse_play",
    "parse_side",
    "resign_outcome",
    "side_name",
    "to_perspective",
]
