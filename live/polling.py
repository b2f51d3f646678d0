"""``GET matches/{id}/events/``: its query (a bounded ``limit``, the long-poll ``wait``)
and its answer — at most ``EVENTS_PAGE_SIZE`` events, a ``Link: rel="next"`` header when
more follow, and with ``wait=S`` an answer held until an event after ``after`` exists."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import StreamingHttpResponse
from rest_framework import serializers

from games.serializers import EventsQuerySerializer
from live import streams
from nard_site.serving import is_asgi


class EventsPollQuerySerializer(EventsQuerySerializer):
    after = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False,
                                     default=0, help_text="Only events after this `seq`.")
    limit = serializers.IntegerField(
        min_value=1, max_value=settings.EVENTS_PAGE_SIZE, required=False,
        help_text=f"At most this many events (default and maximum: the page size, "
                  f"{settings.EVENTS_PAGE_SIZE}). When more follow, the answer has a "
                  f"`Link: <...?after=N>; rel=\"next\"` header.")
    wait = serializers.IntegerField(
        min_value=0, max_value=settings.LONG_POLL_MAX_SECONDS, required=False, default=0,
        help_text="Long-poll: when no event is after `after`, hold the answer up to this many "
                  "seconds and answer as soon as one is (or `[]` after the wait).")


def page_size(query: dict[str, Any]) -> int:
    return int(query.get("limit") or settings.EVENTS_PAGE_SIZE)


def next_link(request: Any, after: int) -> str:
    """The ``Link`` header of a page that is not the end of the log."""
    query = request.query_params.copy()
    query["after"] = str(after)
    query.pop("wait", None)
    return f'<{request.build_absolute_uri(request.path)}?{query.urlencode()}>; rel="next"'


def may_wait(request: Any, match: Any, after: int) -> bool:
    """Whether a long-poll waits: nothing after ``after`` yet, and an event loop to wait on
    (served over WSGI it would hold a thread: it answers at once)."""
    return after >= match.last_event_seq and is_asgi(request)


def long_poll(match_id: int, after: int, limit: int, wait: int) -> StreamingHttpResponse:
    """The answer of ``events/?wait=`` when nothing is after ``after`` yet: a JSON list
    sent by the event loop once there is (under ASGI no thread waits for it)."""
    response = StreamingHttpResponse(streams.wait_for_events(match_id, after, limit, wait),
                                     content_type="application/json")
    response["Cache-Control"] = "no-cache"
    return response
