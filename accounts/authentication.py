"""Token authentication with one hand-written query (every API call runs it)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from nard_site.rows import RowCodec

from .models import User

TOKENS, USERS = RowCodec(Token), RowCodec(User)


@cache
def _sql(vendor: str) -> str:
    del vendor
    qn = connection.ops.quote_name
    return (f"SELECT {TOKENS.select_list('t')}, {USERS.select_list('u')}"
            f" FROM {qn(TOKENS.table)} t JOIN {qn(USERS.table)} u"
            f" ON u.{qn(USERS.pk.column)} = t.{qn('user_id')} WHERE t.{qn('key')} = %s")


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token and user read together."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        with connection.cursor() as cursor:
            cursor.execute(_sql(connection.vendor), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = TOKENS.load(row), USERS.load(row, TOKENS.width)
        assert token is not None and user is not None
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token.user = user
        return user, token
