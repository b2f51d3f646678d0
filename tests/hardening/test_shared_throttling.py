"""Throttle counters are shared by every worker process: through Redis with REDIS_URL,
through the database cache without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/15"

HIT_HEALTH = """
import django, os
os.environ["DJANGO_SETTINGS_MODULE"] = "nard_site.settings"
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("createcachetable", verbosity=0)
from django.test import Client
print(settings.CACHES["default"]["BACKEND"])
print(" ".join(str(Client().get("/api/v1/health/").status_code) for _ in range({n})))
"""


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except Exception:
        return False


def _process(n: int, env: dict[str, str]) -> list[str]:
    result = subprocess.run([sys.executable, "-c", HIT_HEALTH.format(n=n)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")


@pytest.mark.skipif(not _redis_up() and not os.environ.get("CI"),
                    reason="needs Redis on 127.0.0.1:6379 (CI has it)")
def test_two_processes_share_one_anonymous_budget_through_redis(tmp_path):
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    env = {**os.environ, "REDIS_URL": REDIS_URL, "THROTTLE_ANON": "3/min",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    backend, first = _process(2, env)[:2]
    assert backend == "nard_site.cache.RedisWithFallback"
    assert first == "200 200"
    _, second = _process(2, env)[:2]  # another process: one request left, then 429
    assert second == "200 429"


def test_without_redis_processes_share_the_budget_through_the_database(tmp_path):
    env = {**os.environ, "THROTTLE_ANON": "3/min",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env.pop("REDIS_URL", None)
    backend, first = _process(2, env)[:2]
    assert backend == "nard_site.cache.CountersCache"
    assert first == "200 200"
    assert _process(2, env)[1] == "200 429"
