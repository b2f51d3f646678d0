"""The tournaments API (thin views: validate, one service or selector, answer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import StreamingHttpResponse
from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games.exceptions import NotFound
from nard_site.serving import is_asgi
from tournaments import selectors, services, stream
from tournaments.models import Tournament
from tournaments.serializers import (
    EventsQuerySerializer,
    JoinSerializer,
    PauseSerializer,
    TournamentCreateSerializer,
    TournamentEventSerializer,
    TournamentListSerializer,
    TournamentSerializer,
)


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _found(pk: str, request: Request) -> Tournament:
    """The tournament (its start time or an arena's end applied first, lazily)."""
    services.tournament_tick(tournament_id=int(pk))
    found = selectors.tournament_get(int(pk))
    if found is None:
        raise NotFound(gettext_noop("No such tournament."))
    return found


def _answer(request: Request, pk: int, code: int = status.HTTP_200_OK) -> Response:
    found = selectors.tournament_get(pk)
    assert found is not None
    return Response(selectors.tournament_json(found, request.user), status=code)


class TournamentsView(APIView):
    """The listed tournaments (``GET``); create one (``POST``, signed in)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    schema_error_codes = {"POST": ("409",)}  # too_many_tournaments

    @extend_schema(operation_id="tournaments_list", responses={200: TournamentListSerializer})
    def get(self, request: Request) -> Response:
        for pk in services.tournaments_due():
            services.tournament_tick(tournament_id=pk)
        return Response(selectors.tournament_list())

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def post(self, request: Request) -> Response:
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = services.tournament_create(user=_me(request), **data.validated_data)
        return _answer(request, created.pk, status.HTTP_201_CREATED)


class TournamentView(APIView):
    """One tournament: ``status``, ``standings`` and ``matches`` (an entry by link is
    readable by whoever has its id)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_retrieve", responses={200: TournamentSerializer})
    def get(self, request: Request, pk: str) -> Response:
        found = _found(pk, request)
        return Response(selectors.tournament_json(found, request.user))


class _Action(APIView):
    permission_classes = [IsAuthenticated]
    schema_error_codes: tuple[str, ...] = ("409",)


class JoinView(_Action):
    """Join (``code`` for an entry by link); the creator enters a computer level with
    ``computer`` when the tournament allows it."""

    @extend_schema(request=JoinSerializer, responses={200: TournamentSerializer})
    def post(self, request: Request, pk: str) -> Response:
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = _found(pk, request)
        services.tournament_join(tournament_id=found.pk, user=_me(request),
                                 **data.validated_data)
        return _answer(request, found.pk)


class WithdrawView(_Action):
    """Leave (a Swiss or knock-out: between rounds)."""

    @extend_schema(request=None, responses={200: TournamentSerializer})
    def post(self, request: Request, pk: str) -> Response:
        found = _found(pk, request)
        services.tournament_withdraw(tournament_id=found.pk, user=_me(request))
        return _answer(request, found.pk)


class PauseView(_Action):
    """An arena's player pauses (``paused``: ``true``, the default) or resumes."""

    @extend_schema(request=PauseSerializer, responses={200: TournamentSerializer})
    def post(self, request: Request, pk: str) -> Response:
        data = PauseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = _found(pk, request)
        services.tournament_pause(tournament_id=found.pk, user=_me(request),
                                  **data.validated_data)
        return _answer(request, found.pk)


class StartView(_Action):
    """Start it now (its creator or the staff)."""

    schema_error_codes = ("403", "409")

    @extend_schema(request=None, responses={200: TournamentSerializer})
    def post(self, request: Request, pk: str) -> Response:
        found = _found(pk, request)
        services.tournament_start(tournament_id=found.pk, user=_me(request))
        return _answer(request, found.pk)


class TournamentEventsView(APIView):
    """Its log after ``after`` (200 at most): what the stream sends, as a list."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[EventsQuerySerializer],
                   responses={200: TournamentEventSerializer(many=True)})
    def get(self, request: Request, pk: str) -> Response:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = _found(pk, request)
        return Response(selectors.event_list(found.pk, query.validated_data["after"]))


class EventStreamRenderer(BaseRenderer):
    """Lets ``Accept: text/event-stream`` (what EventSource sends) through negotiation."""

    media_type = "text/event-stream"
    format = "sse"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        return JSONRenderer().render(data)


class TournamentStreamView(APIView):
    """Its events as Server-Sent Events (`id: <seq>`, `event: <type>`, `data: <the event
    JSON of events/>`) from `Last-Event-ID` or `?after=` on, then live: `created`,
    `joined`, `withdrawn`, `paused`, `resumed`, `removed`, `started`, `round`, `paired`
    (with the match), `bye`, `match_over`, `standings`, `finished` (then it ends)."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    def finalize_response(self, request: Request, response: Any, *args: Any,
                          **kwargs: Any) -> Any:
        if isinstance(response, Response):  # an error: always the JSON error shape
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(parameters=[EventsQuerySerializer], responses={
        (200, "text/event-stream"): OpenApiResponse(
            description="`text/event-stream`: see docs/api.md, \"Tournaments\".")})
    def get(self, request: Request, pk: str) -> Any:
        header = request.headers.get("Last-Event-ID", "").strip()
        data = {"after": header} if header else request.query_params
        serializer = EventsQuerySerializer(data=data)
        serializer.is_valid(raise_exception=True)
        found = _found(pk, request)
        body = stream.tournament_stream(found.pk, serializer.validated_data["after"],
                                        once=not is_asgi(request))
        response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response

