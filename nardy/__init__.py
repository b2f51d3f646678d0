"""The rules engine: pure Python, standard library only, no Django.

The public API::

    from nardy import (WHITE, BLACK, SIDE_NAMES, Side, other, Step, Play, Position,
        TurnState, Outcome, IllegalMoveError, NotationError, legal_plays, match_winner,
        to_perspective, LONG_NARDY_RULES, SHORT_NARDY_RULES, BACKGAMMON_RULES, NARD_RULES,
        RULESETS, ruleset, descriptor_of, descriptors, register, unregister, DEFAULT_RULES)

A rule set's facts (title, results, head, bar, …) are its :class:`Descriptor`
(:mod:`nardy.descriptor`), stated there once; :mod:`nardy.registry` holds the playable
rule sets.

See ``docs/notation.md`` for step/play notation and the position and turn IDs.
"""

from __future__ import annotations

from .board import BoardPlay, BoardPosition
from .codec import PACKED_SIZE, ApiBoard, BoardCodec, SignedCounts
from .descriptor import Descriptor, LaterGames, Opening, ResultKind
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
from .longnardy import LONG_NARDY_RULES, LongNardy, TurnState, legal_plays
from .moves import PASS_TEXT, AskedStep, Play, Step, format_play, parse_play
from .outcome import MAX_TURNS_PER_GAME, RESULT_POINTS, Outcome, match_winner, resign_offers
from .position import Position, resign_outcome
from .registry import (
    DEFAULT_RULES,
    RULESETS,
    descriptor_of,
    descriptors,
    register,
    ruleset,
    unregister,
)
from .ruleset import DescribedRuleSet, RuleSet, Turn
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

__all__ = [
    "BACKGAMMON_RULES",
    "BLACK",
    "CHECKERS",
    "DEFAULT_RULES",
    "HEAD",
    "LONG_NARDY_RULES",
    "MAX_TURNS_PER_GAME",
    "NARD_RULES",
    "PACKED_SIZE",
    "PASS_TEXT",
    "RESULT_POINTS",
    "RULESETS",
    "SHORT_NARDY_RULES",
    "SIDE_NAMES",
    "WHITE",
    "ApiBoard",
    "AskedStep",
    "BoardCodec",
    "BoardPlay",
    "BoardPosition",
    "DescribedRuleSet",
    "Descriptor",
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
    "ResultKind",
    "RuleSet",
    "Side",
    "SignedCounts",
    "Step",
    "Turn",
    "TurnState",
    "descriptor_of",
    "descriptors",
    "format_play",
    "legal_plays",
    "match_winner",
    "opp",
    "other",
    "parse_play",
    "parse_side",
    "register",
    "resign_offers",
    "resign_outcome",
    "ruleset",
    "side_name",
    "to_perspective",
    "unregister",
]
