"""Chat's writes: lines, blocks, reports, the moderators' actions and panic mode.

Each call is one transaction; a line that is also an event of its place (a match's
players' room) is written with that event, and the event's streams hear of it after the
commit (games' unit of work schedules it). Moderation deletes nothing: an action is a
row with its reason, and a hidden line stays, pointing at the action that hid it.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import blocks
from accounts.models import Block, User
from accounts.notices import MODERATION_DECISION
from accounts.services import notice_create
from chat import filter as word_filter
from chat import rooms, selectors
from chat.exceptions import (
    AlreadyReported,
    Blocked,
    ChatMuted,
    ChatOff,
    ChatRestricted,
    ChatTimeout,
    GuestChat,
)
from chat.matches import KIND as MATCH_KIND
from chat.matches import PLAYERS
from chat.models import (
    TIMEOUTS,
    Action,
    ChatOption,
    Line,
    ModerationAction,
    Report,
    ReportReason,
)
from games.exceptions import InvalidRequest, NotFound
from nard_site.domain import DomainError

_LINK = re.compile(r"(https?://|www\.)\S+|\b[\w-]+\.(com|ru|net|org|io|me|gg|ly|su|info)\b",
                   re.IGNORECASE)


def place_get(*, kind: str, object_id: int, room: str | None) -> tuple[rooms.RoomKind, object,
                                                                      str]:
    """The room kind, the place and the room named; 404 ``not_found`` for a kind nobody
    registered or a place that does not exist, 400 ``validation_error`` for a room the kind
    does not have."""
    room_kind = rooms.get(kind)
    place = room_kind.find(object_id) if room_kind is not None else None
    if room_kind is None or place is None:
        raise NotFound(f"No {kind} with id {object_id}.")
    room = room or room_kind.rooms[0]
    if room not in room_kind.rooms:
        raise InvalidRequest(f"A {kind} has the rooms {', '.join(room_kind.rooms)}.",
                             details={"room": [f"One of {', '.join(room_kind.rooms)}."]})
    return room_kind, place, room


def clean_text(text: object) -> str:
    """The line's text, stripped; 400 ``validation_error`` (``details.text``) if it is not
    a string, empty, longer than ``CHAT_MAX_CHARS`` or has control characters."""
    limit = settings.CHAT_MAX_CHARS
    if not isinstance(text, str):
        raise InvalidRequest("text must be a string.", details={"text": ["Must be a string."]})
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise InvalidRequest("The line is empty.", details={"text": ["May not be blank."]})
    if len(text) > limit:
        raise InvalidRequest(f"A line has at most {limit} characters.",
                             details={"text": [f"At most {limit} characters."],
                                      "limit": limit})
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise InvalidRequest("The line has control characters.",
                             details={"text": ["No control characters."]})
    return text


def check_may_chat(user: User, now: datetime) -> None:
    """The account's own state: its chat option, a moderator's time-out or mute, and
    panic mode."""
    if not selectors.chat_enabled(user):
        raise ChatOff()
    restricted = selectors.restriction(user, now)
    if restricted is not None:
        kind, until = restricted
        error = ChatTimeout if kind == Action.TIMEOUT else ChatMuted
        raise error(details={"until": until.isoformat() if until else None})
    panic, until = selectors.panic_until(now)
    if panic and not selectors.is_established(user, now):
        raise ChatRestricted(details={"min_games": settings.CHAT_PANIC_MIN_GAMES,
                                      "min_hours": settings.CHAT_PANIC_MIN_HOURS,
                                      "until": until.isoformat() if until else None})


def _check_rate(user: User, now: datetime) -> None:
    limit = settings.CHAT_LINES_PER_MINUTE
    if selectors.lines_in_last(user, 60, now) >= limit:
        raise DomainError(gettext_noop("Too many lines in the last minute."), code="throttled",
                          details={"limit": limit, "seconds": 60})


def line_post(*, user: User, kind: str, object_id: int, room: str | None, text: object) -> Line:
    """Say ``text`` in a room. The guards in order: the place and room (404, 400), the
    text (400), the room's own rule (the kind's ``may_write``: 403 ``permission_denied``,
    409 ``chat_closed``), a guest outside its match's players' room (403 ``chat_guest``),
    the account's state (403 ``chat_off``, ``chat_timeout``,
    ``chat_muted``, ``chat_restricted``), a block with whom the line is said to (403
    ``blocked``), the rate (429 ``throttled``). A line the word filter catches is kept,
    shown to its author only, not logged as an event, and reported to the queue."""
    room_kind, place, room = place_get(kind=kind, object_id=object_id, room=room)
    text = clean_text(text)
    now = timezone.now()
    room_kind.may_write(user, place, room)
    if user.is_guest and (kind, room) != (MATCH_KIND, PLAYERS):
        raise GuestChat()
    check_may_chat(user, now)
    others = room_kind.counterparts(place, room) - {user.pk}
    if any(blocks.between(user.pk, other) for other in others):
        raise Blocked()
    with transaction.atomic():
        # One line at a time per account, so parallel posts count each other.
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
        _check_rate(user, now)
        words = word_filter.flagged_words(text)
        line = Line.objects.create(
            kind=kind, object_id=object_id, room=room, author=user, text=text, created=now,
            plain_links=bool(_LINK.search(text)) and selectors.is_new(user, now),
            flagged=bool(words), flagged_words=words)
        if words:
            Report.objects.create(accused=user, line=line, reason=ReportReason.FILTER,
                                  comment=", ".join(words), created=now)
        elif room_kind.log is not None:
            line.event_seq = room_kind.log(place, line)
            if line.event_seq is not None:
                line.save(update_fields=["event_seq"])
    return line


def chat_option_set(*, user: User, enabled: bool) -> ChatOption:
    option, _ = ChatOption.objects.update_or_create(user=user, defaults={"enabled": enabled})
    return option


def _named(username: str) -> User:
    if len(username) > 150 or "\x00" in username:
        raise NotFound("No such player.")
    found = User.objects.named(username).filter(is_active=True).first()
    if found is None:
        raise NotFound("No such player.")
    return found


def block_create(*, user: User, username: str) -> User:
    """Block the player ``username`` (again: nothing changes); 400 for oneself."""
    blocked = _named(username)
    if blocked.pk == user.pk:
        raise InvalidRequest("You cannot block yourself.",
                             details={"username": ["You cannot block yourself."]})
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=blocked)
    return blocked


def block_delete(*, user: User, username: str) -> User:
    """Lift a block (none: nothing changes)."""
    blocked = _named(username)
    Block.objects.filter(blocker=user, blocked=blocked).delete()
    return blocked


def _reason(reason: object) -> str:
    if reason not in ReportReason.values or reason == ReportReason.FILTER:
        choices = [value for value in ReportReason.values if value != ReportReason.FILTER]
        raise InvalidRequest("Unknown reason.", details={"reason": [f"One of {choices}."]})
    return str(reason)


def _comment(comment: object) -> str:
    if comment is None:
        return ""
    if not isinstance(comment, str) or len(comment) > settings.CHAT_MAX_CHARS * 4:
        raise InvalidRequest("comment must be a string of at most "
                             f"{settings.CHAT_MAX_CHARS * 4} characters.",
                             details={"comment": ["Too long or not a string."]})
    return comment.strip()


def _check_report_rate(user: User) -> None:
    """At most ``CHAT_REPORTS_PER_HOUR`` reports an hour from one account: the queue is
    the moderators' time."""
    limit = settings.CHAT_REPORTS_PER_HOUR
    since = timezone.now() - timedelta(hours=1)
    if Report.objects.filter(reporter=user, created__gt=since).count() >= limit:
        raise DomainError(gettext_noop("Too many reports in the last hour."), code="throttled",
                          details={"limit": limit, "seconds": 3600})


