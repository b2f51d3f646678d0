"""Authentication under the limits on password checks (accounts.login_limit)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest

from . import login_limit
from .models import User


class LoginLimitBackend(ModelBackend):
    """``ModelBackend`` that counts each attempt before checking its password (refusing
    one over a limit without checking it), checks it in one of the process's hashing
    slots (refusing at once when none is free), and clears the username's count on
    success. A refusal raises ``PermissionDenied`` (``authenticate()`` then stops and
    answers ``None``) and is left on the request (``login_limit.refusal_of``)."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if not username or password is None:
            return None
        attempt = login_limit.begin(request, str(username))
        try:
            with login_limit.hashing():
                user = super().authenticate(request, username=username, password=password,
                                            **kwargs)
        except login_limit.Busy:
            attempt.cancel()
            login_limit.refuse_busy(request)
        except BaseException:
            attempt.cancel()
            raise
        if user is not None:
            attempt.succeeded()
        return user
