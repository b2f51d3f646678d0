"""The ratings API: leaderboards, a player's ratings, quick pairing (thin views)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from nard_site.clients import ip_address
from ratings import selectors, services
from ratings.serializers import (
    LeaderboardSerializer,
    PairingInputSerializer,
    PairingStateSerializer,
    UserRatingsSerializer,
)


class LeaderboardView(APIView):
    """The top 100 active, non-provisional players of a rule set."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LeaderboardSerializer})
    def get(self, request: Request, rules: str) -> Response:
        if not selectors.known_rules(rules):
            raise NotFound(f"No rule set {rules!r}.")
        return Response(selectors.leaderboard(rules))


class UserRatingsView(APIView):
    """A player's ratings per rule set, their history, rank and computer estimates."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: UserRatingsSerializer})
    def get(self, request: Request, username: str) -> Response:
        if len(username) > 150 or "\x00" in username:
            raise NotFound("No such player.")
        user = get_object_or_404(User.objects.named(username), is_active=True)
        return Response(selectors.user_ratings(user))


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


class PairingView(APIView):
    """Quick pairing: ask (``POST``), look again (``GET``), leave the pool (``DELETE``)."""

    permission_classes = [IsAuthenticated]
    schema_error_codes = {"POST": ("409",), "DELETE": ("404",)}

    @extend_schema(responses={200: PairingStateSerializer})
    def get(self, request: Request) -> Response:
        found = services.pairing_status(user=_me(request), address=ip_address(request))
        return Response(selectors.pairing_json(found.request, found.match))

    @extend_schema(request=PairingInputSerializer,
                   responses={201: PairingStateSerializer, 202: PairingStateSerializer})
    def post(self, request: Request) -> Response:
        data = PairingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = services.pairing_request(user=_me(request), address=ip_address(request),
                                         **data.validated_data)
        code = status.HTTP_201_CREATED if found.match is not None else status.HTTP_202_ACCEPTED
        return Response(selectors.pairing_json(found.request, found.match), status=code)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        services.pairing_cancel(user=_me(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
