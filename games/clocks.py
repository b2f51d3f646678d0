"""Clocks: the deadline of the side to act, when it is late, when a match is
abandoned. Pure reads of a match; the writes are :mod:`games.transitions`' (claim,
abandon) and :mod:`games.services`' (the locked checks, the sweep).

The deadline is set by every committed change of an active match with a clock
(:meth:`games.unit_of_work.Change.commit`): ``turn_seconds`` after the commit of the
previous action, the same for every reader. A side is **late** once its deadline has
passed (the waiting side may then claim the game); a match is **abandoned** once the side
to act is late by more than :func:`abandon_after` — ``ABANDON_MULTIPLE`` times the limit,
and at least a day for correspondence clocks (an hour or more) — and is then settled as
a resignation of the match, by the sweep (``manage.py sweep_clocks``) or lazily by the
next request that reads or acts on it. Nothing sleeps per match.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from games import opponents
from games.models import GamePhase, Match, MatchStatus, side_of
from nardy import BLACK, WHITE, Side

ABANDON_MULTIPLE: Final = 3
"""A match is abandoned when its side to act is late by more than this many limits…"""
CORRESPONDENCE_SECONDS: Final = 3600
CORRESPONDENCE_GRACE: Final = timedelta(days=1)
"""…and, for a clock of an hour or more a move (correspondence), by more than a day."""
WARN_FRACTION: Final = 0.25
"""The sweep logs a ``deadline`` warning once this share of the limit is left…"""
WARN_AT_MOST: Final = timedelta(hours=1)
"""…but never earlier than an hour before the deadline."""


def deadline_after(match: Match, now: datetime) -> datetime | None:
    """The deadline a change committed at ``now`` sets: ``None`` without a clock, when
    the match is not active, when no side has to act, or when only the server's own
    computer has to act (:func:`computer_to_act`)."""
    game = match.current_game
    if (not match.turn_seconds or match.status != MatchStatus.ACTIVE or game is None
            or game.phase == GamePhase.FINISHED or computer_to_act(match)):
        return None
    return now + timedelta(seconds=match.turn_seconds)


def computer_to_act(match: Match) -> bool:
    """Every side the clock would run for is a built-in computer account
    (:mod:`games.opponents`). Its turns have no deadline: they wait on
    the task queue, not on a person, so a queued job or a worker that is down must never
    lose the computer a game on time. The clock starts again, whole, from the commit of
    the computer's action; a match found with a deadline set while the computer is to
    act (from before this rule) is never late nor abandoned."""
    sides = late_sides(match)
    return bool(sides) and all(opponents.level_of(match.player(s)) for s in sides)


def late_sides(match: Match) -> tuple[Side, ...]:
    """The side(s) the clock runs for: the side in ``turn`` (to roll, move or answer an
    offer); during a roll-off, each side that has not rolled its die."""
    game = match.current_game
    if game is None or match.status != MatchStatus.ACTIVE:
        return ()
    if game.phase == GamePhase.ROLL_OFF:
        return tuple(s for s, die in ((WHITE, game.rolloff_white), (BLACK, game.rolloff_black))
                     if die is None)
    if game.phase == GamePhase.FINISHED or not game.turn:
        return ()
    return (side_of(game.turn),)


def is_late(match: Match, now: datetime) -> bool:
    return (match.deadline is not None and now > match.deadline
            and not computer_to_act(match))


def abandon_after(match: Match) -> timedelta:
    """How late the side to act may be before the match counts as abandoned."""
    seconds = match.turn_seconds or 0
    grace = timedelta(seconds=ABANDON_MULTIPLE * seconds)
    if seconds >= CORRESPONDENCE_SECONDS:
        grace = max(grace, CORRESPONDENCE_GRACE)
    return grace


def is_abandoned(match: Match, now: datetime) -> bool:
    """The side to act is late by more than :func:`abandon_after` (an active match)."""
    return (match.status == MatchStatus.ACTIVE and match.deadline is not None
            and now > match.deadline + abandon_after(match) and not computer_to_act(match))


def warn_before(match: Match) -> timedelta:
    """How long before its deadline the side to act is warned (a ``deadline`` event)."""
    return min(timedelta(seconds=(match.turn_seconds or 0) * WARN_FRACTION), WARN_AT_MOST)


MIN_ABANDON_AFTER: Final = timedelta(seconds=ABANDON_MULTIPLE * 30)
"""The shortest :func:`abandon_after` (a 30 s clock): what the sweep's query filters by."""
