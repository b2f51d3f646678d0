"""The reference bot client (computer/lab/client.py): two bot accounts play whole
matches through the public API on a live server, one at ``random`` and one at
``heuristic``; its Server-Sent Events parser on a canned stream; a stale version read
again; 429 retried with the same Idempotency-Key; and bot accounts need the flag.

Other tests of the flag: tests/computer_api/test_levels_and_accounts.py (staff set it in
the admin, a flagged account plays through the API like a person, people are not bots)."""

from __future__ import annotations

import http.server
import json
import logging
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import computer
from accounts.models import User
from accounts.services import token_obtain
from computer.lab import __main__ as cli
from computer.lab import client
from computer.lab.client import Action, Api, ApiError, Bot, EventStream, NotABot, ServerEvent
from games.models import Game, Match
from games.replay import replay_problems
from nardy import RULESETS, WHITE
from tests.support import ROOT, AsgiServer, prepare_database, server_env

HANG = 600  # seconds: a guard against a hung client only, never an assertion on speed


@pytest.fixture
def one_request_at_a_time(live_server: Any) -> Iterator[list[str]]:
    """The live server answers one request at a time, body and all; the paths asked for.

    On SQLite its threads share the test's in-memory connection (pytest-django), which two
    transactions at once would share too (seen: "database table is locked", a 503 the
    client waited out); PostgreSQL would not need the lock, and it does no harm there."""
    httpd = live_server.thread.httpd
    app, lock, paths = httpd.get_app(), threading.Lock(), []

    def serialised(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        with lock:
            paths.append(environ["PATH_INFO"])
            answer = app(environ, start_response)
            try:
                return [b"".join(answer)]
            finally:
                if hasattr(answer, "close"):
                    answer.close()

    httpd.set_app(serialised)
    yield paths
    httpd.set_app(app)


def bot_account(name: str, *, flagged: bool = True) -> str:
    """A new account (flagged ``is_bot`` as staff would) and its token."""
    user = User.objects.create_user(name, password="correct-horse-battery", is_bot=flagged)
    return token_obtain(user=user).key


def invite(url: str, token: str, **body: Any) -> int:
    """The match, made through the API by the inviting bot's token (the client itself
    only plays; making matches is the bot author's business)."""
    api = Api(url, token)
    return int(api.call("POST", "matches/", {"length": 1, "color": "white", **body})["id"])


def assert_played_legally(match_id: int, bots: list[Bot],
                          caplog: pytest.LogCaptureFixture) -> Match:
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.winner in ("white", "black"), match.status
    for bot in bots:
        assert bot.refused == []
    warnings = [r.getMessage() for r in caplog.records
                if r.name == "computer.lab.client" and r.levelno >= logging.WARNING]
    assert warnings == []
    games = Game.objects.filter(match_id=match_id)
    assert games.exists()
    for game in games:
        assert game.winner
        assert replay_problems(game) == []  # every stored step replays through the rules
    return match


# --- whole matches on a live server ---------------------------------------------------------


def test_two_bots_play_a_long_nardy_match_with_once(
        live_server: Any, transactional_db: Any, seeded_dice: list[int],
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="computer.lab.client")
    white, black = bot_account("bot-white"), bot_account("bot-black")
    match_id = invite(live_server.url, white, opponent="bot-black")
    bots: list[Bot] = []
    argv = ["--url", live_server.url, "--once", "--seed", "7"]
    sides = [[*argv, "--token", white, "--level", "random"],
             [*argv, "--token", black, "--level", "heuristic", "--accept-invitations"]]
    versions = []
    for _ in range(500):
        for args in sides:
            assert client.main(args, started=bots.append) == 0
        versions.append(Match.objects.get(pk=match_id).version)
        if Match.objects.get(pk=match_id).status == "finished":
            break
        assert len(versions) < 2 or versions[-1] > versions[-2], "neither side acted"
    match = assert_played_legally(match_id, bots, caplog)
    assert match.rules == "long_nardy"
    played = [r.getMessage() for r in caplog.records if ": moves " in r.getMessage()]
    assert played, "no turn was played through the client"


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume:Warning")
def test_two_bots_play_a_backgammon_game_following_the_account_stream(
        live_server: Any, one_request_at_a_time: list[str], transactional_db: Any,
        seeded_dice: list[int], settings: Any, caplog: pytest.LogCaptureFixture) -> None:
    # The live server is WSGI: its account stream answers what waits now and ends, and
    # the client opens it again after the retry hint (the ASGI server keeps it open).
    settings.STREAM_RETRY_MS = 20
    caplog.set_level(logging.INFO, logger="computer.lab.client")
    white, black = bot_account("gammon-white"), bot_account("gammon-black")
    match_id = invite(live_server.url, white, opponent="gammon-black", rules="backgammon")
    bots: list[Bot] = []
    codes: list[int] = []
    argv = ["--url", live_server.url, "--match", str(match_id), "--seed", "3"]
    threads = [threading.Thread(target=lambda args=args: codes.append(
        client.main(args, started=bots.append)), daemon=True) for args in (
        [*argv, "--token", white, "--level", "heuristic"],
        [*argv, "--token", black, "--level", "random", "--accept-invitations"])]
    for thread in threads:
        thread.start()
    hang = time.monotonic() + HANG
    while any(t.is_alive() for t in threads) and time.monotonic() < hang:
        for thread in threads:
            thread.join(0.2)
        if any(bot.refused for bot in bots):
            break
    for bot in bots:
        bot.stop()  # a refused or hung client: stop it, and the assertions below say why
    for thread in threads:
        thread.join(client.TIMEOUT)
    assert codes == [0, 0]
    match = assert_played_legally(match_id, bots, caplog)
    assert match.rules == "backgammon"
    assert "/api/v1/stream/" in one_request_at_a_time  # it followed the account stream


def test_the_command_plays_a_match_on_the_production_server(tmp_path: Path) -> None:
    """``python -m computer.lab client`` itself, twice, against granian (``nard_site.asgi``):
    the account stream stays open and pushes each ``your_turn`` as it happens."""
    database = tmp_path / "bots.sqlite3"
    env = server_env(database)
    tokens = prepare_database(env, {"asgi-white": None, "asgi-black": None})
    with sqlite3.connect(database) as db:  # what staff do in the admin
        db.execute("UPDATE accounts_user SET is_bot = 1")
    server = AsgiServer(env)
    try:
        match_id = invite(server.url, tokens["asgi-white"], opponent="asgi-black")
        command = [sys.executable, "-m", "computer.lab", "client", "--url", server.url,
                   "--match", str(match_id), "--seed", "5"]
        logs = [tmp_path / "white.log", tmp_path / "black.log"]
        players = [subprocess.Popen(
            [*command, "--token", tokens[name], "--level", level, *extra],
            cwd=ROOT, env=env, stderr=log.open("w"))
            for log, (name, level, extra) in zip(logs, (
                ("asgi-white", "heuristic", []),
                ("asgi-black", "random", ["--accept-invitations"])), strict=True)]
        hang = time.monotonic() + HANG
        while time.monotonic() < hang:  # until both are done, or one failed
            codes = [player.poll() for player in players]
            if None not in codes or any(codes):
                break
            time.sleep(0.2)
        for player in players:
            player.kill()
            player.wait()
        final = Api(server.url, tokens["asgi-white"]).call("GET", f"matches/{match_id}/")
        verified = subprocess.run([sys.executable, "manage.py", "verify_games", "--match",
                                   str(match_id)], cwd=ROOT, env=env, capture_output=True,
                                  text=True)
    finally:
        server.stop()

    written = [log.read_text() for log in logs]
    assert [player.returncode for player in players] == [0, 0], written
    assert final["status"] == "finished" and final["winner"] in ("white", "black")
    assert verified.returncode == 0 and "0 differ" in verified.stdout, verified.stdout
    for text in written:
        assert ": moves " in text and " refused:" not in text
        assert "no account stream" not in text


def test_an_account_without_the_flag_is_not_played(
        live_server: Any, transactional_db: Any, caplog: pytest.LogCaptureFixture) -> None:
    person = bot_account("a-person", flagged=False)
    inviter = bot_account("inviter")
    match_id = invite(live_server.url, inviter, opponent="a-person")

    code = client.main(["--url", live_server.url, "--token", person, "--once",
                        "--accept-invitations"])

    assert code == 2
    assert "not flagged is_bot" in caplog.text
    assert Match.objects.get(pk=match_id).status == "invited"  # it joined nothing


def test_upgrade_makes_a_new_account_a_bot_and_plays_it(
        live_server: Any, transactional_db: Any, one_request_at_a_time: list[str]) -> None:
    person = bot_account("new-bot", flagged=False)
    inviter = bot_account("inviter-2")
    match_id = invite(live_server.url, inviter, opponent="new-bot")

    code = client.main(["--url", live_server.url, "--token", person, "--once",
                        "--accept-invitations", "--upgrade"])

    assert code == 0
    assert User.objects.get(username="new-bot").is_bot is True
    assert "/api/v1/accounts/bot/upgrade/" in one_request_at_a_time
    assert Match.objects.get(pk=match_id).status == "active"  # it joined


def test_an_account_cannot_flag_itself_a_bot(alice: Any, api: Any, db: Any) -> None:
    patched = alice.client.patch("/api/v1/accounts/me/", {"is_bot": True}, format="json")
    registered = api.post("/api/v1/accounts/register/",
                          {"username": "selfmade", "password": "correct-horse-battery",
                           "is_bot": True}, format="json")

    assert patched.status_code == 200 and patched.json()["is_bot"] is False  # ignored
    assert registered.status_code == 201
    assert User.objects.get(username="alice").is_bot is False
    assert User.objects.get(username="selfmade").is_bot is False


# --- the parts on their own -------------------------------------------------------------------


def test_server_sent_events_are_parsed_as_the_rules_say() -> None:
    canned = [
        b"retry: 1500\n", b"\n",
        b": keep-alive\n", b"\n",
        b"id: 4\n", b"event: roll_off\n", b'data: {"seq":4}\n', b"\n",
        b"event: your_turn\r\n", b'data:{"match":7,\r\n', b'data: "version":3}\r\n', b"\r\n",
        b"event: nothing\n", b"\n",  # no data: not an event
        b"data\n", b"\n",  # a field name alone: empty data
        b"id: 9\n", b"event: cut\n", b"data: never finished\n",  # the stream ends first
    ]
    stream = EventStream()

    events = list(stream.events(canned))

    assert events == [
        ServerEvent("roll_off", '{"seq":4}', "4"),
        ServerEvent("your_turn", '{"match":7,\n"version":3}', "4"),
        ServerEvent("message", "", "4"),
    ]
    assert json.loads(events[1].data) == {"match": 7, "version": 3}
    assert stream.retry_ms == 1500
    assert stream.last_id == "9"  # sent as Last-Event-ID on the next connection


class ScriptedApi(Api):
    """The API as a script: each call answers (or raises) the next of ``answers``."""

    def __init__(self, answers: list[Any]) -> None:
        super().__init__("http://server.invalid", "token")
        self.answers = answers
        self.calls: list[tuple[str, str, Any, str | None]] = []

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, *,
             key: str | None = None, timeout: float = client.TIMEOUT) -> Any:
        self.calls.append((method, path, body, key))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer() if callable(answer) else answer

    def open_stream(self, path: str, last_event_id: str | None = None) -> Any:
        self.calls.append(("STREAM", path, None, None))
        raise ApiError(404, "not_found", "No such page.")