def line_report(*, user: User, line_id: int, reason: object, comment: object = None) -> Report:
    """Report a line the account can see (404 otherwise, and for its own line); 409
    ``already_reported`` the second time; 429 ``throttled`` beyond
    ``CHAT_REPORTS_PER_HOUR``."""
    reason, comment = _reason(reason), _comment(comment)
    _check_report_rate(user)
    line = Line.objects.select_related("author").filter(pk=line_id).first()
    if line is None or line.author_id == user.pk or not line.visible:
        raise NotFound("No such line.")
    room_kind = rooms.get(line.kind)
    place = room_kind.find(line.object_id) if room_kind else None
    if room_kind is None or place is None or not room_kind.may_read(user, place, line.room):
        raise NotFound("No such line.")
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=user, accused=line.author, line=line,
                                         reason=reason, comment=comment,
                                         created=timezone.now())
    except IntegrityError:
        raise AlreadyReported(details={"line": line.pk}) from None


def player_report(*, user: User, username: str, reason: object,
                  comment: object = None) -> Report:
    reason, comment = _reason(reason), _comment(comment)
    _check_report_rate(user)
    accused = _named(username)
    if accused.pk == user.pk:
        raise InvalidRequest("You cannot report yourself.",
                             details={"username": ["You cannot report yourself."]})
    return Report.objects.create(reporter=user, accused=accused, reason=reason,
                                 comment=comment, created=timezone.now())


