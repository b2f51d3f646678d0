from __future__ import annotations

from django.contrib.auth import authenticate, login, update_session_auth_hash
from django.contrib.auth.models import AnonymousUser
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, AuthenticationFailed, NotFound, Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nard_site import clients
from nard_site.api.csrf import CsrfFailed
from nard_site.api.csrf import message as csrf_message

from . import login_limit, scopes, selectors, services
from .models import ApiToken, User
from .notices import notice_json
from .serializers import (
    GuestOutputSerializer,
    MeSerializer,
    MeUpdateSerializer,
    NoticeListQuerySerializer,
    NoticeListSerializer,
    NoticeMarkedSerializer,
    NoticeMarkSerializer,
    PersonalTokenCreatedSerializer,
    PersonalTokenInputSerializer,
    PersonalTokenSerializer,
    PublicProfileSerializer,
    RegisterInputSerializer,
    RegisterOutputSerializer,
    TokenInputSerializer,
    TokenOutputSerializer,
)


class RegisterView(APIView):
    """Create a player account; answers its API token. Sent by a guest (its token, or
    its session with the CSRF token), it makes that guest account the player: the same
    account, its matches and reviews kept."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    def perform_authentication(self, request: Request) -> None:
        # Registering needs no credentials: stale or refused ones (an old token, a session
        # without its CSRF token) register a new account rather than refuse.
        try:
            request.user  # noqa: B018  (reading it authenticates)
        except APIException:
            request.user, request.auth = AnonymousUser(), None

    @extend_schema(request=RegisterInputSerializer, responses={201: RegisterOutputSerializer})
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        signed_in = request.user
        guest = signed_in if isinstance(signed_in, User) and signed_in.is_guest else None
        user, token = services.user_register(**data.validated_data, guest=guest)
        if guest is not None and request.auth is None:  # the session: kept logged in
            update_session_auth_hash(request._request, user)
        body = RegisterOutputSerializer({"username": user.username, "token": token.key}).data
        return Response(body, status=status.HTTP_201_CREATED)


class GuestView(APIView):
    """A guest identity without a password (`Guest-7f3a`): answers its API token and logs
    the page's session in as it. Guests play casual matches (the computer, quick
    pairing, invitations), are never rated, and become ordinary accounts by registering
    while signed in as one. At most `GUESTS_PER_ADDRESS` per address in `GUESTS_WINDOW`
    seconds: 429 `throttled`."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_scope = "auth"
    schema_error_codes = ("429",)

    @extend_schema(request=None, responses={201: GuestOutputSerializer}, auth=[])
    def post(self, request: Request) -> Response:
        # It reads no credentials, so no CSRF token either; but another site's page must
        # not sign a visitor's browser in as a guest (log-in CSRF): browsers say where a
        # request comes from (Sec-Fetch-Site), API clients send no such header.
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise CsrfFailed(csrf_message("a guest is made from this site's own pages"))
        user, token = services.guest_create(address=clients.client_address(request))
        login(request._request, user)
        body = {"username": user.username, "token": token.key, "is_guest": True}
        return Response(GuestOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """``POST`` exchanges username and password for a new token (its key answered once,
    only its hash kept); ``DELETE`` revokes the token it is sent with (under the session
    login, every token of the account)."""

    throttle_scope = "auth"
    schema_error_codes = ("401",)
    required_scopes = {"POST": None, "DELETE": None}  # a scoped token may revoke itself

    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_authenticators(self):  # type: ignore[no-untyped-def]
        # Logging in must work even when a stale token is still sent along: a POST reads
        # no credentials at all (the throttles ask who the user is, which would check it).
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST":
            return []
        return super().get_authenticators()

    def get_authenticate_header(self, request: Request) -> str:
        return "Token"  # a refused log-in is a 401 (with no authenticators DRF says 403)

    @extend_schema(request=TokenInputSerializer, responses={200: TokenOutputSerializer},
                   auth=[])
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, username=data.validated_data["username"],
                            password=data.validated_data["password"])
        if user is None:
            refusal = login_limit.refusal_of(request)
            if refusal is not None:  # over a limit: the password was not even checked
                raise Throttled(refusal.retry_after, detail=refusal.message)
            raise AuthenticationFailed("Invalid username or password.")
        token = services.token_obtain(user=user)
        return Response(TokenOutputSerializer({"token": token.key}).data)

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Token revoked.")})
    def delete(self, request: Request) -> Response:
        # The token the request came with; under the session login, every token.
        auth = request.auth
        services.token_revoke(user=_me(request),
                              token=auth if isinstance(auth, ApiToken) else None)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _me(request: Request) -> User:
    """The signed-in account (IsAuthenticated lets no one else in)."""
    user = request.user
    assert isinstance(user, User)
    return user