def match_at(version: int, **state: Any) -> dict[str, Any]:
    """A Long Nardy match of ``me`` (White) at ``version``, White to roll."""
    return {"id": 1, "rules": "long_nardy", "white": "me", "black": "them", "hotseat": False,
            "status": "active", "stakes": "cube", "progression": "geometric",
            "length": 3, "score": {"white": 0, "black": 0}, "version": version,
            "state": {"phase": "roll", "turn": "white", "dice": None, "dice_left": [],
                      "roll_off": {"white": 3, "black": 1}, "stake": 1, "may_offer": "none",
                      "offer": None, "first_turn": {"white": False, "black": False},
                      "position_id": RULESETS["long_nardy"].initial().to_id(), **state}}


def test_a_stale_version_is_read_again_and_the_action_sent_at_the_new_one() -> None:
    api = ScriptedApi([
        match_at(5),
        ApiError(409, "version_conflict", "The match has changed."),
        match_at(6),
        match_at(7, turn="black"),  # rolled; the roll passed: the opponent is to roll
    ])
    bot = Bot(api, "heuristic", username="me")

    assert bot.play(1) == 1

    posts = [(path, body, key) for method, path, body, key in api.calls if method == "POST"]
    assert [(path, body) for path, body, _ in posts] == [
        ("matches/1/roll/", {"expected_version": 5}), ("matches/1/roll/", {"expected_version": 6})]
    assert posts[0][2] and posts[1][2] and posts[0][2] != posts[1][2]  # a new key per action
    assert api.answers == [] and bot.refused == []


