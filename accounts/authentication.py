"""Token authentication with one hand-written query (every API call runs it)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from drf_spectacular import authentication as drf_spectacular_auth
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from nard_site.api import csrf
from nard_site.api.csrf import CsrfFailed
from nard_site.rows import RowCodec

from . import tokens
from .models import ApiToken, User

TOKENS, USERS = RowCodec(ApiToken), RowCodec(User)
_qn = connection.ops.quote_name
SQL = (f"SELECT {TOKENS.select_list('t')}, {USERS.select_list('u')}"
       f" FROM {_qn(TOKENS.table)} t JOIN {_qn(USERS.table)} u"
       f" ON u.{_qn(USERS.pk.attname)} = t.{_qn('user_id')} WHERE t.{_qn('key_hash')} = %s")


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token and user read together;
    the token is found by its key's hash (``accounts.tokens``: keys are not stored).

    Another scheme (``Bearer <key>``) is refused with a message naming the one expected,
    rather than read as no credentials at all; ``Token`` with no key is refused saying
    so (a bad credential is refused even on a public read). Tokens do not expire: one
    lasts until ``DELETE accounts/token/``, a change or reset of its user's password, or
    the account's deactivation."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            parts = authentication.get_authorization_header(request).split()
        except UnicodeEncodeError:  # not Latin-1: no key was ever that
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not parts:
            return None
        if parts[0].lower() != self.keyword.lower().encode():
            scheme = parts[0].decode("latin-1")[:20]
            raise exceptions.AuthenticationFailed(
                f"The API's Authorization scheme is Token: send 'Authorization: Token <key>', "
                f"not {scheme!r}.")
        if len(parts) == 1:
            raise exceptions.AuthenticationFailed(
                "The Authorization header says Token but gives no key: send "
                "'Authorization: Token <key>', or no Authorization header to read anonymously.")
        return super().authenticate(request)

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
