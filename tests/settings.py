"""The test suite's settings: the development defaults, asked for explicitly now that
``DEBUG`` defaults off (subprocesses the tests start inherit ``DEBUG=1`` too), and the
throttling counters in memory, cleared before each test (tests/conftest.py) without a
database. The production cache (nard_site.cache.CountersCache) is tested against real
servers in tests/api/test_throttling_live.py."""

import os

os.environ.setdefault("DEBUG", "1")

from nard_site.settings import *  # noqa: F403
from nard_site.settings import REDIS_URL

if not REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                          "OPTIONS": {"MAX_ENTRIES": 1_000_000}}}

# The doorbell's listener (live/transports.py) ends with the last stream: no connection of it
# outlives a test's streams (PostgreSQL drops the test database at the end).
STREAM_BELL_LINGER = 0

# Fair play's background reviews are off in the suites (a rated match's end would queue a
# review every suite would see); tests/fairplay turns them on.
FAIRPLAY_REVIEWS_PER_DAY = 0

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # SQLite's test database is a file of this run's own, not Django's shared-cache
    # in-memory one: there a thread's read in flight (the worker's, a live server's) makes
    # another connection's query fail at once with "database schema is locked" — the
    # shared cache's table locks ignore the busy timeout. A file has the busy timeout and
    # WAL (readers beside the writer); synchronous=OFF because nothing of it need survive.
    import tempfile
    from pathlib import Path

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(Path(tempfile.gettempdir()) / f"nard-test-{os.getpid()}.sqlite3")}
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (  # noqa: F405
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF")
