"""Faults, end to end on the production ASGI server (granian, nard_site.asgi, ``DEBUG=0``):

- PostgreSQL out of reach while clients play and stream: the server's database connections
  are cut (``pg_terminate_backend``) and new ones refused (``ALLOW_CONNECTIONS false``) on
  a database of the test's own — the shared server is never restarted. Requests in between
  get a 503 in the error shape (never a 500 page); the open stream keeps going and, once
  the database is back, has every event exactly once; nothing is half-written.
- A server worker killed (SIGKILL) mid-load loses no move answered 200.
- Redis away: the REST API keeps working (the counters fall back to the database cache).

The PostgreSQL case runs where the suite does (``DATABASE_URL=postgres://…``); on SQLite
it is skipped. Every wait is bounded (``DEADLINE``); no sleep is an assertion.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

from tests.support import ROOT, Answer, AsgiServer, call, free_port, prepare_database

DEADLINE = 20.0  # seconds any one condition may take (a failure shows as a timeout)
ON_POSTGRES = connection.vendor == "postgresql"
needs_postgres = pytest.mark.skipif(
    not ON_POSTGRES, reason="needs PostgreSQL (run the suite with DATABASE_URL=postgres://…): "
    "the outage is made with pg_terminate_backend and ALLOW_CONNECTIONS on a database of the "
    "test's own")


# --- a live server -----------------------------------------------------------------------

def production_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "0",
           "SECRET_KEY": "faults-" + "k3!Z" * 16, "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0", "REDIS_URL": "",
           "THROTTLE_ANON": "100000000/min", "THROTTLE_USER": "100000000/min",
           "LOG_LEVEL": "ERROR", "STREAM_POLL_SECONDS": "0.5", "ASGI_THREADS": "2",
           "STREAM_REDIS_CHANNEL": f"nard_site:faults:{uuid.uuid4().hex}", **extra}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def prepare(env: dict[str, str], players: int) -> list[str]:
    """Migrate the server's database and make ``players`` accounts: their tokens."""
    return list(prepare_database(env, {f"p{i}": None for i in range(players)}).values())


def verify_games(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "manage.py", "verify_games"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 differ" in done.stdout, done.stdout
    return done.stdout


def production_server(env: dict[str, str], workers: int = 1, *extra: str,
                      ready: Callable[[int], bool] = lambda status: status == 200
                      ) -> AsgiServer:
    """granian as production runs it, logging errors only."""
    return AsgiServer(env, workers, *extra, ready=ready, log_level="error")


def until(condition: Callable[[], Any], what: str, timeout: float = DEADLINE) -> Any:
    end = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.02)


def assert_unavailable(answer: Answer) -> None:
    """A 503 in the API's error shape — not a 500, not an HTML page."""
    assert answer.status == 503, (answer.status, answer.raw[:300])
    assert answer.json is not None, answer.raw[:300]
    error = answer.json["error"]
    assert error["code"] == "service_unavailable" and error["message"]
    assert isinstance(error["details"], dict)
    assert answer.headers.get("retry-after")


# --- clients -------------------------------------------------------------------------------

class Player(threading.Thread):
    """Plays hotseat matches closed-loop (roll, then the first legal step), on a fresh
    connection a request. Records each 200's ``(match, version)``; on a 503, a 409 or a
    cut connection it reads the match again and goes on."""

    def __init__(self, port: int, token: str, match_id: int | None = None) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.match_id = port, token, match_id
        self.stop = threading.Event()
        self.ok: list[tuple[int, int]] = []
        self.unavailable: list[Answer] = []
        self.cut = 0
        self.bad: list[str] = []  # anything else: a failure

    def request(self, method: str, path: str, body: Any = None) -> Answer | None:
        try:
            answer = call(self.port, method, path, self.token, body)
        except (OSError, http.client.HTTPException):
            self.cut += 1
            time.sleep(0.05)  # back off (not an assertion)
            return None
        if answer.status == 503:
            self.unavailable.append(answer)
            time.sleep(0.05)
            return None
        if answer.status == 409:  # an answer lost on the way had committed: read again
            return None
        if answer.status >= 400:
            self.bad.append(f"{method} {path}: {answer.status} {answer.raw[:300]!r}")
            return None
        return answer

    def run(self) -> None:
        match: Any = None
        while not self.stop.is_set() and not self.bad:
            if self.match_id is None:
                created = self.request("POST", "/api/v1/matches/", {"length": 1, "hotseat": True})
                if created is None:
                    continue
                self.match_id, match = created.json["id"], created.json
                continue
            url = f"/api/v1/matches/{self.match_id}/"
            if match is None:
                got = self.request("GET", url)
                if got is None:
                    continue
                match = got.json
            if match["status"] != "active":
                self.match_id = match = None
                continue
            state = match["state"]
            if state["phase"] == "move" and state["legal_steps"]:
                answer = self.request("POST", url + "moves/", {
                    "steps": [state["legal_steps"][0]], "expected_version": match["version"]})
            else:
                answer = self.request("POST", url + "roll/",
                                      {"expected_version": match["version"]})
            if answer is None:
                match = None
                continue
            match = answer.json
            self.ok.append((self.match_id, match["version"]))

    def finish(self) -> None:
        self.stop.set()
        self.join(timeout=30)
        assert not self.is_alive()


