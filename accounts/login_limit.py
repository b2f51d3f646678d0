"""A limit on failed log-ins per username, whatever address they come from.

After ``LOGIN_FAILURE_LIMIT`` wrong passwords for one username within
``LOGIN_FAILURE_WINDOW`` seconds, every log-in for that username (the right password
too) is refused until the window, counted from the first failure, has passed. A
successful log-in clears the count. Usernames count by :func:`username_key`, so
``Alice`` and ``ALICE`` share one budget. The counts live in the default cache (the
database cache, or Redis), like the throttling counters.

:class:`accounts.backends.LoginLimitBackend` applies it to every ``authenticate()``
call (the API's ``accounts/token/``, ``/admin/login/``); the views check
:func:`retry_after` first to say why (429 ``throttled`` in the API).
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache

from .names import username_key


def _limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 10))


def _window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", 900))


def _key(username: str) -> str:
    digest = hashlib.sha256(username_key(username).encode("utf-8", "surrogatepass"))
    return f"login-failures:{digest.hexdigest()}"


def retry_after(username: str) -> int | None:
    """Seconds until ``username`` may try again, or ``None`` when it may now."""
    entry = cache.get(_key(username))
    if not entry:
        return None
    count, first = entry
    left = first + _window() - time.time()
    if count < _limit() or left <= 0:
        return None
    return max(1, int(left + 0.999))


def record_failure(username: str) -> None:
    now = time.time()
    entry = cache.get(_key(username))
    count, first = entry if entry and entry[1] + _window() > now else (0, now)
    cache.set(_key(username), (count + 1, first), timeout=max(1, int(first + _window() - now)))


def clear(username: str) -> None:
    cache.delete(_key(username))
