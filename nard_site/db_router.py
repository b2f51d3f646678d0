"""Reads that can take replication lag go to the streaming replica.

Opt-in: ``DATABASE_REPLICA_URL`` adds the ``replica`` alias and this router (settings.py);
without it nothing changes. The rule (docs/scaling.md, "The read replica"):

* Only a ``GET``/``HEAD`` of a view named in ``REPLICA_VIEWS`` (match lists, a match's
  games and moves, exports, public profiles, the computer's levels) may read the replica,
  and only the ``games`` tables: accounts, tokens, sessions, idempotency records and the
  task queue are always read from the primary (so a just-made token authenticates at once).
* A player who wrote anything (any other method) in the last ``REPLICA_STICKY_SECONDS``
  reads the primary: the write marks their credential (a hash of the Authorization header
  or the session cookie) in the shared cache for that long, and sets a signed cookie for
  clients without a credential. Their own just-written state is never read from the
  replica; other players may see it up to the replica's lag late.
* When the replica does not answer, reads go to the primary and the replica is tried
  again ``REPLICA_RETRY_SECONDS`` later (a breaker, per process).
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

REPLICA = "replica"
#: The apps whose tables may be read from the replica.
REPLICA_APPS = frozenset({"games"})
WROTE_COOKIE = "nard_wrote"
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

_use_replica: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "nard_use_replica", default=False)
_replica_down_until = 0.0


def replica_enabled() -> bool:
    return REPLICA in settings.DATABASES


def _replica_usable() -> bool:
    """Can the replica be read now? Connects if needed; a failure opens the breaker."""
    global _replica_down_until
    if time.monotonic() < _replica_down_until:
        return False
    conn = connections[REPLICA]
    try:
        conn.close_if_health_check_failed()
        conn.ensure_connection()
        return True
    except DatabaseError as exc:
        _replica_down_until = time.monotonic() + settings.REPLICA_RETRY_SECONDS
        log.warning("replica unavailable, reading the primary: %s", exc)
        return False


class ReplicaRouter:
    """``db_for_read``: the replica inside a request marked by the middleware, for the
    ``games`` tables, while it answers; the primary for everything else."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        if not _use_replica.get() or model._meta.app_label not in REPLICA_APPS:  # type: ignore[attr-defined]
            return None
        return REPLICA if _replica_usable() else "default"

    def db_for_write(self, model: type, **hints: Any) -> str:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the replica is a copy of the primary

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == "default"


def _credential(request: HttpRequest) -> str | None:
    auth = request.META.get("HTTP_AUTHORIZATION", "")
    if auth:
        return hashlib.sha256(auth.encode()).hexdigest()[:32]
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if session:
        return hashlib.sha256(b"s:" + session.encode()).hexdigest()[:32]
    return None


def _wrote_key(credential: str) -> str:
    return f"nard:wrote:{credential}"


def wrote_recently(request: HttpRequest) -> bool:
    """Did this client write in the last REPLICA_STICKY_SECONDS? (True when unsure.)"""
    if request.get_signed_cookie(WROTE_COOKIE, default=None,
                                 max_age=settings.REPLICA_STICKY_SECONDS) is not None:
        return True
    credential = _credential(request)
    if credential is None:
        return False
    try:
        return cache.get(_wrote_key(credential)) is not None
    except Exception:  # the cache is away: the primary is always right
        return True


def mark_wrote(request: HttpRequest, response: HttpResponse) -> None:
    ttl = settings.REPLICA_STICKY_SECONDS
    response.set_signed_cookie(WROTE_COOKIE, "1", max_age=ttl, httponly=True,
                               samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
    credential = _credential(request)
    if credential is not None:
        try:
            cache.set(_wrote_key(credential), 1, timeout=ttl)
        except Exception:
            log.warning("could not mark a write in the cache", exc_info=True)


class ReplicaRoutingMiddleware:
    """Marks the requests that may read the replica (process_view, once the URL is
    resolved) and the clients that just wrote (after any unsafe request)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _use_replica.set(False)
        try:
            response = self.get_response(request)
        finally:
            _use_replica.reset(token)
        if request.method not in _SAFE and replica_enabled():
            mark_wrote(request, response)
        return response

    def process_view(self, request: HttpRequest, view: Callable[..., Any],
                     args: Any, kwargs: Any) -> None:
        match = request.resolver_match
        if (replica_enabled() and request.method in ("GET", "HEAD") and match is not None
                and match.url_name in settings.REPLICA_VIEWS
                and not wrote_recently(request)):
            _use_replica.set(True)

