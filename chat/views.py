"""Thin views of chat and moderation (docs/api.md#chat-and-moderation): validate, call
one service or selector, answer."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAdminUser, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Block, User
from chat import selectors, services, shapes
from chat.models import Report
from games.exceptions import InvalidRequest, NotFound, PermissionDenied
from games.views import url_id
from nard_site.api.shapes import schema_serializer

ChatRoomSerializer = schema_serializer(shapes.ChatRoom)
ChatLineSerializer = schema_serializer(shapes.ChatLine)
ChatOptionsSerializer = schema_serializer(shapes.ChatOptions)
BlockStateSerializer = schema_serializer(shapes.BlockState)
ReportSerializer = schema_serializer(shapes.Report)
ReportReceiptSerializer = schema_serializer(shapes.ReportReceipt)
ModerationActionSerializer = schema_serializer(shapes.ModerationActionOut)
PanicSerializer = schema_serializer(shapes.Panic)

_LINE = inline_serializer("ChatLineRequest", {
    "text": serializers.CharField(help_text="The line: at most `CHAT_MAX_CHARS` characters, "
                                            "no control characters."),
})
_REPORT = inline_serializer("ReportRequest", {
    "reason": serializers.ChoiceField(choices=["insult", "spam", "cheating", "other"]),
    "comment": serializers.CharField(required=False),
})
_ACTION = inline_serializer("ModerationActionRequest", {
    "action": serializers.ChoiceField(
        choices=["warn", "timeout", "mute", "unmute", "close", "dismiss"]),
    "reason": serializers.CharField(),
    "duration": serializers.ChoiceField(choices=["15m", "1h", "1d"], required=False,
                                        help_text="A time-out's length."),
})
_PANIC = inline_serializer("PanicRequest", {
    "minutes": serializers.IntegerField(help_text="From 1 to 10,080 (a week)."),
    "reason": serializers.CharField(required=False),
})


def _body(request: Request) -> dict[str, Any]:
    data = request.data
    if not isinstance(data, dict):
        raise InvalidRequest("The body must be a JSON object.")
    return data


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User), "the permission classes admit only signed-in accounts"
    return user


class RoomView(APIView):
    """A place's chat room: read its lines, write one."""

    kind: ClassVar[str]
    permission_classes = [IsAuthenticatedOrReadOnly]
    schema_error_codes = ("409",)

    @extend_schema(parameters=[
        OpenApiParameter("room", str, required=False,
                         description="`players` (default) or `spectators` for a match."),
        OpenApiParameter("after", int, required=False,
                         description="Only the lines after this line id (oldest first)."),
    ], responses=ChatRoomSerializer)
    def get(self, request: Request, pk: str) -> Response:
        room_kind, place, room = services.place_get(
            kind=self.kind, object_id=url_id(pk), room=request.query_params.get("room"))
        if not room_kind.may_read(request.user, place, room):
            raise PermissionDenied("You may not read this room now.")
        after_text = request.query_params.get("after")
        after = None
        if after_text is not None:
            if not after_text.isdigit() or len(after_text) > 18:
                raise InvalidRequest("after must be a line id.",
                                     details={"after": ["A whole number."]})
            after = int(after_text)
        return Response(selectors.room_json(kind=self.kind, object_id=url_id(pk), room=room,
                                            viewer=request.user, after=after))

    @extend_schema(parameters=[OpenApiParameter("room", str, required=False)],
                   request=_LINE, responses={201: ChatLineSerializer})
    def post(self, request: Request, pk: str) -> Response:
        line = services.line_post(user=_user(request), kind=self.kind, object_id=url_id(pk),
                                  room=request.query_params.get("room"),
                                  text=_body(request).get("text"))
        return Response(selectors.line_json(line), status=status.HTTP_201_CREATED)


class MatchChatView(RoomView):
    kind = "match"


class TournamentChatView(RoomView):
    kind = "tournament"


class LineReportView(APIView):
    permission_classes = [IsAuthenticated]
    schema_error_codes = ("409",)

    @extend_schema(request=_REPORT, responses={201: ReportReceiptSerializer})
    def post(self, request: Request, pk: str) -> Response:
        body = _body(request)
        report = services.line_report(user=_user(request), line_id=url_id(pk),
                                      reason=body.get("reason"), comment=body.get("comment"))
        return Response(_receipt(report), status=status.HTTP_201_CREATED)


class PlayerReportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=_REPORT, responses={201: ReportReceiptSerializer})
    def post(self, request: Request, username: str) -> Response:
        body = _body(request)
        report = services.player_report(user=_user(request), username=username,
                                        reason=body.get("reason"), comment=body.get("comment"))
        return Response(_receipt(report), status=status.HTTP_201_CREATED)


def _receipt(report: Report) -> shapes.ReportReceipt:
    return {"id": report.pk, "reason": report.reason, "created": report.created}


class BlockView(APIView):
    """Block a player, lift the block, or ask whether one is in place."""

    permission_classes = [IsAuthenticated]

    def _state(self, user: User, other: User) -> shapes.BlockState:
        blocked = Block.objects.filter(blocker=user, blocked=other).exists()
        return {"username": other.username, "blocked": blocked}

    @extend_schema(responses=BlockStateSerializer)
    def get(self, request: Request, username: str) -> Response:
        user = _user(request)
        other = User.objects.named(username[:150]).filter(is_active=True).first()
        if other is None:
            raise NotFound("No such player.")
        return Response(self._state(user, other))

    @extend_schema(request=None, responses=BlockStateSerializer)
    def post(self, request: Request, username: str) -> Response:
        user = _user(request)
        return Response(self._state(user, services.block_create(user=user, username=username)))

    @extend_schema(responses={200: BlockStateSerializer})
    def delete(self, request: Request, username: str) -> Response:
        user = _user(request)
        return Response(self._state(user, services.block_delete(user=user, username=username)))


class ChatOptionsView(APIView):
    """The asking account's chat option: off, it reads no lines and writes none."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ChatOptionsSerializer)
    def get(self, request: Request) -> Response:
        return Response({"enabled": selectors.chat_enabled(request.user)})

    @extend_schema(request=ChatOptionsSerializer, responses=ChatOptionsSerializer)
    def put(self, request: Request) -> Response:
        enabled = _body(request).get("enabled")
        if not isinstance(enabled, bool):
            raise InvalidRequest("enabled must be true or false.",
                                 details={"enabled": ["Must be a boolean."]})
        option = services.chat_option_set(user=_user(request), enabled=enabled)
        return Response({"enabled": option.enabled})


class ReportQueueView(GenericAPIView):
    """The moderators' queue: open reports, oldest first, each with its line's context
    (``?resolved=1``: those done)."""

    permission_classes = [IsAdminUser]

    @extend_schema(parameters=[OpenApiParameter("resolved", bool, required=False)],
                   responses=ReportSerializer(many=True))
    def get(self, request: Request) -> Response:
        resolved = request.query_params.get("resolved") in ("1", "true")
        page = self.paginate_queryset(selectors.queue(resolved=resolved))
        assert page is not None  # pagination is set globally
        return self.get_paginated_response([selectors.report_json(r) for r in page])


class ReportActionView(APIView):
    """A moderator's decision on a report, with its reason (logged; nothing deleted)."""

    permission_classes = [IsAdminUser]

    @extend_schema(request=_ACTION, responses={201: ModerationActionSerializer})
    def post(self, request: Request, pk: str) -> Response:
        report = Report.objects.select_related("accused").filter(pk=url_id(pk)).first()
        if report is None:
            raise NotFound("No such report.")
        body = _body(request)
        reason = body.get("reason")
        done = services.moderation_act(
            moderator=_user(request), target=report.accused, action=str(body.get("action")),
            reason=reason if isinstance(reason, str) else "", duration=body.get("duration"),
            report=report)
        return Response(selectors.action_json(done), status=status.HTTP_201_CREATED)


class PanicView(APIView):
    """Panic mode: only established accounts may chat while it is on."""

    permission_classes = [IsAdminUser]

    @extend_schema(responses=PanicSerializer)
    def get(self, request: Request) -> Response:
        return Response(selectors.panic_json())

    @extend_schema(request=_PANIC, responses=PanicSerializer)
    def post(self, request: Request) -> Response:
        body = _body(request)
        minutes = body.get("minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool):
            raise InvalidRequest("minutes must be a whole number.",
                                 details={"minutes": ["A whole number."]})
        reason = body.get("reason")
        services.panic_start(moderator=_user(request), minutes=minutes,
                             reason=reason if isinstance(reason, str) else "")
        return Response(selectors.panic_json())

    @extend_schema(responses=PanicSerializer)
    def delete(self, request: Request) -> Response:
        services.panic_stop(moderator=_user(request), reason="")
        return Response(selectors.panic_json())
