"""Thin views of fair play (docs/api.md#fair-play): the staff's queue and decisions, the
player's appeal."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from fairplay import selectors, services
from games.exceptions import InvalidRequest, NotFound

_DECISION = inline_serializer("FairplayDecisionRequest", {
    "decision": serializers.ChoiceField(choices=["clear", "warn", "assisted", "close"]),
    "reason": serializers.CharField(),
})
_APPEAL = inline_serializer("FairplayAppealRequest", {"text": serializers.CharField()})
_CASE = inline_serializer("FairplayCase", {
    "id": serializers.IntegerField(), "username": serializers.CharField(),
    "score": serializers.FloatField(), "state": serializers.CharField(),
    "games": serializers.IntegerField(), "since": serializers.DateTimeField(),
    "figures": serializers.DictField(), "game_list": serializers.ListField(),
    "positions": serializers.ListField(), "decisions": serializers.ListField(),
})


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise InvalidRequest("The body must be a JSON object.")
    return request.data


def _user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User), "the permission classes admit only signed-in accounts"
    return user


class FairplayQueueView(GenericAPIView):
    """The staff's fair-play queue: flagged accounts with score and evidence."""

    permission_classes = [IsAdminUser]

    @extend_schema(responses=_CASE)
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.queue())
        assert page is not None  # pagination is set globally
        return self.get_paginated_response([selectors.case_json(c) for c in page])


class FairplayDecisionView(APIView):
    """A staff decision on an account's case, with its reason (logged): 409
    ``case_decided`` when the case waits for no decision."""

    permission_classes = [IsAdminUser]
    schema_error_codes = ("409",)

    @extend_schema(request=_DECISION, responses={201: _CASE})
    def post(self, request: Request, username: str) -> Response:
        account = User.objects.named(username).first() if len(username) <= 150 else None
        if account is None:
            raise NotFound("No such player.")
        body = _body(request)
        done = services.decide(account=account, by=_user(request),
                               decision=body.get("decision"), reason=body.get("reason"))
        return Response(selectors.case_json(done.case), status=status.HTTP_201_CREATED)


class FairplayAppealView(APIView):
    """The player's one appeal of a fair-play decision: 404 ``not_found`` without a
    decision to appeal, 409 ``appeal_used`` the second time."""

    permission_classes = [IsAuthenticated]
    schema_error_codes = ("404", "409")

    @extend_schema(request=_APPEAL, responses={201: inline_serializer(
        "FairplayAppeal", {"case": serializers.IntegerField(),
                           "state": serializers.CharField(),
                           "appealed_at": serializers.DateTimeField()})})
    def post(self, request: Request) -> Response:
        case = services.appeal(user=_user(request), text=_body(request).get("text"))
        return Response(selectors.appeal_json(case), status=status.HTTP_201_CREATED)