def test_without_the_account_stream_it_polls_the_list_and_the_long_poll() -> None:
    waiting = {"results": [match_at(3, turn="black")], "next": None}
    mine = {"results": [match_at(5)], "next": None}
    api = ScriptedApi([])
    bot = Bot(api, "heuristic")

    def rolled_then_stopped() -> dict[str, Any]:
        bot.stop()
        return match_at(6, turn="black")

    api.answers += [
        {"username": "me", "is_bot": True}, waiting,  # hello; the first sweep: nothing
        waiting, [{"seq": 4}], [{"seq": 5}],  # polling: nothing, the log, the long-poll
        mine, match_at(5), rolled_then_stopped,
    ]

    bot.run()

    assert [(method, path) for method, path, _, _ in api.calls] == [
        ("GET", "accounts/me/"),
        ("GET", "matches/?player=me&status=active&page_size=100"),
        ("STREAM", "stream/"),
        ("GET", "matches/?player=me&status=active&page_size=100"),
        ("GET", "matches/1/events/"),
        ("GET", f"matches/1/events/?after=4&wait={client.LONG_POLL}"),
        ("GET", "matches/?player=me&status=active&page_size=100"),
        ("GET", "matches/1/"),
        ("POST", "matches/1/roll/"),
    ]
    assert api.answers == []


