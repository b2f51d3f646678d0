"""Authentication with a per-username limit on failed log-ins (accounts.login_limit)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from . import login_limit


class LoginLimitBackend(ModelBackend):
    """``ModelBackend`` that refuses a locked-out username before checking the password
    (``PermissionDenied`` makes ``authenticate()`` stop and answer ``None``), counts each
    wrong password and clears the count on success."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get("username", "")
        name = str(username or "")
        if name and login_limit.retry_after(name) is not None:
            raise PermissionDenied("Too many failed log-ins for this username.")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if name and password is not None:
            if user is None:
                login_limit.record_failure(name)
            else:
                login_limit.clear(name)
        return user
