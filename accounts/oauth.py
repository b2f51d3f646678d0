"""Third-party apps over OAuth 2 (django-oauth-toolkit): what this server allows of it.

- **Grants**: the authorization code (PKCE required: ``OAUTH2_PROVIDER["PKCE_REQUIRED"]``)
  and its refresh token, nothing else. The password grant would give an app the account's
  password, and the client credentials grant a token of no account: both are refused.
- **The account's log-in**: ``/oauth/authorize/`` asks for the session; without one it sends
  the browser to ``/oauth/login/`` (:class:`LoginView`), whose password check goes through
  ``authenticate()`` and so under the log-in limits (``accounts.login_limit``), and says so
  when a limit refused it, as the admin's form does.
- **Client secrets** are checked with the password hashers (django-oauth-toolkit hashes
  them): each check takes one of the process's hashing slots (``login_limit.hashing``),
  so a flood at ``/oauth/token/`` cannot take the CPU from everyone's moves.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from oauth2_provider.oauth2_validators import OAuth2Validator

from . import login_limit
from .forms import LimitedLoginForm

GRANTS = frozenset({"authorization_code", "refresh_token"})
"""The OAuth grant types the token endpoint accepts."""


class Validator(OAuth2Validator):
    """``OAUTH2_PROVIDER["OAUTH2_VALIDATOR_CLASS"]``: the toolkit's validator with only the
    authorization code and refresh grants, and client secrets checked in a hashing slot."""

    def validate_grant_type(self, client_id: str, grant_type: str, client: Any,
                            request: Any, *args: Any, **kwargs: Any) -> bool:
        if grant_type not in GRANTS:
            return False
        return bool(super().validate_grant_type(client_id, grant_type, client, request,
                                                *args, **kwargs))

    def validate_user(self, *args: Any, **kwargs: Any) -> bool:
        return False  # the password grant: never (an app never sees the password)

    def authenticate_client(self, request: Any, *args: Any, **kwargs: Any) -> bool:
        try:
            with login_limit.hashing():
                return bool(super().authenticate_client(request, *args, **kwargs))
        except login_limit.Busy:  # every hashing slot is taken: refuse, do not queue
            return False


class LoginView(auth_views.LoginView):
    """``/oauth/login/``: the account's log-in on the way to ``/oauth/authorize/`` (its
    ``next``), a session like the play page's."""

    form_class = LimitedLoginForm
    template_name = "accounts/oauth_login.html"
    redirect_authenticated_user = True
