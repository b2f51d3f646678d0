"""Chat's reads: rooms' lines as a viewer sees them, the restrictions in force, the
moderators' queue."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts import blocks
from accounts.models import User
from chat import shapes
from chat.models import Action, ChatOption, Line, ModerationAction, Report
from games.models import Match, MatchStatus

CONTEXT_LINES = 5
"""Lines shown before and after a reported one."""
PAGE = 200
"""Lines in one answer: the newest, or the first after ``?after=``."""


def chat_enabled(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return True
    return not ChatOption.objects.filter(user_id=user.pk, enabled=False).exists()


def finished_matches(user: User) -> int:
    """The account's finished matches against another account (hotseat not counted)."""
    return Match.objects.filter(Q(white=user) | Q(black=user), status=MatchStatus.FINISHED,
                                hotseat=False).count()


def _age_hours(user: User, now: datetime) -> float:
    return (now - user.date_joined).total_seconds() / 3600


def is_new(user: User, now: datetime | None = None) -> bool:
    """A new account, whose links are shown as text: fewer than ``CHAT_LINKS_MIN_GAMES``
    finished matches or younger than ``CHAT_LINKS_MIN_HOURS``."""
    now = now or timezone.now()
    return (_age_hours(user, now) < settings.CHAT_LINKS_MIN_HOURS
            or finished_matches(user) < settings.CHAT_LINKS_MIN_GAMES)


def is_established(user: User, now: datetime | None = None) -> bool:
    """May chat in panic mode: staff, or more than ``CHAT_PANIC_MIN_GAMES`` finished
    matches and older than ``CHAT_PANIC_MIN_HOURS``."""
    now = now or timezone.now()
    return bool(user.is_staff) or (
        _age_hours(user, now) > settings.CHAT_PANIC_MIN_HOURS
        and finished_matches(user) > settings.CHAT_PANIC_MIN_GAMES)


def panic_until(now: datetime | None = None) -> tuple[bool, datetime | None]:
    """Whether panic mode is on, and until when (``None``: until turned off). On by the
    ``CHAT_PANIC`` setting, or by a moderator's ``panic`` not yet ended or calmed."""
    now = now or timezone.now()
    if settings.CHAT_PANIC:
        return True, None
    latest = (ModerationAction.objects.filter(target=None, action__in=(Action.PANIC, Action.CALM))
              .first())
    if latest is None or latest.action == Action.CALM:
        return False, None
    if latest.until is not None and latest.until <= now:
        return False, None
    return True, latest.until


def panic_json() -> shapes.Panic:
    on, until = panic_until()
    return {"on": on, "until": until, "min_games": settings.CHAT_PANIC_MIN_GAMES,
            "min_hours": settings.CHAT_PANIC_MIN_HOURS}


def restriction(user: User, now: datetime | None = None) -> tuple[str, datetime | None] | None:
    """The moderators' restriction in force on the account: ``("timeout", until)``,
    ``("mute", until or None)``, or ``None``. An ``unmute`` lifts what came before it."""
    now = now or timezone.now()
    actions = ModerationAction.objects.filter(
        target=user, action__in=(Action.TIMEOUT, Action.MUTE, Action.UNMUTE))
    for action in actions:  # newest first
        if action.action == Action.UNMUTE:
            return None
        if action.until is None or action.until > now:
            return str(action.action), action.until
    return None


def _visible_to(viewer: Any) -> Q:
    """The lines ``viewer`` sees: those neither flagged nor hidden, its own, and none
    by an account it blocked or that blocked it."""
    shown = Q(flagged=False, hidden_by=None)
    if not getattr(viewer, "is_authenticated", False):
        return shown
    around = blocks.around(viewer.pk)
    others = shown & ~Q(author_id__in=around) if around else shown
    return others | Q(author_id=viewer.pk)


def line_json(line: Line) -> shapes.ChatLine:
    return {"id": line.pk, "room": line.room, "by": line.author.username, "text": line.text,
            "at": line.created, "plain_links": line.plain_links, "flagged": line.flagged,
            "hidden": line.hidden_by_id is not None}


def room_lines(kind: str, object_id: int, room: str) -> QuerySet[Line]:
    return Line.objects.filter(kind=kind, object_id=object_id, room=room)


def room_json(*, kind: str, object_id: int, room: str, viewer: Any,
              after: int | None = None) -> shapes.ChatRoom:
    """The room as ``viewer`` reads it: the newest ``PAGE`` lines it sees, or the first
    ``PAGE`` after line ``after``, oldest first; none for an account with chat off."""
    enabled = chat_enabled(viewer)
    lines: list[shapes.ChatLine] = []
    if enabled:
        found = (room_lines(kind, object_id, room).filter(_visible_to(viewer))
                 .select_related("author"))
        if after is not None:
            chosen = list(found.filter(id__gt=after).order_by("id")[:PAGE])
        else:
            chosen = list(found.order_by("-id")[:PAGE])[::-1]
        lines = [line_json(line) for line in chosen]
    return {"kind": kind, "id": object_id, "room": room, "enabled": enabled, "lines": lines}


def context(line: Line) -> list[Line]:
    """The line with the ``CONTEXT_LINES`` before and after it in its room, every one
    shown (the moderators see flagged and hidden lines too)."""
    room = room_lines(line.kind, line.object_id, line.room).select_related("author")
    before = list(room.filter(id__lt=line.pk).order_by("-id")[:CONTEXT_LINES])[::-1]
    after = list(room.filter(id__gt=line.pk).order_by("id")[:CONTEXT_LINES])
    return [*before, line, *after]


def report_json(report: Report) -> shapes.Report:
    line = report.line
    return {
        "id": report.pk, "reason": report.reason, "comment": report.comment,
        "created": report.created,
        "reporter": report.reporter.username if report.reporter else None,
        "accused": report.accused.username,
        "line": line_json(line) if line else None,
        "place": ({"kind": line.kind, "id": line.object_id, "room": line.room}
                  if line else None),
        "context": [line_json(each) for each in context(line)] if line else [],
        "resolved": report.resolved,
    }


def queue(*, resolved: bool = False) -> QuerySet[Report]:
    """The reports waiting for a moderator (or those done), oldest first."""
    reports = Report.objects.filter(resolved__isnull=not resolved)
    return (reports.select_related("reporter", "accused", "line", "line__author")
            .order_by("created", "id"))


def action_json(action: ModerationAction) -> shapes.ModerationActionOut:
    return {"id": action.pk, "action": action.action,
            "target": action.target.username if action.target else None,
            "reason": action.reason, "until": action.until, "created": action.created}


def lines_in_last(user: User, seconds: float, now: datetime) -> int:
    return Line.objects.filter(author=user, created__gt=now - timedelta(seconds=seconds)).count()