class Watcher(threading.Thread):
    """Reads a match stream: the events' ``id``s and the comments, as they come."""

    def __init__(self, port: int, match_id: int) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.path = f"/api/v1/matches/{match_id}/stream/"
        self.ids: list[int] = []
        self.comments: list[str] = []
        self.status: int | None = None
        self.ended: str | None = None  # "clean" at the end of the body, else the error
        self.started = threading.Event()

    def run(self) -> None:
        try:
            self.conn.request("GET", self.path, headers={"Accept": "text/event-stream"})
            response = self.conn.getresponse()
            self.status = response.status
            self.started.set()
            for raw in response:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    self.ids.append(int(line[4:]))
                elif line.startswith(": "):
                    self.comments.append(line[2:])
            self.ended = "clean"
        except Exception as exc:  # recorded, asserted by the test
            self.ended = repr(exc)
        finally:
            self.started.set()

    def close(self) -> None:
        sock = self.conn.sock
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
        self.join(timeout=30)


def events_of(port: int, token: str, match_id: int) -> list[dict[str, Any]]:
    answer = call(port, "GET", f"/api/v1/matches/{match_id}/events/", token)
    assert answer.status == 200, answer.raw[:300]
    return list(answer.json)


def assert_no_move_lost(player: Player, port: int) -> None:
    """Each 200 is a change ``version - 1 -> version`` of a match only this player writes:
    had one not been committed, the next change would have been answered with the same
    version again. So: no version twice, none beyond the match's final version."""
    by_match: dict[int, list[int]] = {}
    for match_id, version in player.ok:
        by_match.setdefault(match_id, []).append(version)
    for match_id, versions in by_match.items():
        assert len(versions) == len(set(versions)), (match_id, versions)
        assert versions == sorted(versions), (match_id, versions)
        final = call(port, "GET", f"/api/v1/matches/{match_id}/", player.token).json
        assert max(versions) <= final["version"], (match_id, versions, final["version"])
        seqs = [e["seq"] for e in events_of(port, player.token, match_id)]
        assert seqs == list(range(1, len(seqs) + 1)), (match_id, seqs)


# --- PostgreSQL out of reach -----------------------------------------------------------------

@pytest.fixture
def own_postgres() -> Iterator[tuple[str, Any]]:
    """A database of this test's own on the suite's PostgreSQL server, and an admin
    connection (to the ``postgres`` database) that makes the outage."""
    import psycopg

    conf = connection.settings_dict
    auth = quote(conf["USER"] or "postgres") + (f":{quote(conf['PASSWORD'])}"
                                                if conf["PASSWORD"] else "")
    server = f"postgres://{auth}@{conf['HOST'] or '127.0.0.1'}:{conf['PORT'] or 5432}"
    name = f"nard_faults_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin = psycopg.connect(f"{server}/postgres", autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}", admin
    finally:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def outage(admin: Any, name: str, allow: bool) -> None:
    """``allow=False``: refuse new connections to ``name`` and cut the open ones."""
    admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"true" if allow else "false"}')
    if not allow:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = %s AND pid <> pg_backend_pid()", [name])