class MeView(APIView):
    """The logged-in player's own profile."""

    permission_classes = [IsAuthenticated]
    required_scopes = {"GET": scopes.ACCOUNT_READ, "PATCH": scopes.ACCOUNT_WRITE}

    @extend_schema(responses={200: MeSerializer})
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(_me(request)).data)

    @extend_schema(request=MeUpdateSerializer, responses={200: MeSerializer})
    def patch(self, request: Request) -> Response:
        data = MeUpdateSerializer(data=request.data, partial=True,
                                  context={"user": request.user})
        data.is_valid(raise_exception=True)
        user = services.user_update_profile(user=_me(request), **data.validated_data)
        return Response(MeSerializer(user).data)


class NotificationsView(APIView):
    """`GET`: the account's notices, newest first, with the count of unread ones;
    `POST`: marks them read — those of `ids`, or all."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="accounts_me_notifications_list",
                   parameters=[NoticeListQuerySerializer],
                   responses={200: NoticeListSerializer})
    def get(self, request: Request) -> Response:
        query = NoticeListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        me = _me(request)
        found = selectors.notices_of(me)
        if "before" in query.validated_data:
            found = found.filter(pk__lt=query.validated_data["before"])
        if query.validated_data["unread"]:
            found = found.filter(read_at__isnull=True)
        results = [notice_json(n) for n in found[:query.validated_data["limit"]]]
        return Response({"unread": selectors.unread_count(me), "results": results})

    @extend_schema(operation_id="accounts_me_notifications_mark_read",
                   request=NoticeMarkSerializer, responses={200: NoticeMarkedSerializer})
    def post(self, request: Request) -> Response:
        data = NoticeMarkSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        me = _me(request)
        marked = services.notices_mark_read(user=me, ids=data.validated_data.get("ids"))
        return Response({"marked": marked, "unread": selectors.unread_count(me)})


class BotUpgradeView(APIView):
    """Make the signed-in account a bot, for good: only an account that has finished no
    game (409 ``has_finished_games``); a bot already is 409 ``already_bot``."""

    permission_classes = [IsAuthenticated]
    schema_error_codes = ("409",)
    required_scopes = {"POST": scopes.BOT_PLAY}

    @extend_schema(request=None, responses={200: MeSerializer})
    def post(self, request: Request) -> Response:
        return Response(MeSerializer(services.bot_upgrade(user=_me(request))).data)


class PublicProfileView(APIView):
    """Anyone may read a player's public profile and stats."""

    permission_classes = [AllowAny]
    required_scopes = {"GET": None}

    @extend_schema(responses={200: PublicProfileSerializer})
    def get(self, request: Request, username: str) -> Response:
        if len(username) > 150 or "\x00" in username:  # no such user could exist
            raise NotFound("No such player.")
        user = get_object_or_404(User.objects.named(username), is_active=True)
        return Response(PublicProfileSerializer(user).data)


class PersonalTokensView(APIView):
    """The account's personal tokens: ``GET`` lists them (never their keys), ``POST``
    makes one with chosen scopes and answers its key, that once. Only with a log-in
    token or the session: a scoped token cannot make itself a wider one."""

    permission_classes = [IsAuthenticated]
    schema_error_codes = ("409",)
    required_scopes = {"GET": scopes.FULL_ACCESS, "POST": scopes.FULL_ACCESS}
    pagination_class = None

    @extend_schema(responses={200: PersonalTokenSerializer(many=True)})
    def get(self, request: Request) -> Response:
        found = selectors.personal_tokens(user=_me(request))
        return Response(PersonalTokenSerializer(found, many=True).data)

    @extend_schema(request=PersonalTokenInputSerializer,
                   responses={201: PersonalTokenCreatedSerializer})
    def post(self, request: Request) -> Response:
        data = PersonalTokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        issued = services.personal_token_create(user=_me(request), **data.validated_data)
        body = {**PersonalTokenSerializer(issued.token).data, "token": issued.key}
        return Response(body, status=status.HTTP_201_CREATED)


class PersonalTokenView(APIView):
    """``DELETE``: revoke one of the account's personal tokens (it stops working at once)."""

    permission_classes = [IsAuthenticated]
    required_scopes = {"DELETE": scopes.FULL_ACCESS}

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Revoked.")})
    def delete(self, request: Request, token_id: str) -> Response:
        if not (token_id.isascii() and token_id.isdigit()) or len(token_id) > 18:
            raise NotFound("No such personal token.")  # no id could be that (nor overflow)
        services.personal_token_revoke(user=_me(request), token_id=int(token_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
