"""End to end: the production ASGI server (granian, nard_site.asgi) on a real socket.
Two clients: one moves, the other's stream has the event within 1 s — in process, and
across two worker processes through Redis."""

from __future__ import annotations

import http.client
import os
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.streams.test_redis_fanout import REDIS, redis_up
from tests.support import AsgiServer, call, prepare_database, server_env


@pytest.fixture(params=["in process", "redis, 2 workers"])
def server(request: Any, tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = server_env(tmp_path / "live.sqlite3",
                     STREAM_REDIS_CHANNEL=f"nard_site:e2e:{os.getpid()}")
    workers = 1
    if request.param.startswith("redis"):
        if not redis_up():
            pytest.skip("Redis is not running at 127.0.0.1:6379")
        env["REDIS_URL"], workers = REDIS, 2
    tokens = prepare_database(env, {"white": None, "black": None})
    server = AsgiServer(env, workers)
    try:
        yield {"port": server.port, **tokens}
    finally:
        server.stop()


def read_stream(port: int, path: str, token: str | None, found: queue.Queue[Any]) -> None:
    """Every SSE event of ``path`` (but notices) into ``found`` with the time it arrived."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Accept": "text/event-stream",
                                       **({"Authorization": f"Token {token}"} if token else {})})
    response = conn.getresponse()
    found.put(("status", response.status, time.monotonic()))
    event: dict[str, str] = {}
    for raw in response:
        line = raw.decode().rstrip("\n")
        if not line:
            # An invitation is also a `challenge` notice (tests/social): not timed here.
            if "data" in event and event.get("event") != "notice":
                found.put(("event", event, time.monotonic()))
            event = {}
            continue
        name, _, value = line.partition(": ")
        event[name] = value


def next_event(found: queue.Queue[Any]) -> tuple[dict[str, str], float]:
    kind, event, at = found.get(timeout=15)
    assert kind == "event", (kind, event)
    return event, at


def test_the_other_players_stream_has_the_move_within_a_second(server: dict[str, Any]) -> None:
    port, white, black = server["port"], server["white"], server["black"]
    status, match = call(port, "POST", "/api/v1/matches/", white,
                         {"length": 1, "opponent": "black", "color": "white"})
    assert status == 201
    match_id = match["id"]
    watched: queue.Queue[Any] = queue.Queue()
    mine: queue.Queue[Any] = queue.Queue()
    for path, token, into in ((f"/api/v1/matches/{match_id}/stream/", black, watched),
                              ("/api/v1/stream/", black, mine)):
        threading.Thread(target=read_stream, args=(port, path, token, into),
                         daemon=True).start()
        assert into.get(timeout=15)[:2] == ("status", 200)
    assert next_event(watched)[0]["event"] == "match_created"
    assert next_event(mine)[0]["event"] == "invitation"  # waiting for black, on connect
    # The streams have subscribed (they answered); every change from here on is live.
    for _ in range(3):  # join, then the roll-off: each change from a fresh connection
        status, state = call(port, "POST", f"/api/v1/matches/{match_id}/join/"
                             if _ == 0 else f"/api/v1/matches/{match_id}/roll/",
                             black if _ in (0, 2) else white, {})
        committed = time.monotonic()
        assert status == 200, state
        _, arrived = next_event(watched)
        assert arrived - committed < 1.0
    assert next_event(mine)[0]["event"] == "your_turn"  # the roll-off is black's too
