"""The stream endpoints: DRF checks who asks and what (token or session, the error
shape, the schema); the answer is an async iterator that Django's ASGI handler sends
from the event loop — one coroutine per open stream, no thread held."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presence, selectors
from games.exceptions import NotFound
from games.models import Match, is_over
from games.serializers import PerspectiveQuerySerializer, match_events
from live import polling, streams
from live.limits import open_streams
from live.shapes import ACCOUNT_ITEMS
from nard_site.api.shapes import schema_serializer
from nard_site.serving import is_asgi


class EventStreamRenderer(BaseRenderer):
    """Lets ``Accept: text/event-stream`` (what EventSource sends) through negotiation."""

    media_type = "text/event-stream"
    format = "sse"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        return JSONRenderer().render(data)


class StreamQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False,
        help_text="Start after this `seq` (default 0, or the `Last-Event-ID` header, "
                  "which wins when both are given).")
    snapshots = serializers.BooleanField(
        required=False, default=False,
        help_text="`1`: a `state` event (the match as `GET matches/{id}/` answers you) on "
                  "connecting and after each change that moves the match on, so a client "
                  "needs no GET between turns.")


LAST_EVENT_ID = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
"""The ``Last-Event-ID`` header: a ``seq`` (its errors name the header, not ``after``)."""


def refuse_format(request: Request) -> None:
    """A stream answers only ``text/event-stream``: ``?format=`` (which elsewhere picks the
    answer's format) is refused rather than ignored."""
    if "format" in request.query_params:
        raise serializers.ValidationError(
            {"format": ["A stream answers only text/event-stream; leave out ?format=."]})


def sse_response(body: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class StreamView(APIView):
    renderer_classes = [JSONRenderer, EventStreamRenderer]
    schema_error_codes = ("429",)
    schema_format_parameter = False  # ?format= is refused (refuse_format)

    def finalize_response(self, request: Request, response: Any, *args: Any,
                          **kwargs: Any) -> Any:
        if isinstance(response, Response):  # an error: always the JSON error shape
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


SSE_DESCRIPTION = (
    "`text/event-stream`: Server-Sent Events (docs/api.md, \"Live streams\"). Each event "
    "is `id:` (match streams: the event's `seq`), `event:` (its type) and `data:`, one "
    "line of JSON: one item of the schema `x-item-schema` names, discriminated by its "
    "`type`; comment lines keep the connection alive.")


def sse_200(items: Any) -> OpenApiResponse:
    """A stream's 200: ``text/event-stream`` whose events' data are ``items`` (the schema
    describes each event and names the items' schema in ``x-item-schema``:
    :meth:`nard_site.api.schema.AutoSchema._get_response_bodies`)."""
    return OpenApiResponse(items, description=SSE_DESCRIPTION)


ACCOUNT_EVENT = PolymorphicProxySerializer(
    component_name="AccountEvent",
    serializers={kind: schema_serializer(shape) for kind, shape in ACCOUNT_ITEMS.items()},
    resource_type_field_name="type", many=False)


class MatchStreamView(StreamView):
    """The match's event log as Server-Sent Events, from `Last-Event-ID` or `?after=` on,
    then live: `id: <seq>`, `event: <type>`, `data: <the event JSON of events/>`, and a
    comment line at least every 15 s. Readable by whoever may read the match. Ends after
    the last event of a finished match, or, while a game review of it is queued or
    running, after the review's last `analysis` event; a finished match with nothing after
    and no review to come answers 204 (which tells EventSource to stop)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="matches_stream", parameters=[
            StreamQuerySerializer,
            OpenApiParameter("Last-Event-ID", int, OpenApiParameter.HEADER, required=False,
                             description="The last `seq` received (EventSource sends it when "
                                         "it reconnects).")],
        responses={(200, "text/event-stream"): sse_200(match_events(state=True)),
                   204: OpenApiResponse(description="The match is over, nothing is after "
                                                    "the given seq and no game review of it "
                                                    "is queued or running.")})
    def get(self, request: Request, pk: str) -> Any:
        refuse_format(request)
        query = request.query_params.copy()
        header = request.headers.get("Last-Event-ID")
        if header is not None and header.strip():
            query.pop("after", None)  # the header wins
        serializer = StreamQuerySerializer(data=query)
        serializer.is_valid(raise_exception=True)
        after = serializer.validated_data.get("after", 0)
        if header is not None and header.strip():
            try:
                after = LAST_EVENT_ID.run_validation(header.strip())
            except serializers.ValidationError as exc:
                raise serializers.ValidationError({"Last-Event-ID": exc.detail}) from None
        ident = int(pk) if len(pk) <= 19 and int(pk) < 2**63 else None
        match = selectors.match_get(ident) if ident is not None else None
        if match is None:
            raise NotFound(f"No match with id {pk}.")
        if is_over(match.status) and after >= match.last_event_seq and not (
                selectors.match_review_open(match.pk)
                or after < selectors.match_last_event_seq(match.pk)):
            # Nothing after ``after`` and no review to come (read before the log's end
            # again: a review that ended in between has its last event logged by then,
            # they commit together): nothing will come.
            return HttpResponse(status=204)
        if request.user.is_authenticated and request.user.pk is not None:
            presence.seen(request.user.pk)  # an open stream is presence too
        release = open_streams.acquire(request)
        response = sse_response(streams.match_stream(
            match.pk, after, once=not is_asgi(request),
            snapshots=serializer.validated_data["snapshots"], viewer=request.user))
        response._resource_closers.append(release)  # type: ignore[attr-defined]
        return response


class AccountStreamView(StreamView):
    """The asking account's own stream (Server-Sent Events): on connecting, what waits for
    it now (unread `notice`s, `invitation`s, `your_turn` where it is to act), then live
    `notice`, `invitation`, `your_turn`, `game_over` and `match_over` of its matches.
    Needs authentication (token header or session cookie)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="stream",
                   responses={(200, "text/event-stream"): sse_200(ACCOUNT_EVENT)})
    def get(self, request: Request) -> Any:
        refuse_format(request)
        if request.user.is_authenticated and request.user.pk is not None:
            presence.seen(request.user.pk)  # an open stream is presence too
        release = open_streams.acquire(request)
        user_id = request.user.pk
        assert user_id is not None  # IsAuthenticated
        response = sse_response(streams.account_stream(user_id,
                                                       once=not is_asgi(request)))
        response._resource_closers.append(release)  # type: ignore[attr-defined]
        return response


MAX_ID = 2**63 - 1  # the largest key a BigAutoField holds


def match_or_404(pk: str) -> Match:
    """The match of a URL's id (digits); beyond what the database holds, none."""
    digits = pk.lstrip("0") or "0"
    match = (selectors.match_get(int(digits))
             if len(digits) <= len(str(MAX_ID)) and int(digits) <= MAX_ID else None)
    if match is None:
        raise NotFound(f"No match with id {pk[:30]}{'…' if len(pk) > 30 else ''}.")
    return match


class MatchEventsView(APIView):
    """``GET matches/{id}/events/``: the log a page at a time, and the long-poll ``wait``
    (its body sent by the event loop; counted with the streams in ``STREAMS_PER_IP`` /
    ``STREAMS_PER_ACCOUNT``)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    schema_error_codes = ("409", "422", "429")

    @extend_schema(operation_id="matches_events_list", tags=["matches"],
                   parameters=[polling.EventsPollQuerySerializer,
                               OpenApiParameter("id", str, OpenApiParameter.PATH,
                                                pattern=r"^\d+$")],
                   responses=match_events(many=True))
    def get(self, request: Request, pk: str) -> Any:
        """The log in order, a page at a time (`Link: rel="next"` when more follow); with
        `wait=S`, answers as soon as an event after `after` exists, or `[]` after S s."""
        if request.user.is_authenticated and request.user.pk is not None:
            presence.seen(request.user.pk)  # a cache read, a write every 15 s
        if request.query_params:
            PerspectiveQuerySerializer(data=request.query_params).is_valid(
                raise_exception=True)
        query_serializer = polling.EventsPollQuerySerializer(data=request.query_params)
        query_serializer.is_valid(raise_exception=True)
        query = query_serializer.validated_data
        match, limit = match_or_404(pk), polling.page_size(query)
        events = list(selectors.event_list(match, after=query["after"], limit=limit))
        if not events and query["wait"] and polling.may_wait(request, match, query["after"]):
            release = open_streams.acquire(request)
            response = polling.long_poll(match.pk, query["after"], limit, query["wait"])
            response._resource_closers.append(release)  # type: ignore[attr-defined]
            return response
        headers = {}
        if len(events) == limit and events[-1].seq < match.last_event_seq:
            headers["Link"] = polling.next_link(request, events[-1].seq)
        return Response([selectors.event_json(e) for e in events], headers=headers)
