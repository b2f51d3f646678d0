"""The database cache that holds the throttling and log-in counters without Redis.

Django's caches make room by evicting live entries once they hold ``MAX_ENTRIES``
(LocMem drops the oldest; the database cache a third of all rows), so a client that
sends requests under a few hundred identities would evict the counter of a client that
is being throttled. This one makes room only by deleting entries that have expired.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.db import DatabaseCache
from django.db import connections


class CountersCache(DatabaseCache):
    """``DatabaseCache`` whose culling deletes expired entries only, never live ones."""

    def _cull(self, db: str, cursor: Any, now: Any, num: int) -> None:
        connection = connections[db]
        table = connection.ops.quote_name(self._table)  # type: ignore[attr-defined]
        cursor.execute(f"DELETE FROM {table} WHERE {connection.ops.quote_name('expires')} < %s",
                       [connection.ops.adapt_datetimefield_value(now)])
