"""Token authentication with one hand-written query (every API call runs it)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from nard_site.rows import RowCodec

from .models import User

TOKENS, USERS = RowCodec(Token), RowCodec(User)
_qn = connection.ops.quote_name
SQL = (f"SELECT {TOKENS.select_list('t')}, {USERS.select_list('u')}"
       f" FROM {_qn(TOKENS.table)} t JOIN {_qn(USERS.table)} u"
       f" ON u.{_qn(USERS.pk.column)} = t.{_qn('user_id')} WHERE t.{_qn('key')} = %s")


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token and user read together."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        with connection.cursor() as cursor:
            cursor.execute(SQL, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = TOKENS.load(row), USERS.load(row, TOKENS.width)
        assert token is not None and user is not None
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token.user = user
        return user, token
