"""The database cache that holds the throttling and log-in counters without Redis.

Django's caches make room by evicting live entries once they hold ``MAX_ENTRIES``
(LocMem drops the oldest; the database cache a third of all rows), so a client that
sends requests under a few hundred identities would evict the counter of a client that
is being throttled. This one makes room only by deleting entries that have expired.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections
from redis.exceptions import RedisError

_log = logging.getLogger(__name__)


class CountersCache(DatabaseCache):
    """``DatabaseCache`` whose culling deletes expired entries only, never live ones."""

    def _cull(self, db: str, cursor: Any, now: Any, num: int) -> None:
        connection = connections[db]
        table = connection.ops.quote_name(self._table)  # type: ignore[attr-defined]
        cursor.execute(f"DELETE FROM {table} WHERE {connection.ops.quote_name('expires')} < %s",
                       [connection.ops.adapt_datetimefield_value(now)])


class Breaker:
    """Whether this process uses Redis now: a circuit breaker, one per Redis location.

    Closed (Redis in use) until an operation fails; then open for at least
    ``CACHE_REDIS_COOLDOWN`` seconds: every operation goes to the database fallback at once,
    never waiting on Redis, while one background thread probes it (``PING``, one probe at a
    time, every cool-down) and closes the breaker when it answers. A hung Redis (stopped, a
    full network buffer) thus costs the socket timeout once per outage and process, not on
    every call.
    """

    def __init__(self, location: str) -> None:
        self.location = location
        self.lock = threading.Lock()
        self.down_since: float | None = None  # time.time() of the failure that opened it
        self.probing = False

    @property
    def closed(self) -> bool:
        return self.down_since is None

    def down_for(self) -> float | None:
        """Seconds since Redis failed, or ``None`` while it is in use."""
        since = self.down_since
        return None if since is None else max(0.0, time.time() - since)

    def failed(self, ping: Callable[[], Any], exc: BaseException) -> None:
        """An operation on Redis failed: open the breaker, and probe with ``ping``."""
        with self.lock:
            if self.down_since is None:
                self.down_since = time.time()
                _log.warning("cache: Redis at %s failed (%r); counters go to the database "
                             "until it answers again", self.location, exc)
            if self.probing:
                return
            self.probing = True
        threading.Thread(target=self._probe, args=(ping,), daemon=True,
                         name="redis-breaker-probe").start()

    def _probe(self, ping: Callable[[], Any]) -> None:
        cooldown = float(getattr(settings, "CACHE_REDIS_COOLDOWN", 5.0))
        while True:
            time.sleep(cooldown)
            try:
                ping()
            except Exception:
                continue
            with self.lock:
                down = self.down_for()
                self.down_since, self.probing = None, False
            _log.warning("cache: Redis at %s answers again after %.1f s", self.location,
                         down or 0.0)
            return


_breakers: dict[str, Breaker] = {}
_breakers_lock = threading.Lock()


def breaker(location: str) -> Breaker:
    """The process's breaker of the Redis at ``location`` (the cache's ``LOCATION``)."""
    with _breakers_lock:
        found = _breakers.get(location)
        if found is None:
            found = _breakers[location] = Breaker(location)
        return found


def redis_status() -> dict[str, Any] | None:
    """What ``health/`` says of the default cache's Redis: ``{"redis": "ok"}``, or
    ``{"redis": "degraded", "redis_down_seconds": s}`` while the breaker is open (the
    counters in the database meanwhile); ``None`` without Redis."""
    backend = caches["default"]
    if not isinstance(backend, RedisWithFallback):
        return None
    down = backend.breaker.down_for()
    if down is None:
        return {"redis": "ok"}
    return {"redis": "degraded", "redis_down_seconds": round(down, 1)}


def durable(key: str) -> bool:
    """Whether ``key`` is kept in the database as well as in Redis: keys that
    begin with one of ``CACHE_DURABLE_PREFIXES`` (default ``login-``: the log-in limit's
    counts and lockouts), which must survive Redis coming back empty."""
    prefixes = getattr(settings, "CACHE_DURABLE_PREFIXES", ("login-",))
    return isinstance(key, str) and key.startswith(tuple(prefixes))


class RedisWithFallback(RedisCache):
    """Redis for the counters, and while Redis is away the database cache instead.

    The throttles and the log-in limit must keep counting when Redis goes away (failing
    open would let password guessing through), and the REST API must keep working: each
    operation that cannot reach Redis is served by the ``fallback`` cache (a
    :class:`CountersCache` on the ``nard_cache`` table, made by ``migrate``), and so is
    every operation while the :class:`Breaker` is open (Redis failed in the last
    cool-down and has not answered a probe since). Throttle counters restart from what
    that table holds, so a rate limit is at worst reset once per outage.

    Durable keys (:func:`durable`: the log-in limit's) are written to the table too and
    read from it when Redis has not got them, so a lockout is never lifted by an outage
    or by a Redis that comes back empty.
    """

    @property
    def _fallback(self) -> Any:
        return caches["fallback"]

    @property
    def breaker(self) -> Breaker:
        servers = self._servers  # type: ignore[attr-defined]
        return breaker(str(servers[0]) if servers else "")

    def _redis(self, name: str, *args: Any, **kwargs: Any) -> tuple[bool, Any]:
        """``(True, result)`` of Redis's ``name``, or ``(False, None)`` when Redis is not
        in use or failed (the breaker opens)."""
        gate = self.breaker
        if not gate.closed:
            return False, None
        try:
            return True, getattr(RedisCache, name)(self, *args, **kwargs)
        except RedisError as exc:
            gate.failed(lambda: self._cache.get_client(write=True).ping(), exc)
            return False, None

    def _ttl(self, key: Any, version: Any) -> Any:
        """The seconds ``key`` has left in Redis (``None``: no expiry), to mirror it."""
        made = self.make_and_validate_key(key, version=version)
        left = self._cache.get_client(made).ttl(made)
        return None if left is None or left < 0 else max(1, int(left))


def _with_fallback(name: str) -> Any:
    def method(self: RedisWithFallback, *args: Any, **kwargs: Any) -> Any:
        ok, result = self._redis(name, *args, **kwargs)
        return result if ok else getattr(self._fallback, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in ("touch", "has_key", "clear"):
    setattr(RedisWithFallback, _name, _with_fallback(_name))


def _get(self: RedisWithFallback, key: Any, default: Any = None, version: Any = None) -> Any:
    missing = object()
    ok, found = self._redis("get", key, missing, version=version)
    if ok and found is not missing:
        return found
    if ok and not durable(key):
        return default
    return self._fallback.get(key, default, version=version)


def _set(self: RedisWithFallback, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
         version: Any = None) -> None:
    ok, _ = self._redis("set", key, value, timeout, version=version)
    if not ok or durable(key):
        self._fallback.set(key, value, timeout, version=version)


def _add(self: RedisWithFallback, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
         version: Any = None) -> bool:
    if durable(key) and self._fallback.get(key, version=version) is not None:
        return False  # kept in the database: Redis came back without it
    ok, added = self._redis("add", key, value, timeout, version=version)
    if not ok:
        return bool(self._fallback.add(key, value, timeout, version=version))
    if added and durable(key):
        self._fallback.set(key, value, timeout, version=version)
    return bool(added)


def _incr(self: RedisWithFallback, key: Any, delta: int = 1, version: Any = None) -> int:
    try:
        ok, value = self._redis("incr", key, delta, version=version)
    except ValueError:  # not in Redis: a durable key may be in the database
        if not durable(key):
            raise
        return int(self._fallback.incr(key, delta, version=version))
    if not ok:
        return int(self._fallback.incr(key, delta, version=version))
    if durable(key):
        try:
            self._fallback.set(key, value, self._ttl(key, version), version=version)
        except RedisError:
            self._fallback.set(key, value, version=version)
    return int(value)


def _delete(self: RedisWithFallback, key: Any, version: Any = None) -> bool:
    ok, deleted = self._redis("delete", key, version=version)
    if not ok or durable(key):
        return bool(self._fallback.delete(key, version=version)) or bool(deleted)
    return bool(deleted)


def _get_many(self: RedisWithFallback, keys: Any, version: Any = None) -> dict[Any, Any]:
    keys = list(keys)
    ok, found = self._redis("get_many", keys, version=version)
    if not ok:
        return dict(self._fallback.get_many(keys, version=version))
    rest = [k for k in keys if k not in found and durable(k)]
    if rest:
        found = {**self._fallback.get_many(rest, version=version), **found}
    return dict(found)


def _set_many(self: RedisWithFallback, data: Any, timeout: Any = DEFAULT_TIMEOUT,
              version: Any = None) -> list[Any]:
    ok, failed = self._redis("set_many", data, timeout, version=version)
    if not ok:
        return list(self._fallback.set_many(data, timeout, version=version))
    kept = {k: v for k, v in data.items() if durable(k)}
    if kept:
        self._fallback.set_many(kept, timeout, version=version)
    return list(failed)


def _delete_many(self: RedisWithFallback, keys: Any, version: Any = None) -> None:
    keys = list(keys)
    ok, _ = self._redis("delete_many", keys, version=version)
    kept = keys if not ok else [k for k in keys if durable(k)]
    if kept:
        self._fallback.delete_many(kept, version=version)


for _name, _method in (("get", _get), ("set", _set), ("add", _add), ("incr", _incr),
                       ("delete", _delete), ("get_many", _get_many), ("set_many", _set_many),
                       ("delete_many", _delete_many)):
    _method.__name__ = _name
    setattr(RedisWithFallback, _name, _method)
