"""The helpers every Django-side suite shares — one for each thing.

- the error shape: ``assert_error(response, status, code)``;
- a player: ``Seat`` (the ``seat``/``alice``/``bob`` fixtures in tests/conftest.py make them);
- the dice: the ``scripted_dice`` fixture (tests/conftest.py), over ``tests.dice.planned``;
- a match under way: ``start_match``; a position: ``set_board``;
- the production ASGI server in a subprocess: ``AsgiServer`` on a database that
  ``prepare_database`` migrated, with accounts and their tokens; ``call`` over HTTP;
- what the server answered: ``steps_of``, ``events``, ``event_types`` and the shape checks
  ``check_match``/``check_state``/``check_board``/``check_step`` (API.md, to the letter),
  and ``assert_shape(body, shapes.Match)``: a JSON answer against its typed shape, whole.

Django is imported here at module level: tests/engine never imports this module.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from rest_framework.test import APIClient

from games.models import Event, Game, GamePhase, Match
from nard_site.api.shapes import is_optional, unwrap
from nardy import BLACK, WHITE

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium, driven by Playwright (never a downloaded browser): the ``chromium``
fixture (tests/conftest.py) skips without it, except in CI, which installs it."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
API = "/api/v1"
MATCHES = f"{API}/matches/"
ANALYSIS = f"{API}/analysis/legal-plays/"

MATCH_KEYS = {"id", "white", "black", "length", "score", "status", "winner", "created_at",
              "finished_at", "state"}
STATE_KEYS = {"game", "phase", "turn", "dice", "dice_left", "head_may_leave", "board",
              "legal_steps", "version"}
STATUSES = {"open", "invited", "active", "finished", "aborted"}
PHASES = {"roll-off", "roll", "move", "finished"}


# --- the error shape -----------------------------------------------------------------------


def is_json(response: Any) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def assert_error(response: Any, status: int, code: str, **details: Any) -> dict[str, Any]:
    """API.md: the answer is ``status`` with ``{"error": {"code", "message", "details"}}``
    as JSON, ``code`` its code, and each of ``details`` (e.g. ``reason="head_rule"``)
    among its details; returns the ``error`` object."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert is_json(response), (response.get("Content-Type"), response.content[:200])
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert set(error) == {"code", "message", "details"}, error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"].strip(), error
    assert isinstance(error["details"], dict), error
    for key, value in details.items():
        assert error["details"].get(key) == value, (key, error)
    return error


# --- a player -------------------------------------------------------------------------------