@needs_postgres
def test_postgres_out_of_reach_503_then_everything_works_again(
        own_postgres: tuple[str, Any]) -> None:
    url, admin = own_postgres
    name = url.rsplit("/", 1)[1]
    env = production_env(url)
    white, watcher_token = prepare(env, 2)
    server = production_server(env)
    player = watcher = None
    try:
        port = server.port
        status, match = call(port, "POST", "/api/v1/matches/", white,
                             {"length": 7, "hotseat": True})
        assert status == 201
        match_id = match["id"]
        watcher = Watcher(port, match_id)
        watcher.start()
        assert watcher.started.wait(DEADLINE) and watcher.status == 200
        player = Player(port, white, match_id)
        player.start()
        until(lambda: len(player.ok) >= 10, "10 moves before the outage")

        outage(admin, name, allow=False)
        before = len(player.ok)
        # Whatever asks now gets the 503 in the error shape: DRF views (the token read,
        # the match, a move), a new stream, and a non-DRF page (the session read).
        base = f"/api/v1/matches/{match_id}/"
        assert_unavailable(call(port, "GET", base, white))
        assert_unavailable(call(port, "POST", base + "roll/", white, {}))
        assert_unavailable(call(port, "GET", base + "events/"))
        assert_unavailable(call(port, "GET", base + "stream/", Accept="text/event-stream"))
        assert_unavailable(call(port, "GET", "/api/v1/stream/", watcher_token))
        assert_unavailable(call(port, "GET", "/play/", Cookie="sessionid=abcdefghijklmnop"))
        assert call(port, "GET", "/api/v1/health/").status == 503
        until(lambda: player.unavailable, "the playing client gets a 503")
        for answer in player.unavailable:
            assert_unavailable(answer)
        until(lambda: any("database unavailable" in c for c in watcher.comments),
              "the open stream says the database is away, and keeps going")
        assert watcher.ended is None  # still open
        assert len(player.ok) <= before + 1  # a move in flight at the cut may have landed

        outage(admin, name, allow=True)
        until(lambda: len(player.ok) >= before + 10, "10 moves after the database is back")
        player.finish()
        assert not player.bad, player.bad
        assert_no_move_lost(player, port)
        # The stream went on: every event of the match, once each, in order.
        last = events_of(port, white, match_id)[-1]["seq"]
        until(lambda: (watcher.ids and watcher.ids[-1] >= last) or watcher.ended,
              "the stream catches up")
        assert watcher.ids == list(range(1, last + 1))
        assert watcher.ended in (None, "clean"), watcher.ended
        # Resuming with Last-Event-ID after the outage still works.
        resumed = Watcher(port, match_id)
        resumed.path += f"?after={max(last - 3, 0)}"
        resumed.start()
        until(lambda: len(resumed.ids) >= min(3, last), "a resumed stream answers")
        resumed.close()
        assert resumed.ids[:3] == list(range(max(last - 3, 0) + 1, last + 1))[:3]
    finally:
        if player is not None:
            player.stop.set()
        if watcher is not None:
            watcher.close()
        server.stop()
    verify_games(env)


# --- a worker killed -----------------------------------------------------------------------

@pytest.fixture
def database_url(tmp_path: Path, request: Any) -> Iterator[str]:
    """PostgreSQL (a database of the test's own) where the suite runs on it, else SQLite."""
    if not ON_POSTGRES:
        yield f"sqlite:///{tmp_path / 'faults.sqlite3'}"
        return
    url, _ = request.getfixturevalue("own_postgres")
    yield url


def test_a_killed_worker_loses_no_move_answered_200(database_url: str) -> None:
    env = production_env(database_url)
    tokens = prepare(env, 6)
    # As in production, a worker that dies is replaced (README.md's command).
    server = production_server(env, 2, "--respawn-failed-workers",
                               "--respawn-interval", "0.5")
    players = [Player(server.port, token) for token in tokens]
    try:
        workers = until(lambda: len(server.workers()) == 2 and server.workers(),
                        "two workers")
        for player in players:
            player.start()

        def moves() -> int:
            return sum(len(p.ok) for p in players)

        until(lambda: moves() >= 30, "30 moves before the kill")
        os.kill(workers[0], signal.SIGKILL)  # mid-load: requests in flight on it are cut
        killed_at = moves()
        until(lambda: moves() >= killed_at + 40, "40 moves after the kill")
        until(lambda: workers[0] not in server.workers() and len(server.workers()) == 2,
              "the killed worker replaced")
        for player in players:
            player.finish()
        for player in players:
            assert not player.bad, player.bad
            assert_no_move_lost(player, server.port)
        assert server.process.poll() is None  # the server itself stayed up
    finally:
        for player in players:
            player.stop.set()
        server.stop()
    verify_games(env)


