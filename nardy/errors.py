"""The engine's exceptions: a small ``ValueError`` family.

- :class:`NotationError` — text that is not valid step/play notation or a malformed ID.
- :class:`InvalidPositionError` — a board that cannot exist (wrong counts, bad points).
- :class:`IllegalMoveError` — well-formed, but the rules refuse it here; ``reason``
  is a stable snake_case code (see ``docs/notation.md`` for the list).
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(EngineError):
    """Malformed step/play notation or position/turn ID."""


class InvalidPositionError(EngineError):
    """A board that breaks R3 (15 checkers a side) or the board shape."""


class IllegalMoveError(EngineError):
    """A step or play the rules do not allow in this state.

    ``reason`` is one of the stable codes: ``invalid_step``, ``game_over``,
    ``turn_over``, ``no_such_die``, ``wrong_side``, ``no_checker``, ``point_blocked``,
    ``head_rule``, ``prime_rule``, ``not_all_home``, ``bear_off_not_exact``,
    ``must_play_both``, ``must_play_larger``, ``must_play_max``, ``ambiguous_die``;
    and in the hitting games (RULES-FAMILY): ``bar_first`` (H9: a checker on the bar
    must enter first), ``hit_and_hide`` (H10, ``short_nardy``), ``point_full`` (H7,
    ``nard``'s six on a point), ``no_bear_off`` (H13, ``nard``).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalMoveError({self.reason!r}, {self.message!r})"