class Seat:
    """One player's API client, with shortcuts for the match endpoints."""

    def __init__(self, user: Any, client: APIClient) -> None:
        self.user, self.client = user, client

    def url(self, match_id: int, action: str = "") -> str:
        return f"{MATCHES}{match_id}/" + (f"{action}/" if action else "")

    def create(self, **body: Any) -> Any:
        return self.client.post(MATCHES, {"length": 1, **body}, format="json")

    def get(self, match_id: int, **params: Any) -> dict[str, Any]:
        response = self.client.get(self.url(match_id), params)
        assert response.status_code == 200, response.content
        return response.json()

    def post(self, match_id: int, action: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(self.url(match_id, action), body or {}, format="json")

    def ok(self, match_id: int, action: str, body: dict[str, Any] | None = None) -> Any:
        """``action`` succeeds: 201 for a rematch (a new match), 200 for the others."""
        response = self.post(match_id, action, body)
        expected = 201 if action == "rematch" else 200
        assert response.status_code == expected, (response.status_code, response.content)
        return response.json()

    def move(self, match_id: int, *steps: tuple[int, int]) -> Any:
        """Play ``(from, to)`` steps, the dice left for the server to find."""
        return self.ok(match_id, "moves", {"steps": [{"from": a, "to": b} for a, b in steps]})


# --- a match under way ----------------------------------------------------------------------


def start_match(white: Seat, black: Seat, length: int = 1,
                script: Callable[..., Any] | None = None, rolloff: tuple[int, int] = (6, 1)
                ) -> dict[str, Any]:
    """Invite, accept and roll off (White rolls first) so that ``rolloff`` decides."""
    created = white.create(length=length, opponent=black.user.username, color="white")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    black.ok(match_id, "join")
    if script is not None:
        script(*rolloff)
    white.ok(match_id, "roll")
    return black.ok(match_id, "roll")


def set_board(match_id: int, points: dict[int, int], *, perspective: str = "white",
              off_mine: int = 0, off_theirs: int = 0, turn: str | None = None,
              first_turn: dict[str, bool] | None = None, bar_mine: int = 0,
              bar_theirs: int = 0) -> Game:
    """Put the current game on ``points`` (signed counts in ``perspective``'s numbering).

    The game must be waiting for a roll; ``turn`` changes the side to roll, and
    ``first_turn`` the R12 flags (default: neither side is on its first turn).
    """
    match = Match.objects.get(pk=match_id)
    game = Game.objects.get(pk=match.current_game_id)
    assert game.phase == GamePhase.ROLL, game.phase
    side = WHITE if perspective == "white" else BLACK
    game.position_key = match.ruleset.position_from_perspective(
        side, points, off_mine, off_theirs, bar_mine, bar_theirs).to_id()
    flags = first_turn or {"white": False, "black": False}
    game.white_first_turn, game.black_first_turn = flags["white"], flags["black"]
    if turn is not None:
        game.turn = turn
    game.save()
    return game


# --- the live streams ---------------------------------------------------------------------


def doorbell_listener_runs() -> bool:
    """Whether this process's listener of the ``events`` doorbell (live/transports.py: the
    thread it names ``live-doorbell``) runs; it ends with the last stream."""
    return any(thread.name == "live-doorbell" and thread.is_alive()
               for thread in threading.enumerate())


# --- the production ASGI server in a subprocess --------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(database: Path, **extra: str) -> dict[str, str]:
    """The environment of a server of this tree on a SQLite file: ``DEBUG``, no Redis."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1",
           "REDIS_URL": "", "LOG_LEVEL": "WARNING", **extra}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def prepare_database(env: Mapping[str, str], users: Mapping[str, str | None]
                     ) -> dict[str, str]:
    """Migrate the database ``env`` names, make its cache table and the accounts
    ``users`` (name → password; ``None``: no usable one), in one start of Django:
    each account's API token by name."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", (
        "from django.core.management import call_command\n"
        "call_command('migrate', verbosity=0)\ncall_command('createcachetable')\n"
        "from accounts.models import User\nfrom accounts.services import token_obtain\n"
        f"for name, password in {dict(users)!r}.items():\n"
        "    user = User.objects.create_user(name, password=password)\n"
        "    print('TOKEN', name, token_obtain(user=user).key)\n")],
        cwd=ROOT, env=dict(env), check=True, capture_output=True, text=True).stdout
    tokens = {line.split()[1]: line.split()[2] for line in out.splitlines()
              if line.startswith("TOKEN ")}
    assert set(tokens) == set(users), out
    return tokens


class Answer:
    """One HTTP answer: ``status``, ``headers`` (lower-case names), ``raw``, and ``json``
    when it is JSON; ``status, body = answer`` unpacks like a pair."""

    def __init__(self, status: int, headers: dict[str, str], raw: bytes) -> None:
        self.status, self.headers, self.raw = status, headers, raw
        self.json: Any = None
        if headers.get("content-type", "").startswith("application/json") and raw:
            self.json = json.loads(raw)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.status, self.json))

    def __getitem__(self, index: int) -> Any:
        return (self.status, self.json)[index]


