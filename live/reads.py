"""What the streams read: a match's log after a sequence number and whether its stream
ends, the last sequence number of many matches at once, and a committed change rendered
once (:class:`Message`) as every stream sends it.

All of it is synchronous database work; the streams run it off the event loop
(:func:`nard_site.serving.db_call`). Every event is rendered by the API's renderer: the same bytes
as the REST answers of ``events/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import Notice
from games.models import Event, Match, is_over
from games.selectors import event_json, match_get, match_json, match_review_open
from live import kinds
from nard_site.api.renderers import render_json


def render(data: Any) -> str:
    """The API's JSON (its renderer: the same bytes as the REST answers)."""
    return render_json(data).decode()


@dataclass(frozen=True)
class Message:
    """One committed change: ``events`` as ``(seq, type, json)``, ``accounts`` as
    ``{user id: [(kind, json), ...]}``; ``over`` when the match's stream ends with these
    events: the match has ended and no game review of it is queued or running (read
    once, by the publisher, not by each stream)."""

    match: int
    version: int
    over: bool
    events: tuple[tuple[int, str, str], ...]
    accounts: dict[int, tuple[tuple[str, str], ...]]

    @property
    def size(self) -> int:
        """About the bytes it holds (its JSON texts): what an inbox keeping it costs."""
        return (sum(len(data) for _, _, data in self.events)
                + sum(len(data) for items in self.accounts.values() for _, data in items))

    def dumps(self) -> bytes:
        return json.dumps({"m": self.match, "v": self.version, "o": self.over,
                           "e": self.events, "a": self.accounts}).encode()

    @classmethod
    def loads(cls, raw: bytes | str) -> Message:
        data = json.loads(raw)
        return cls(match=data["m"], version=data["v"], over=data["o"],
                   events=tuple((s, t, j) for s, t, j in data["e"]),
                   accounts={int(u): tuple((k, j) for k, j in items)
                             for u, items in data["a"].items()})


def message(match: Match, events: Sequence[Event]) -> Message:
    """The change ``events`` made to ``match``, rendered for every stream that wants it."""
    return Message(
        match=match.pk, version=match.version,
        over=is_over(match.status) and not match_review_open(match.pk),
        events=tuple((e.seq, e.type, render(event_json(e))) for e in events),
        accounts={uid: tuple((kind, render(data)) for kind, data in found)
                  for uid, found in kinds.items(match, events).items()})


def notice_message(notice: Notice) -> Message:
    """A new notice as a change the account streams carry: under the key
    :data:`live.kinds.NOTICES`, its id as the version (a stream sends each id once)."""
    return Message(
        match=kinds.NOTICES, version=notice.pk, over=False, events=(),
        accounts={uid: tuple((kind, render(data)) for kind, data in found)
                  for uid, found in _by_user(kinds.notice_items(notice)).items()})


def _by_user(found: Iterable[kinds.Item]) -> dict[int, list[tuple[str, dict[str, Any]]]]:
    by_user: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for user_id, kind, data in found:
        by_user.setdefault(user_id, []).append((kind, data))
    return by_user


def state_event(match_id: int, viewer: Any) -> str | None:
    """The match stream's ``state`` event: the match as ``viewer`` reads it with
    ``GET matches/{id}/``, and the ``seq`` of the last event it includes (``None`` for a
    match that is gone)."""
    match = match_get(match_id)
    if match is None:
        return None
    return render({"seq": match.last_event_seq, "type": "state", "at": timezone.now(),
                   "data": match_json(match, viewer)})


def log_after(match_id: int, after: int) -> tuple[list[tuple[int, str, str]], bool, bool]:
    """A page of the log after ``after`` as ``(seq, type, json)`` (at most
    ``STREAM_BACKLOG_PAGE`` events), whether the stream ends
    after it (the match over and no review of it to come; read first: if so, the page read
    after it holds the last events), and whether only a review of the finished match holds
    it open (``held``)."""
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    # A finished match's stream goes on while a game review of it is to come: its
    # ``analysis`` events reach the reader as they are logged.
    held = status is not None and is_over(status) and match_review_open(match_id)
    over = status is None or (is_over(status) and not held)
    # A page of STREAM_BACKLOG_PAGE events: what one stream holds at a time, however
    # long the log (a whole long match's log per reader made slow readers dear).
    page = [(e.seq, e.type, render(event_json(e))) for e in
            Event.objects.filter(match_id=match_id, seq__gt=after)
            .order_by("seq")[:settings.STREAM_BACKLOG_PAGE]]
    return page, over, held


def page_after(match_id: int, after: int, limit: int) -> list[str]:
    """Up to ``limit`` events of the log after ``after``, as the JSON of ``events/``."""
    return [render(event_json(e)) for e in
            Event.objects.filter(match_id=match_id, seq__gt=after).order_by("seq")[:limit]]


def last_seqs(ids: list[int]) -> dict[int, int]:
    """The last ``seq`` of each match of ``ids`` (one query)."""
    return dict(Match.objects.filter(pk__in=ids).values_list("pk", "last_event_seq"))