# --- Redis away ----------------------------------------------------------------------------

def test_redis_away_the_rest_api_keeps_working_on_a_live_server(tmp_path: Path) -> None:
    env = production_env(f"sqlite:///{tmp_path / 'redis.sqlite3'}",
                         REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")  # nothing there
    (token,) = prepare(env, 1)
    server = production_server(env, ready=lambda status: True)  # up, whatever health says
    try:
        status, match = call(server.port, "POST", "/api/v1/matches/", token,
                             {"length": 1, "hotseat": True})
        assert status == 201
        watcher = Watcher(server.port, match["id"])
        watcher.start()
        assert watcher.started.wait(DEADLINE) and watcher.status == 200
        status, _ = call(server.port, "POST", f"/api/v1/matches/{match['id']}/roll/", token, {})
        assert status == 200
        until(lambda: len(watcher.ids) >= 3, "the stream falls back to the database")
        watcher.close()
    finally:
        server.stop()


# --- the pieces, in process (SQLite too) --------------------------------------------------

def test_a_lost_connection_is_a_503_in_drf_views(api: Any, alice: Any, monkeypatch: Any) -> None:
    from django.db import OperationalError

    from accounts.authentication import TokenAuthentication

    def lost(*args: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(TokenAuthentication, "authenticate", lost)
    response = api.get("/api/v1/matches/", HTTP_AUTHORIZATION="Token x")
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["error"]["code"] == "service_unavailable"


def test_a_lost_connection_is_a_503_outside_drf() -> None:
    from django.db import IntegrityError, InterfaceError
    from django.test import RequestFactory

    from nard_site.api import errors
    from nard_site.api.middleware import BodySizeLimitMiddleware

    request = RequestFactory().get("/play/")
    middleware = BodySizeLimitMiddleware(lambda r: None)  # type: ignore[arg-type,return-value]
    response = middleware.process_exception(request, InterfaceError("connection already closed"))
    assert response is not None and response.status_code == 503
    assert json.loads(response.content)["error"]["code"] == "service_unavailable"
    assert middleware.process_exception(request, IntegrityError("a bug, not an outage")) is None
    try:  # handler500 runs while the exception is handled (one raised by a middleware)
        raise InterfaceError("connection already closed")
    except InterfaceError:
        assert errors.handler500(request).status_code == 503
    try:
        raise IntegrityError("a bug")
    except IntegrityError:
        assert errors.handler500(request).status_code == 500


@pytest.mark.django_db(transaction=True)
def test_a_match_stream_keeps_going_through_a_database_outage(
        settings: Any, alice: Any, bob: Any, scripted_dice: Any, monkeypatch: Any) -> None:
    from django.db import OperationalError

    from live import streams
    from tests.streams.conftest import db, open_stream, run
    from tests.support import start_match

    settings.STREAM_POLL_SECONDS = 0.05
    settings.STREAM_DB_RETRY_SECONDS = 0.05
    match_id = start_match(alice, bob, length=7, script=scripted_dice)["id"]
    count = bob.client.get(f"/api/v1/matches/{match_id}/events/").json()[-1]["seq"]
    real, failures = streams.events_after, [3]

    async def flaky(match: int, after: int) -> Any:
        if failures[0] > 0:
            failures[0] -= 1
            raise OperationalError("the database system is shutting down")
        return await real(match, after)

    async def scenario() -> list[dict[str, str]]:
        reader = await open_stream(f"/api/v1/matches/{match_id}/stream/?after={count}")
        monkeypatch.setattr(streams, "events_after", flaky)
        got = [await reader.next(comments=True)]
        assert "database unavailable" in got[0]["comment"], got
        await db(bob.ok)(match_id, "resign")  # delivered live, or read once it is back
        while len([e for e in got if "id" in e]) < 2:
            got.append(await reader.next())
        await reader.close()
        return [e for e in got if "id" in e]

    assert [int(e["id"]) for e in run(scenario)] == [count + 1, count + 2]
    assert failures == [0]
