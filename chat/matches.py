"""The chat rooms of a match, chat's one built-in kind of place (``match``).

``players``: the two players write, while the match is active and for
``CHAT_AFTER_MATCH_MINUTES`` after it ends ("gg"), then it is read-only; anyone who may
see the match reads it, and each line is also a ``chat`` event of the match's log (and so
of its stream), written with the match row locked as every change to a match is.

``spectators``: everyone but the players writes and reads; the players cannot read it
while the match is under way (403 ``permission_denied``), and its lines are never events
of the match — the log and its stream are the players' too — so they are read from the
chat endpoint (``?after=`` the last line's id). Once the match is over the players may
read it as well.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from chat import computer, rooms
from chat.exceptions import ChatClosed
from chat.models import Line
from games import store
from games.exceptions import PermissionDenied
from games.models import Match, MatchStatus, is_over
from games.selectors import match_get
from games.unit_of_work import Change

KIND = "match"
PLAYERS, SPECTATORS = "players", "spectators"


def _players(match: Match) -> set[int]:
    return {uid for uid in (match.white_id, match.black_id) if uid is not None}


def _is_player(user: Any, match: Match) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and user.pk in _players(match)


def find(match_id: int) -> Match | None:
    return match_get(match_id)


def may_read(viewer: rooms.Viewer, match: Match, room: str) -> bool:
    if room == SPECTATORS:
        return is_over(match.status) or not _is_player(viewer, match)
    return True


def may_write(user: User, match: Match, room: str) -> None:
    player = _is_player(user, match)
    if room == PLAYERS and not player:
        raise PermissionDenied("Only the players of this match write in its players' room.")
    if room == SPECTATORS and player:
        raise PermissionDenied("The players do not write in the spectators' room.")
    if match.status == MatchStatus.ACTIVE:
        return
    ended = match.finished_at or match.created_at
    window = timedelta(minutes=settings.CHAT_AFTER_MATCH_MINUTES)
    if not is_over(match.status) or timezone.now() > ended + window:
        raise ChatClosed(details={"status": match.status})


def counterparts(match: Match, room: str) -> set[int]:
    return _players(match) if room == PLAYERS else set()


def log(match: Match, line: Line) -> int | None:
    """A players' line as the match's ``chat`` event (the version unchanged: a line is not
    a move, and no client's ``expected_version`` goes stale for it); against the computer,
    its answer when asked (:mod:`chat.computer`) with it."""
    if line.room != PLAYERS:
        return None
    locked = store.lock_match(match.pk)
    if locked is None:
        return None
    change = Change(locked[0], loaded=locked[1], now=line.created)
    event = change.log("chat", line=line.pk, by=line.author.username, text=line.text,
                       plain_links=line.plain_links)
    first = event.seq
    reply = computer.answer(change.match, line)
    speaker = computer.computer_in(change.match)
    if reply is not None and speaker is not None:
        said = Line.objects.create(kind=line.kind, object_id=line.object_id, room=PLAYERS,
                                   author=speaker, text=reply, created=line.created)
        said.event_seq = change.log("chat", line=said.pk, by=said.author.username, text=reply,
                                    plain_links=False).seq
        said.save(update_fields=["event_seq"])
    change.commit(quiet=True)
    return first


def register() -> None:
    rooms.register(KIND, rooms=(PLAYERS, SPECTATORS), find=find, may_read=may_read,
                   may_write=may_write, counterparts=counterparts, log=log)
