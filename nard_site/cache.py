"""The database cache that holds the throttling and log-in counters without Redis.

Django's caches make room by evicting live entries once they hold ``MAX_ENTRIES``
(LocMem drops the oldest; the database cache a third of all rows), so a client that
sends requests under a few hundred identities would evict the counter of a client that
is being throttled. This one makes room only by deleting entries that have expired.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections
from redis.exceptions import RedisError


class CountersCache(DatabaseCache):
    """``DatabaseCache`` whose culling deletes expired entries only, never live ones."""

    def _cull(self, db: str, cursor: Any, now: Any, num: int) -> None:
        connection = connections[db]
        table = connection.ops.quote_name(self._table)  # type: ignore[attr-defined]
        cursor.execute(f"DELETE FROM {table} WHERE {connection.ops.quote_name('expires')} < %s",
                       [connection.ops.adapt_datetimefield_value(now)])


class RedisWithFallback(RedisCache):
    """Redis for the counters, and while Redis is away the database cache instead.

    The throttles and the log-in limit must keep counting when Redis goes away (failing
    open would let password guessing through), and the REST API must keep working: each
    operation that cannot reach Redis is served by the ``fallback`` cache (a
    :class:`CountersCache` on the ``nard_cache`` table, made by ``migrate``). Counters
    restart from what that table holds, so a limit is at worst reset once per outage,
    never lifted.
    """

    @property
    def _fallback(self) -> Any:
        return caches["fallback"]


def _with_fallback(name: str) -> Any:
    def method(self: RedisWithFallback, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(RedisCache, name)(self, *args, **kwargs)
        except RedisError:
            return getattr(self._fallback, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr",
              "set_many", "delete_many", "clear"):
    setattr(RedisWithFallback, _name, _with_fallback(_name))
