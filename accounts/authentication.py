"""The API's authentication: ``Token`` keys with one hand-written query (every API call
runs it), OAuth 2 ``Bearer`` tokens (django-oauth-toolkit), the session; and the scope
check of the scoped ones (``accounts.scopes``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from drf_spectacular import authentication as drf_spectacular_auth
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from oauth2_provider.contrib.rest_framework import (
    OAuth2Authentication as BaseOAuth2Authentication,
)
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from nard_site.api import csrf
from nard_site.api.csrf import CsrfFailed
from nard_site.rows import RowCodec

from . import scopes, tokens
from .models import ApiToken, User

if TYPE_CHECKING:  # drf_spectacular.openapi reads the API settings, which import this module
    from drf_spectacular.openapi import AutoSchema

TOKENS, USERS = RowCodec(ApiToken), RowCodec(User)
_qn = connection.ops.quote_name
SQL = (f"SELECT {TOKENS.select_list('t')}, {USERS.select_list('u')}"
       f" FROM {_qn(TOKENS.table)} t JOIN {_qn(USERS.table)} u"
       f" ON u.{_qn(USERS.pk.attname)} = t.{_qn('user_id')} WHERE t.{_qn('key_hash')} = %s")


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token and user read together;
    the token is found by its key's hash (``accounts.tokens``: keys are not stored).

    ``Bearer`` is left to :class:`OAuth2Authentication`; another scheme is refused with a
    message naming the ones expected, rather than read as no credentials at all; ``Token``
    with no key is refused saying so (a bad credential is refused even on a public read).
    Tokens do not expire: one lasts until ``DELETE accounts/token/`` (a personal one:
    ``DELETE accounts/tokens/{id}/``), a change or reset of its user's password, or the
    account's deactivation. A personal token may do only what its scopes allow."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            parts = authentication.get_authorization_header(request).split()
        except UnicodeEncodeError:  # not Latin-1: no key was ever that
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not parts:
            return None
        if parts[0].lower() == OAuth2Authentication.keyword.lower().encode():
            return None  # an OAuth 2 access token: OAuth2Authentication's
        if parts[0].lower() != self.keyword.lower().encode():
            scheme = parts[0].decode("latin-1")[:20]
            raise exceptions.AuthenticationFailed(
                f"The API's Authorization schemes are Token and Bearer: send 'Authorization: "
                f"Token <key>' (an API key) or 'Bearer <token>' (an OAuth 2 access token), "
                f"not {scheme!r}.")
        if len(parts) == 1:
            raise exceptions.AuthenticationFailed(
                "The Authorization header says Token but gives no key: send "
                "'Authorization: Token <key>', or no Authorization header to read anonymously.")
        found = super().authenticate(request)
        if found is not None and found[1].personal:
            scopes.check(request, found[0], scopes.parse(found[1].scopes))
        return found

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if not tokens.could_be_key(key):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        with connection.cursor() as cursor:
            cursor.execute(SQL, [tokens.hash_key(key)])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = TOKENS.load(row), USERS.load(row, TOKENS.width)
        assert token is not None and user is not None
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token.user = user
        return user, token


class OAuth2Authentication(BaseOAuth2Authentication):
    """``Authorization: Bearer <token>``: an OAuth 2 access token a third-party app got at
    ``/oauth/token/`` (django-oauth-toolkit), limited to the scopes the account approved.
    An invalid or expired token is refused (401), even on a public read, as a bad
    ``Token`` key is."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            parts = authentication.get_authorization_header(request).split()
        except UnicodeEncodeError:
            return None  # TokenAuthentication, first, has refused it already
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        found = super().authenticate(request)
        if found is None:
            raise exceptions.AuthenticationFailed(
                "Invalid or expired OAuth access token (an API key is sent as "
                "'Authorization: Token <key>', not Bearer).")
        user, token = found
        if user is None or not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        scopes.check(request, user, scopes.parse(token.scope))
        return user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication, whose refused CSRF check is 403 ``csrf_failed`` (as
    ``CSRF_FAILURE_VIEW`` answers for the site's other JSON endpoints), not a bare
    ``permission_denied``."""

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as exc:
            reason = str(exc.detail).removeprefix("CSRF Failed: ")
            raise CsrfFailed(csrf.message(reason)) from None


class SessionScheme(drf_spectacular_auth.SessionScheme):
    """The schema's ``cookieAuth`` for :class:`SessionAuthentication` (drf-spectacular's
    own extension matches DRF's class only)."""

    target_class = "accounts.authentication.SessionAuthentication"


class OAuth2Scheme(OpenApiAuthenticationExtension):
    """The schema's ``oauth2`` security scheme: the authorization code flow (with PKCE)
    at ``/oauth/``, its scopes, and per operation the scope it needs."""

    target_class = "accounts.authentication.OAuth2Authentication"
    name = "oauth2"
    priority = 1  # before drf-spectacular's own extension for the toolkit's class

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, Any]:
        flow = {"authorizationUrl": "/oauth/authorize/", "tokenUrl": "/oauth/token/",
                "refreshUrl": "/oauth/token/", "scopes": dict(scopes.SCOPES)}
        return {"type": "oauth2", "flows": {"authorizationCode": flow},
                "description": "OAuth 2 authorization code with PKCE (SHA-256): "
                               "`Authorization: Bearer <token>` (docs/api.md, "
                               "\"Tokens and scopes\")."}

    def get_security_requirement(
            self, auto_schema: AutoSchema) -> dict[str, list[Any]] | list[dict[str, list[Any]]]:
        scope = scopes.required(auto_schema.view, auto_schema.method)
        if scope == scopes.FULL_ACCESS:
            return []  # not with an OAuth token at all
        return {self.name: [scope] if scope else []}