def call(port: int, method: str, path: str, token: str | None = None, body: Any = None,
         **headers: str) -> Answer:
    """One request on a fresh connection (so a cut or a killed worker costs one request)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        sent = {"Content-Type": "application/json", "Accept": "application/json", **headers}
        if token:
            sent["Authorization"] = f"Token {token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      response.read())
    finally:
        conn.close()


class AsgiServer:
    """granian serving ``nard_site.asgi`` — the production server — in its own process
    group on a free port, until :meth:`stop`; started once ``/api/v1/health/`` answers
    a status ``ready`` takes (within 60 s). ``extra``: more granian options."""

    def __init__(self, env: Mapping[str, str], workers: int = 1, *extra: str,
                 ready: Callable[[int], bool] = lambda status: status == 200,
                 log_level: str = "warning") -> None:
        self.ready = ready
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "granian", "--interface", "asgi",
             "nard_site.asgi:application", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(workers), "--log-level", log_level,
             "--workers-kill-timeout", "2", *extra],
            cwd=ROOT, env=dict(env), start_new_session=True)
        deadline = time.monotonic() + 60
        while not self.up():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"granian did not come up on port {self.port}")
            time.sleep(0.1)

    def up(self) -> bool:
        try:
            return self.ready(call(self.port, "GET", "/api/v1/health/").status)
        except (OSError, http.client.HTTPException):
            return False

    def workers(self) -> list[int]:
        """The worker processes: the main process's children."""
        pid = self.process.pid
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(p) for p in children.read().split()]

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


# --- what the server answered ---------------------------------------------------------------


def steps_of(state: dict[str, Any]) -> set[tuple[int, int, int]]:
    """The legal steps offered as ``(from, to, die)``."""
    return {(s["from"], s["to"], s["die"]) for s in state["legal_steps"]}


def event_types(match_id: int) -> list[str]:
    return [e.type for e in Event.objects.filter(match_id=match_id).order_by("seq")]


def events(match_id: int, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in Event.objects.filter(match_id=match_id, type=type_).order_by("seq")]


def check_step(step: Any) -> None:
    assert isinstance(step, dict) and set(step) == {"from", "to", "die", "hit"}, step
    assert step["hit"] is False, step  # Long Nardy never hits (R6)
    assert all(type(step[k]) is int for k in ("from", "to", "die")), step
    assert 1 <= step["from"] <= 24 and 0 <= step["to"] <= 24 and 1 <= step["die"] <= 6, step


def check_board(board: Any, perspective: str | None = None) -> None:
    assert isinstance(board, dict) and set(board) == {"perspective", "points", "off", "bar"}, board
    assert board["perspective"] in ("white", "black")
    if perspective is not None:
        assert board["perspective"] == perspective, board
    assert set(board["off"]) == {"mine", "theirs"}, board
    mine, theirs = board["off"]["mine"], board["off"]["theirs"]
    assert type(mine) is int and type(theirs) is int
    points = board["points"]
    assert isinstance(points, dict)
    for key, count in points.items():
        assert isinstance(key, str) and key.isdigit() and str(int(key)) == key, key
        assert 1 <= int(key) <= 24, key
        assert type(count) is int and count != 0, (key, count)  # empty points omitted
    assert sum(c for c in points.values() if c > 0) + mine == 15, board
    assert -sum(c for c in points.values() if c < 0) + theirs == 15, board


def check_state(state: Any) -> None:
    assert isinstance(state, dict) and set(state) >= STATE_KEYS, state
    assert type(state["game"]) is int and state["game"] >= 1
    assert state["phase"] in PHASES
    assert state["turn"] in (None, "white", "black")
    assert state["dice"] is None or (isinstance(state["dice"], list)
                                     and all(type(d) is int for d in state["dice"]))
    assert isinstance(state["dice_left"], list)
    assert type(state["head_may_leave"]) is int
    assert type(state["version"]) is int
    check_board(state["board"])
    assert isinstance(state["legal_steps"], list)
    for step in state["legal_steps"]:
        check_step(step)