def moderation_act(*, moderator: User, target: User, action: str, reason: str,
                   duration: str | None = None, report: Report | None = None
                   ) -> ModerationAction:
    """A moderator's decision on an account, logged with its reason: ``warn``,
    ``timeout`` (``duration`` one of ``TIMEOUTS``), ``mute``, ``unmute``, ``close`` (the
    account is deactivated: it no longer signs in; nothing of it deleted) or ``dismiss``
    (a report found groundless). With a ``report``: its line is hidden (but for a
    dismissal) and the report resolved."""
    if action not in (Action.WARN, Action.TIMEOUT, Action.MUTE, Action.UNMUTE, Action.CLOSE,
                      Action.DISMISS):
        raise InvalidRequest("Unknown action.", details={"action": ["Unknown action."]})
    if not reason.strip():
        raise InvalidRequest("A moderator's action needs a reason.",
                             details={"reason": ["May not be blank."]})
    now = timezone.now()
    until = None
    if action == Action.TIMEOUT:
        if duration not in TIMEOUTS:
            raise InvalidRequest("A time-out lasts 15m, 1h or 1d.",
                                 details={"duration": [f"One of {list(TIMEOUTS)}."]})
        until = now + timedelta(seconds=TIMEOUTS[duration])
    with transaction.atomic():
        done = ModerationAction.objects.create(moderator=moderator, target=target,
                                               action=action, reason=reason.strip(),
                                               created=now, until=until, report=report)
        if action == Action.CLOSE:
            # An inactive account's tokens and sessions no longer sign in.
            User.objects.filter(pk=target.pk).update(is_active=False)
        if report is not None:
            if report.line_id is not None and action != Action.DISMISS:
                Line.objects.filter(pk=report.line_id, hidden_by=None).update(hidden_by=done)
            Report.objects.filter(pk=report.pk).update(resolved=now, resolved_by=moderator)
        # Both sides hear of the decision: the account it is about (but for a dismissal,
        # which is about nobody) and whoever reported.
        decision = {"action": action, "reason": done.reason,
                    "report": report.pk if report is not None else None}
        if action != Action.DISMISS:
            notice_create(recipient=target, kind=MODERATION_DECISION,
                          data={**decision, "until": until.isoformat() if until else None})
        if report is not None and report.reporter_id not in (None, target.pk):
            notice_create(recipient=report.reporter_id, kind=MODERATION_DECISION,
                          data=decision)
    return done


def panic_start(*, moderator: User, minutes: int, reason: str) -> ModerationAction:
    """Panic mode for ``minutes``: only established accounts may chat
    (:func:`chat.selectors.is_established`)."""
    if not 1 <= minutes <= 7 * 24 * 60:
        raise InvalidRequest("minutes: from 1 to a week.", details={"minutes": ["Out of range."]})
    now = timezone.now()
    return ModerationAction.objects.create(moderator=moderator, action=Action.PANIC,
                                           reason=reason or "panic", created=now,
                                           until=now + timedelta(minutes=minutes))


def panic_stop(*, moderator: User, reason: str) -> ModerationAction:
    return ModerationAction.objects.create(moderator=moderator, action=Action.CALM,
                                           reason=reason or "calm", created=timezone.now())
