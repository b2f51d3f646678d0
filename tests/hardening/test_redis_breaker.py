"""A hung Redis (SIGSTOP: connections accepted, never answered) and a Redis that comes back
empty, with a throwaway ``redis-server`` of the test's own (no persistence).

- With Redis stopped, the requests do not each wait for the socket
  timeout: after the first failure the counters go to the database while one thread
  probes Redis (``nard_site.cache.Breaker``); ``health/`` says ``"redis": "degraded"``;
  when Redis answers again it is used again. Asserted by counting the operations that
  actually went to Redis, not by timing (the figures are in docs/benchmarks.md).
- A log-in lockout is not lifted when Redis comes back empty after an
  outage (the log-in limit's keys are kept in the database too).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import call_command

from nard_site.cache import Breaker, RedisWithFallback, breaker
from tests.support import assert_error, free_port

REDIS_SERVER = shutil.which("redis-server")
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(REDIS_SERVER is None and not os.environ.get("CI"),
                       reason="needs redis-server (CI has it)"),
]


class Redis:
    """A ``redis-server`` on a free port, in memory only; ``restart`` loses its data."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                if redis.Redis(port=self.port, socket_timeout=0.5).ping():
                    return
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        """Killed (stopped or not) and started again, empty."""
        self.stop()
        self.start()


@pytest.fixture
def redis_server(tmp_path: Path, settings: Any) -> Iterator[Redis]:
    server = Redis(tmp_path)
    settings.CACHE_REDIS_COOLDOWN = 0.2
    settings.CACHES = {
        "default": {"BACKEND": "nard_site.cache.RedisWithFallback", "LOCATION": server.url,
                    "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1}},
        "fallback": {"BACKEND": "nard_site.cache.CountersCache", "LOCATION": "nard_cache",
                     "OPTIONS": {"MAX_ENTRIES": 10000}}}
    call_command("createcachetable", verbosity=0)  # the fallback's table (the suite's
    try:                                            # settings have no database cache)
        yield server
    finally:
        server.stop()


@dataclass
class RedisCalls:
    tries: int = 0  # operations that went to Redis (its breaker closed)
    probes: int = 0  # the breaker's probes of a Redis away


@pytest.fixture
def redis_calls(monkeypatch: pytest.MonkeyPatch) -> RedisCalls:
    """Counts what the counters' cache asks Redis, by wrapping the real methods: each
    operation it tries on Redis, and each probe its breaker sends while Redis is away."""
    calls = RedisCalls()
    real_redis, real_failed = RedisWithFallback._redis, Breaker.failed

    def counted_redis(self: RedisWithFallback, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.breaker.closed:
            calls.tries += 1
        return real_redis(self, name, *args, **kwargs)

    def counted_failed(self: Breaker, ping: Callable[[], Any], exc: BaseException) -> None:
        def counted_ping() -> Any:
            calls.probes += 1
            return ping()

        real_failed(self, counted_ping, exc)

    monkeypatch.setattr(RedisWithFallback, "_redis", counted_redis)
    monkeypatch.setattr(Breaker, "failed", counted_failed)
    return calls


def eventually(check: Callable[[], bool], seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def health(api: Any) -> dict[str, Any]:
    response = api.get("/api/v1/health/")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_stopped_redis_is_tried_once_not_on_every_request(
        redis_server: Redis, redis_calls: RedisCalls, api: Any) -> None:
    assert health(api)["redis"] == "ok"
    tried = redis_calls.tries
    api.get("/api/v1/health/")
    assert redis_calls.tries > tried  # the throttle's counter is in Redis

    redis_server.signal(signal.SIGSTOP)
    try:
        tried = redis_calls.tries
        answers = [health(api) for _ in range(20)]  # throttled: each uses the cache
        # One operation paid the timeout and opened the breaker; the rest never waited.
        assert redis_calls.tries - tried == 1, redis_calls.tries - tried
        assert answers[-1]["redis"] == "degraded" and answers[-1]["status"] == "ok"
        assert answers[-1]["redis_down_seconds"] >= 0
        eventually(lambda: redis_calls.probes >= 2)  # probed in the background meanwhile
        assert redis_calls.tries - tried == 1
    finally:
        redis_server.signal(signal.SIGCONT)
    eventually(lambda: health(api)["redis"] == "ok")
    tried = redis_calls.tries
    health(api)
    assert redis_calls.tries > tried  # Redis in use again


def wrong_password(api: Any, seat: Any) -> Any:
    return api.post("/api/v1/accounts/token/",
                    {"username": seat.user.username, "password": "not the password"},
                    format="json")


def test_a_lockout_outlives_an_outage_and_an_empty_redis(redis_server: Redis, api: Any,
                                                         seat: Any, settings: Any) -> None:
    """Failures counted partly in Redis, partly in the database while Redis is stopped;
    the lockout holds when Redis comes back empty (restarted), before and after the
    breaker takes Redis back into use."""
    settings.LOGIN_FAILURE_LIMIT = 4
    carol = seat("carol")
    carol.user.set_password("right password")
    carol.user.save()
    right = {"username": "carol", "password": "right password"}
    gate = breaker(redis_server.url)
    for _ in range(2):
        assert wrong_password(api, carol).status_code in (400, 401)
    redis_server.signal(signal.SIGSTOP)
    for _ in range(2):
        assert wrong_password(api, carol).status_code in (400, 401)
    assert_error(api.post("/api/v1/accounts/token/", right, format="json"), 429, "throttled")
    assert not gate.closed
    redis_server.restart()  # back, and empty
    assert_error(api.post("/api/v1/accounts/token/", right, format="json"), 429, "throttled")
    eventually(lambda: gate.closed)
    assert caches["default"].get("any-key") is None  # Redis in use again, and empty
    assert_error(api.post("/api/v1/accounts/token/", right, format="json"), 429, "throttled")