def test_an_offer_is_answered_as_the_level_decides() -> None:
    offered = match_at(9, phase="offer", offer={"by": "black", "stake": 2})
    rs = RULESETS["long_nardy"]
    accepts = computer.stake_decision("long_nardy", "heuristic", rs.initial(), WHITE,
                                      question="accept", stake=1, next_stake=2)
    api = ScriptedApi([offered, match_at(10, turn="black")])

    assert Bot(api, "heuristic", username="me").play(1) == 1

    assert api.calls[1][:3] == ("POST", f"matches/1/{'accept' if accepts else 'refuse'}/",
                                {"expected_version": 9})


def test_a_refused_offer_does_not_loop_it_rolls_instead() -> None:
    bot = Bot(ScriptedApi([]), "heuristic", username="me")
    may_offer = match_at(4, may_offer="both")
    bot._no_offer.add((1, 4))

    assert bot.decide(may_offer) == Action("roll", {"expected_version": 4})


def test_an_account_not_flagged_is_refused_before_anything_else() -> None:
    api = ScriptedApi([{"username": "someone", "is_bot": False}])

    with pytest.raises(NotABot, match="not flagged is_bot"):
        Bot(api, "random").run(once=True)
    assert len(api.calls) == 1


def test_upgrade_asks_the_server_before_anything_else() -> None:
    api = ScriptedApi([{"username": "someone", "is_bot": False},
                       {"username": "someone", "is_bot": True},
                       {"results": [], "next": None}])

    Bot(api, "random", upgrade=True).run(once=True)

    assert [(method, path) for method, path, _, _ in api.calls][:2] == [
        ("GET", "accounts/me/"), ("POST", "accounts/bot/upgrade/")]


def serve(answers: list[tuple[int, dict[str, str], bytes]]
          ) -> tuple[http.server.ThreadingHTTPServer, list[dict[str, str]]]:
    """A local HTTP server answering ``answers`` in turn; the request headers it saw."""
    seen: list[dict[str, str]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(dict(self.headers))
            self.rfile.read(int(self.headers["Content-Length"]))
            status, headers, body = answers.pop(0)
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_server_is_asked_again_with_the_same_idempotency_key(status: int) -> None:
    busy = json.dumps({"error": {"code": "throttled" if status == 429 else
                                 "service_unavailable", "message": "Later.", "details": {}}})
    server, seen = serve([(status, {"Retry-After": "0"}, busy.encode()),
                          (200, {}, b'{"version": 8}')])
    try:
        api = Api(f"http://127.0.0.1:{server.server_port}", "secret")
        answer = api.call("POST", "matches/1/roll/", {"expected_version": 7}, key="k-1")
    finally:
        server.shutdown()
        server.server_close()

    assert answer == {"version": 8}
    assert [h["Idempotency-Key"] for h in seen] == ["k-1", "k-1"]
    assert all(h["Authorization"] == "Token secret" for h in seen)


def test_a_refusal_the_server_keeps_is_an_error_with_its_code() -> None:
    refused = json.dumps({"error": {"code": "illegal_move", "message": "No.",
                                    "details": {}}}).encode()
    server, _ = serve([(400, {}, refused)])
    try:
        api = Api(f"http://127.0.0.1:{server.server_port}/api/v1/", "secret")
        with pytest.raises(ApiError) as raised:
            api.call("POST", "matches/1/moves/", {"steps": []})
    finally:
        server.shutdown()
        server.server_close()

    assert (raised.value.status, raised.value.code) == (400, "illegal_move")


def test_the_command_needs_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NARD_TOKEN", raising=False)

    with pytest.raises(SystemExit) as exited:
        client.main(["--once"])
    assert exited.value.code == 2


def test_python_m_computer_client_is_the_same_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["client", "--help"])

    assert exited.value.code == 0
    assert "--accept-invitations" in capsys.readouterr().out
