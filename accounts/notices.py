"""Notices to an account: their shape, and who hears of one after it is committed.

Any module makes a notice through :func:`accounts.services.notice_create` (a challenge
received, a finished review, a tournament's start, a moderation decision); accounts knows
none of the modules above it, so the streams (``live/``) hear of each new notice through
this registry: :func:`subscribe`, called in their ``AppConfig.ready``, and
:func:`committed`, scheduled by ``notice_create`` with ``transaction.on_commit`` — a
listener sees only notices that are in the database. A listener that fails is logged and
does not stop the others or the caller.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Final, TypedDict

from nard_site.api.shapes import Doc

from .models import Notice

#: The kinds the project makes today; a module may add its own (:data:`KIND_PATTERN`).
CHALLENGE: Final = "challenge"
REVIEW_FINISHED: Final = "review_finished"
TOURNAMENT_STARTED: Final = "tournament_started"
MODERATION_DECISION: Final = "moderation_decision"
KINDS: Final = (CHALLENGE, REVIEW_FINISHED, TOURNAMENT_STARTED, MODERATION_DECISION)
KIND_PATTERN: Final = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
"""What a kind may be: snake_case, at most 32 characters (the column)."""


class NoticeItem(TypedDict):
    """A notice as the API and the account stream show it."""

    id: int
    kind: Annotated[str, Doc("What it is: `challenge`, `review_finished`, "
                             "`tournament_started`, `moderation_decision`, or another "
                             "module's kind.")]
    data: Annotated[dict[str, Any], Doc("What a client shows, by kind (docs/api.md).")]
    created: datetime
    read_at: Annotated[datetime | None, Doc("When its recipient marked it read.")]


def notice_json(notice: Notice) -> NoticeItem:
    return {"id": notice.pk, "kind": notice.kind, "data": notice.data,
            "created": notice.created, "read_at": notice.read_at}


Listener = Callable[[Notice], None]
_listeners: list[Listener] = []
_log = logging.getLogger(__name__)


def subscribe(listener: Listener) -> None:
    """Call ``listener(notice)`` after each new notice is committed (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def committed(notice: Notice) -> None:
    for listener in list(_listeners):
        try:
            listener(notice)
        except Exception:
            _log.exception("notice listener %r failed for notice %s", listener, notice.pk)