def check_match(match: Any) -> None:
    assert isinstance(match, dict) and set(match) >= MATCH_KEYS, match
    assert type(match["id"]) is int
    assert match["length"] in (1, 3, 5, 7)
    assert set(match["score"]) >= {"white", "black"}
    assert all(type(match["score"][k]) is int for k in ("white", "black"))
    assert match["status"] in STATUSES
    assert match["winner"] in (None, "white", "black"), match["winner"]
    assert isinstance(match["created_at"], str)
    assert match["finished_at"] is None or isinstance(match["finished_at"], str)
    for side in ("white", "black"):
        assert match[side] is None or isinstance(match[side], str)
    if match["state"] is not None:
        check_state(match["state"])
        if "version" in match:
            assert match["state"]["version"] == match["version"]


# --- an answer against its typed shape (games.shapes, accounts.stats) -----------------------


def assert_shape(value: Any, shape: Any, where: str = "$") -> None:
    """``value`` (decoded JSON) is exactly what ``shape`` (a type of games.shapes) says,
    all the way down: every required key and no unknown one, each value of its type
    (``int`` not ``bool``, a date-time as an ISO string), in its choices and bounds.
    ``where`` names the place in a failure (``$.state.board.off.mine``)."""
    shape, options = unwrap(shape)  # the schema's reading of Annotated[..., Doc(...)]
    if get_origin(shape) in (Union, types.UnionType):
        if value is None:
            assert type(None) in get_args(shape), (where, "null")
            return
        (inner,) = [a for a in get_args(shape) if a is not type(None)]
        shape, inner_options = unwrap(inner)
        options = {**inner_options, **options}
    if "choices" in options:  # values, or (value, label) pairs
        values = [c[0] if isinstance(c, tuple) else c for c in options["choices"]]
        assert value in values, (where, value, values)
    if options.get("min_value") is not None:
        assert value >= options["min_value"], (where, value)
    if options.get("max_value") is not None:
        assert value <= options["max_value"], (where, value)
    origin = get_origin(shape)
    if origin is Literal:
        assert value in get_args(shape), (where, value, get_args(shape))
    elif is_typeddict(shape):
        assert isinstance(value, dict), (where, value)
        hints = get_type_hints(shape, include_extras=True)
        required = {k for k, h in hints.items() if not is_optional(shape, k, h)}
        assert required <= set(value), (where, "missing", sorted(required - set(value)))
        assert set(value) <= set(hints), (where, "unknown", sorted(set(value) - set(hints)))
        for key, item in value.items():
            assert_shape(item, hints[key], f"{where}.{key}")
    elif origin is list:
        assert isinstance(value, list), (where, value)
        for i, item in enumerate(value):
            assert_shape(item, get_args(shape)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), (where, value)
        for key, item in value.items():
            assert isinstance(key, str), (where, key)
            assert_shape(item, get_args(shape)[1], f"{where}.{key}")
    elif shape is Any:
        pass
    elif shape is datetime:
        assert isinstance(value, str) and datetime.fromisoformat(value.replace("Z", "+00:00")), (
            where, value)
    elif shape is str:
        assert isinstance(value, str), (where, value)
        if options.get("date"):
            date.fromisoformat(value)
    elif shape is float:
        assert type(value) in (int, float), (where, value)
    else:
        assert shape in (int, bool), (where, shape)
        assert type(value) is shape, (where, value, shape)


@contextlib.contextmanager
def running_worker(interval: float = 3600) -> Iterator[Any]:
    """The task queue's worker (games/management/commands/db_worker.py) in a thread,
    asleep on its doorbell once this yields (``worker.waiting``); stopped after. With a
    poll ``interval`` of an hour, only a ring wakes it."""
    from django.db import connections

    from games.management.commands.db_worker import LeasedWorker

    worker = LeasedWorker(queue_names=["default"], interval=interval, batch=False,
                          backend_name="default", startup_delay=False, max_tasks=None,
                          worker_id="test-wake", excluded_queue_names=[])

    def run() -> None:
        try:
            worker.run()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not worker.waiting.is_set():
        assert time.monotonic() < deadline, "the worker did not go to sleep"
        time.sleep(0.02)
    try:
        yield worker
    finally:
        worker.stop()
        thread.join(30)
        assert not thread.is_alive(), "the worker did not stop"
