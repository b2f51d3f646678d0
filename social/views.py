"""Thin views of social: follow and unfollow a player, the list of those followed."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.models import User
from nard_site.api.shapes import schema_serializer
from social.selectors import Followed, following_list

FollowedSerializer = schema_serializer(Followed)


class FollowOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    following = serializers.BooleanField()


def _me(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated
    return user


def _player(username: str) -> User:
    if len(username) > 150 or "\x00" in username:  # no such user could exist
        raise NotFound("No such player.")
    found = User.objects.named(username).filter(is_active=True).first()
    if found is None:
        raise NotFound("No such player.")
    return found


class FollowView(APIView):
    """`POST` follows the player (again: no change), `DELETE` stops following (not
    following: no change). Yourself: 400 `cannot_follow_self`; an unknown player: 404."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="accounts_users_follow", request=None,
                   responses={200: FollowOutputSerializer})
    def post(self, request: Request, username: str) -> Response:
        followed = _player(username)
        services.follow_create(follower=_me(request), followed=followed)
        return Response({"username": followed.username, "following": True})

    @extend_schema(operation_id="accounts_users_unfollow", request=None,
                   responses={204: OpenApiResponse(description="Not following it (now).")})
    def delete(self, request: Request, username: str) -> Response:
        services.follow_delete(follower=_me(request), followed=_player(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FollowingView(APIView):
    """The players the account follows, newest follow first: each `online` (seen in the
    last minute) and `playing` (its active matches' ids, to watch)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="accounts_me_following",
                   responses={200: FollowedSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(following_list(_me(request)))
