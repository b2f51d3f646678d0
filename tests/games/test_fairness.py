"""Dice anyone can verify — commit before the game, reveal after, check every die.

Known answers from docs/fairness.md, the reveal at every ending, the secrecy of the seed
before it (every answer of a played game searched), the verifier (CLI, standalone, bad
files), players' seeds and their refusals, no seam for choosing dice, the dice statistics
against hand counts.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import io
import json
import logging
import random
import re
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from games import dice, fairness, importing, services
from games.models import Event, Game, Match
from live import kinds
from nard_site import settings as site_settings
from tests.support import Seat, assert_error

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))


# --- known answers (docs/fairness.md, "Test vectors") ----------------------------------------


def _doc_vectors() -> list[tuple[int, str, int, str | None, str | None, tuple[int, ...]]]:
    text = (ROOT / "docs" / "fairness.md").read_text()
    table = text.split("<!-- vectors:", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[3:]:
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        game, kind, index, white, black, shown = cells
        rows.append((int(game), kind, int(index), white or None, black or None,
                     tuple(int(d) for d in shown.split("-"))))
    return rows


def test_the_documented_vectors_are_the_derivation() -> None:
    text = (ROOT / "docs" / "fairness.md").read_text()
    assert fairness.commitment(SEED) in text
    assert fairness.commitment(SEED) == (
        "nard-dice-v1:0e4f33adbc06a5fd3137aa705b588a22809dac8d833b8f157f0ed306b4102159")
    message = fairness.message(42, 1, "turn", 1, None, None, 0)
    assert message == b"nard-dice-v1|42|1|turn|1|||0"
    mac = hmac.new(SEED, message, hashlib.sha256).hexdigest()
    assert mac == "2b206b5ee287ad99294651d8e5e8e7c6bee48b222bc4e27955af1138d26707ce"
    assert mac in text
    assert fairness.seed_digest("alice's dice") in text
    assert fairness.seed_digest("чёрные") in text
    rows = _doc_vectors()
    assert len(rows) == 7
    for game, kind, index, white, black, shown in rows:
        assert fairness.derive(SEED, 42, game, kind, index, len(shown), white, black) == shown


def test_rejection_sampling_skips_bytes_from_252_on() -> None:
    """Turn 61's HMAC begins 44 fc 46: 68 → 3, 252 skipped, 70 → 5 (no modulo bias)."""
    mac = hmac.new(SEED, fairness.message(42, 1, "turn", 61, None, None, 0),
                   hashlib.sha256).digest()
    assert mac[:3] == bytes.fromhex("44fc46")
    assert fairness.derive(SEED, 42, 1, "turn", 61, 2) == (3, 5)
    # every accepted byte value maps to each face exactly 42 times
    faces = [b % 6 + 1 for b in range(fairness.ACCEPT_BELOW)]
    assert [faces.count(f) for f in range(1, 7)] == [42] * 6


def test_the_roll_off_die_does_not_depend_on_who_rolls_first() -> None:
    derived = fairness.GameDice(SEED, 42, 1)
    assert derived.roll_off(0, 0) == fairness.derive(SEED, 42, 1, "roll-off", 0, 1)[0] == 5
    assert derived.roll_off(0, 1) == 1
    assert derived.roll_off(1, 0) == fairness.derive(SEED, 42, 1, "roll-off", 2, 1)[0]


# --- playing -------------------------------------------------------------------------------


class Answers:
    """Every answer a client (or the staff) could read, as text, before a moment."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, value: Any) -> Any:
        self.texts.append(value if isinstance(value, str) else json.dumps(value))
        return value


def _step(seat: Seat, match_id: int, answers: Answers, rng: random.Random) -> dict[str, Any]:
    """One action of the side to act: a roll, or one random legal step."""
    match = answers.add(seat.get(match_id))
    state = match["state"]
    if state["phase"] in ("roll", "roll-off"):
        return answers.add(seat.ok(match_id, "roll", {"expected_version": match["version"]}))
    step = rng.choice(state["legal_steps"])
    return answers.add(seat.ok(match_id, "moves", {"steps": [step],
                                                   "expected_version": match["version"]}))


def _actor(match: dict[str, Any], white: Seat, black: Seat) -> Seat:
    state = match["state"]
    if state["phase"] == "roll-off":
        return white if state["roll_off"]["white"] is None else black
    return white if state["turn"] == "white" else black


def _play_turns(white: Seat, black: Seat, match_id: int, turns: int, answers: Answers,
                rng: random.Random) -> dict[str, Any]:
    """Play until ``turns`` turns of the current game were rolled (or it ended)."""
    match = white.get(match_id)
    game = match["state"]["game"]
    for _ in range(20_000):
        state = match["state"]
        if (match["status"] != "active" or state["game"] != game
                or (state["turn_number"] >= turns and state["phase"] == "roll")):
            return match
        _step(_actor(match, white, black), match_id, answers, rng)
        match = white.get(match_id)
    raise AssertionError("the game did not end")


def _invite(white: Seat, black: Seat, **options: Any) -> int:
    created = white.create(opponent=black.user.username, color="white", **options)
    assert created.status_code == 201, created.content
    return created.json()["id"]


def _export(seat: Seat, match_id: int) -> dict[str, Any]:
    response = seat.client.get(f"/api/v1/matches/{match_id}/export/?format=json")
    assert response.status_code == 200
    return response.json()


def _verify(record: Any, tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / f"record-{random.random()}.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    out = io.StringIO()
    return fairness.main(["verify", str(path)], out=out), out.getvalue()


def _forms(secret_hex: str) -> list[str]:
    raw = bytes.fromhex(secret_hex)
    b64 = base64.b64encode(raw).decode()
    url = base64.urlsafe_b64encode(raw).decode()
    return [secret_hex, secret_hex.upper(), b64, b64.rstrip("="), url, url.rstrip("="),
            base64.b64encode(secret_hex.encode()).decode().rstrip("=")]


def _admin_pages(admin_client: Any, match_id: int) -> list[str]:
    pages = [f"/admin/games/match/{match_id}/change/", "/admin/games/match/",
             "/admin/games/game/", "/admin/games/event/", "/admin/games/turn/"]
    pages += [f"/admin/games/game/{pk}/change/"
              for pk in Game.objects.filter(match_id=match_id).values_list("pk", flat=True)]
    pages += [f"/admin/games/event/{pk}/change/"
              for pk in Event.objects.filter(match_id=match_id).values_list("pk", flat=True)]
    texts = []
    for url in pages:
        response = admin_client.get(url)
        assert response.status_code == 200, url
        texts.append(response.content.decode())
    return texts


def _stream_items(match_id: int, users: list[Any]) -> list[str]:
    """What the account streams carry for the match's changes (live.kinds), and what a
    stream that reconnects is sent (``pending``); the match stream is the event log."""
    match = Match.objects.select_related("current_game").get(pk=match_id)
    events = list(Event.objects.filter(match=match).order_by("seq"))
    found = [json.dumps(kinds.items(match, events), default=str)]
    found += [json.dumps(kinds.pending(u.pk), default=str) for u in users]
    return found


def test_a_played_game_shows_its_seed_nowhere_before_its_end_and_everywhere_after(
        alice: Seat, bob: Seat, seat: Any, admin_client: Any, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A whole game borne off with the server's own dice: committed, secret, revealed."""
    caplog.set_level(logging.DEBUG)
    answers, rng = Answers(), random.Random(26)
    watcher = seat("watcher")
    match_id = _invite(alice, bob)
    joined = answers.add(bob.ok(match_id, "join", {"seed": "bob's own seed"}))
    fair = joined["state"]["fairness"]
    assert fair["commitment"].startswith("nard-dice-v1:") and fair["server_seed"] is None
    assert fair["player_seeds"] == {"white": None, "black": "bob's own seed"}
    assert fair["seeds_open"] is True
    game = Game.objects.get(match_id=match_id, number=1)
    secret = game.dice_seed
    assert len(secret) == 64 and fair["commitment"] == fairness.commitment(bytes.fromhex(secret))
    start = Event.objects.get(match_id=match_id, type="game_start")
    assert start.data["commitment"] == fair["commitment"]
    answers.add(alice.ok(match_id, "roll", {"seed": "alice's own seed"}))
    match = alice.get(match_id)
    assert match["state"]["fairness"]["player_seeds"]["white"] == "alice's own seed"
    assert match["state"]["fairness"]["seeds_open"] is False
    # Play to the last action, reading everything a reader could on the way.
    for _ in range(20_000):
        match = alice.get(match_id)
        if match["status"] != "active":
            break
        actor = _actor(match, alice, bob)
        if match["state"]["phase"] == "move" and _one_step_ends(actor.get(match_id)):
            break
        _step(actor, match_id, answers, rng)
        if rng.random() < 0.03:
            for reader in (alice, bob, watcher):
                answers.add(reader.client.get(f"/api/v1/matches/{match_id}/events/").json())
                answers.add(reader.client.get(f"/api/v1/matches/{match_id}/games/").json())
    else:
        raise AssertionError("no end in sight")
    assert match["status"] == "active"
    before_end: list[str] = list(answers.texts)
    for reader in (alice, bob, watcher):
        for url in (f"/api/v1/matches/{match_id}/", f"/api/v1/matches/{match_id}/events/",
                    f"/api/v1/matches/{match_id}/games/",
                    f"/api/v1/matches/{match_id}/games/1/moves/",
                    f"/api/v1/matches/{match_id}/export/",
                    f"/api/v1/matches/{match_id}/export/?format=json", "/api/v1/matches/",
                    f"/api/v1/accounts/users/{alice.user.username}/dice/"):
            before_end.append(reader.client.get(url).content.decode())
    before_end += _admin_pages(admin_client, match_id)
    before_end += _stream_items(match_id, [alice.user, bob.user, watcher.user])
    before_end += [r.getMessage() for r in caplog.records]
    before_end += [str(r.args) for r in caplog.records]
    assert all(isinstance(t, str) for t in before_end) and len(before_end) > 100
    for form in _forms(secret):
        leaks = [t[:200] for t in before_end if form in t]
        assert not leaks, (form, leaks[:3])
    exported = _export(alice, match_id)
    assert exported["games"][0]["fairness"]["server_seed"] is None
    assert _verify(exported, tmp_path)[0] == 3  # not revealed: nothing verified
    # The last step bears off the last checker: the game (and the match) ends.
    actor = _actor(alice.get(match_id), alice, bob)
    actor.ok(match_id, "moves", {"steps": [_one_step_ends(actor.get(match_id))]})
    over = Event.objects.get(match_id=match_id, type="game_over")
    assert over.data["server_seed"] == secret and over.data["reason"] == "borne_off"
    assert over.data["commitment"] == fair["commitment"]
    final = watcher.get(match_id)
    assert final["status"] == "finished"
    assert final["state"]["fairness"]["server_seed"] == secret
    exported = _export(watcher, match_id)
    assert exported["games"][0]["fairness"]["server_seed"] == secret
    status, printed = _verify(exported, tmp_path)
    assert status == 0, printed
    assert "game 1: verified" in printed


def _one_step_ends(match: dict[str, Any]) -> dict[str, Any] | None:
    """A legal step that bears off the mover's last checker, if there is one (``match``
    as the mover sees it)."""
    state = match["state"]
    if state["board"]["off"]["mine"] != 14:
        return None
    return next((s for s in state["legal_steps"] if s["to"] == 0), None)


# --- every ending reveals ----------------------------------------------------------------


def _game_seed(match_id: int, number: int = 1) -> str:
    return Game.objects.get(match_id=match_id, number=number).dice_seed


def _assert_revealed(seat: Seat, match_id: int, event_type: str, secret: str,
                     tmp_path: Path, number: int = 1) -> dict[str, Any]:
    event = Event.objects.filter(match_id=match_id, type=event_type).order_by("seq").last()
    assert event is not None and event.data["server_seed"] == secret
    record = _export(seat, match_id)
    assert record["games"][number - 1]["fairness"]["server_seed"] == secret
    games = seat.client.get(f"/api/v1/matches/{match_id}/games/").json()
    assert games[number - 1]["fairness"]["server_seed"] == secret
    status, printed = _verify(record, tmp_path)
    assert status in (0, 3) and "MISMATCH" not in printed, printed
    return record


def test_a_resignation_reveals_and_a_game_in_play_does_not(alice: Seat, bob: Seat,
                                                             tmp_path: Path) -> None:
    match_id = _invite(alice, bob, length=3)
    bob.ok(match_id, "join")
    _play_turns(alice, bob, match_id, 6, Answers(), random.Random(1))
    secret = _game_seed(match_id)
    side = alice if alice.get(match_id)["state"]["turn"] == "white" else bob
    side.ok(match_id, "resign")
    _assert_revealed(alice, match_id, "game_over", secret, tmp_path)
    game2 = alice.get(match_id)["state"]
    assert game2["game"] == 2 and game2["fairness"]["server_seed"] is None
    assert game2["fairness"]["commitment"] != Game.objects.get(
        match_id=match_id, number=1).dice_commitment
    start = Event.objects.filter(match_id=match_id, type="game_start").last()
    assert start is not None and start.data["game"] == 2
    assert start.data["commitment"] == game2["fairness"]["commitment"]


def test_a_refused_offer_reveals(alice: Seat, bob: Seat, tmp_path: Path) -> None:
    match_id = _invite(alice, bob, length=3, stakes="cube")
    bob.ok(match_id, "join")
    match = _play_turns(alice, bob, match_id, 2, Answers(), random.Random(2))
    secret = _game_seed(match_id)
    offerer, answerer = ((alice, bob) if match["state"]["turn"] == "white" else (bob, alice))
    offerer.ok(match_id, "offer")
    answerer.ok(match_id, "refuse")
    _assert_revealed(alice, match_id, "game_over", secret, tmp_path)


def test_a_claim_on_time_reveals(alice: Seat, bob: Seat, tmp_path: Path) -> None:
    match_id = _invite(alice, bob, length=3, turn_seconds=60)
    bob.ok(match_id, "join")
    match = _play_turns(alice, bob, match_id, 2, Answers(), random.Random(3))
    secret = _game_seed(match_id)
    Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=5))
    waiting = bob if match["state"]["turn"] == "white" else alice
    waiting.ok(match_id, "claim")
    _assert_revealed(alice, match_id, "game_over", secret, tmp_path)


def test_every_abort_reveals_the_game_it_ends(alice: Seat, bob: Seat, admin_user: Any,
                                              tmp_path: Path) -> None:
    # before the first roll, by a player
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    secret = _game_seed(match_id)
    assert secret not in json.dumps(alice.get(match_id))
    alice.ok(match_id, "abort")
    _assert_revealed(alice, match_id, "aborted", secret, tmp_path)
    # in the middle of a game, by staff
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    _play_turns(alice, bob, match_id, 3, Answers(), random.Random(4))
    secret = _game_seed(match_id)
    services.match_abort(match_id=match_id, by=admin_user)
    record = _assert_revealed(alice, match_id, "aborted", secret, tmp_path)
    assert _verify(record, tmp_path)[0] == 0
    assert alice.get(match_id)["state"]["fairness"]["server_seed"] == secret
    # both sides late in a roll-off: the clock aborts it
    match_id = _invite(alice, bob, turn_seconds=60)
    bob.ok(match_id, "join")
    secret = _game_seed(match_id)
    Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(days=30))
    assert services.match_settle_clock(match_id=match_id) is not None
    _assert_revealed(alice, match_id, "aborted", secret, tmp_path)


# --- the verifier ------------------------------------------------------------------------


@pytest.fixture
def two_games(alice: Seat, bob: Seat) -> dict[str, Any]:
    """A finished 3-point match of two resigned games (mars, mars), with players' seeds."""
    match_id = _invite(alice, bob, length=3)
    bob.ok(match_id, "join", {"seed": "b" * 128})
    alice.ok(match_id, "seed", {"seed": "Белые 🎲"})
    rng = random.Random(5)
    for _ in range(2):
        _play_turns(alice, bob, match_id, 8, Answers(), rng)
        match = alice.get(match_id)
        (alice if match["state"]["turn"] == "white" else bob).ok(match_id, "resign")
    assert alice.get(match_id)["status"] == "finished"
    return _export(alice, match_id)


def test_the_verifier_checks_every_die_and_catches_tampering(two_games: dict[str, Any],
                                                             tmp_path: Path) -> None:
    status, printed = _verify(two_games, tmp_path)
    assert status == 0, printed
    assert "game 1: verified" in printed and "game 2: verified" in printed
    assert two_games["games"][0]["fairness"]["player_seeds"] == {"white": "Белые 🎲",
                                                                 "black": "b" * 128}
    # a tampered roll
    rolled = copy.deepcopy(two_games)
    turn = rolled["games"][1]["turns"][3]
    turn["dice"] = [d % 6 + 1 for d in turn["dice"]]
    status, printed = _verify(rolled, tmp_path)
    assert status == 1 and f"game 2: MISMATCH: turn {turn['number']}:" in printed, printed
    assert "game 1: verified" in printed
    # a tampered server seed
    seeded = copy.deepcopy(two_games)
    fair = seeded["games"][0]["fairness"]
    fair["server_seed"] = ("0" if fair["server_seed"][0] != "0" else "1") + fair["server_seed"][1:]
    status, printed = _verify(seeded, tmp_path)
    assert status == 1 and "does not match the commitment" in printed
    # a tampered player seed
    player = copy.deepcopy(two_games)
    player["games"][0]["fairness"]["player_seeds"]["white"] = "someone else's"
    status, printed = _verify(player, tmp_path)
    assert status == 1 and "game 1: MISMATCH" in printed
    # swapped games (numbers exchanged), and a game from another match
    swapped = copy.deepcopy(two_games)
    first, second = swapped["games"]
    first["number"], second["number"] = 2, 1
    swapped["games"] = [second, first]
    assert _verify(swapped, tmp_path)[0] == 1
    moved = copy.deepcopy(two_games)
    moved["id"] += 1
    assert _verify(moved, tmp_path)[0] == 1


def test_the_verifier_runs_alone_with_the_standard_library(two_games: dict[str, Any],
                                                           tmp_path: Path) -> None:
    """A player copies one file and runs it: no project, no site-packages (-I -S)."""
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(ROOT / "games" / "fairness.py", alone / "fairness.py")
    record = alone / "match.json"
    record.write_text(json.dumps(two_games))
    done = subprocess.run([sys.executable, "-I", "-S", "fairness.py", "verify", "match.json"],
                          cwd=alone, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "verified: 2 games" in done.stdout
    source = (ROOT / "games" / "fairness.py").read_text()
    imports = set(re.findall(r"^(?:from|import) ([\w.]+)", source, re.MULTILINE))
    assert imports <= {"__future__", "hashlib", "hmac", "json", "math", "secrets", "sys",
                       "unicodedata", "collections.abc", "dataclasses", "typing"}, imports
    # and as the module of the project
    done = subprocess.run([sys.executable, "-m", "games.fairness", "verify", str(record)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "verified" in done.stdout, done.stderr


@pytest.mark.parametrize("content, reason", [
    ("", "not JSON"),
    ("\x00\xff garbage", "not JSON"),
    ("[1, 2, 3]", "not an object"),
    ('{"format": "nardy-match/2", "id": 1, "games": []}', "format"),
    ('{"format": "nardy-match/1", "id": "1", "games": []}', "no match id"),
    ('{"format": "nardy-match/1", "id": 1, "games": [{"number": 1, "turns": [{"number": 1,'
     ' "dice": ["6"]}]}]}', "a turn without"),
    ('{"format": "nardy-match/1", "id": 1, "games": [{"number": 1, "turns": [], '
     '"fairness": [1]}]}', "fairness block"),
    ("Long Nardy match record\nWhite: a\n", "text record"),
    ("[" * 100_000, "not JSON"),
])
def test_a_file_that_is_not_a_record_is_exit_2_with_one_line(content: str, reason: str,
                                                               tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    done = subprocess.run([sys.executable, "-m", "games.fairness", "verify", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "verified" not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert reason in done.stderr, done.stderr


def test_a_missing_file_and_bad_arguments_are_exit_2(tmp_path: Path) -> None:
    assert fairness.main(["verify", str(tmp_path / "none.json")]) == 2
    assert fairness.main(["check"]) == 2


def test_an_imported_match_is_not_committed_never_verified(alice: Seat, bob: Seat,
                                                           tmp_path: Path) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    match = _play_turns(alice, bob, match_id, 4, Answers(), random.Random(6))
    (alice if match["state"]["turn"] == "white" else bob).ok(match_id, "resign")
    text = alice.client.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    imported = importing.match_import(text=text, by=alice.user)
    record = _export(alice, imported.pk)
    assert record["games"][0]["fairness"] is None
    assert Game.objects.get(match=imported).dice_seed == ""
    status, printed = _verify(record, tmp_path)
    assert status == 3 and "not committed" in printed
    assert "verified:" not in printed


# --- players' seeds -----------------------------------------------------------------------


def test_the_players_seeds_change_the_dice(alice: Seat, bob: Seat) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join", {"seed": "x"})
    game = Game.objects.get(match_id=match_id, number=1)
    seed = bytes.fromhex(game.dice_seed)
    first = alice.ok(match_id, "roll")
    assert first["die"] == fairness.GameDice(seed, match_id, 1, None, "x").roll_off(0, 0)
    second = bob.ok(match_id, "roll")
    assert second["die"] == fairness.GameDice(seed, match_id, 1, None, "x").roll_off(0, 1)


@pytest.mark.parametrize("seed, reason", [
    ("x" * 129, "too_long"), (12345, "not_text"), (["a"], "not_text"), ({"a": 1}, "not_text"),
    (True, "not_text"), ("", "empty"), ("line\nbreak", "not_text"), ("nul\x00", "not_text"),
])
def test_a_bad_seed_is_refused_and_nothing_is_rolled(alice: Seat, bob: Seat, seed: Any,
                                                     reason: str) -> None:
    match_id = _invite(alice, bob)
    error = assert_error(bob.post(match_id, "join", {"seed": seed}), 400, "validation_error")
    assert error["details"]["reason"] == reason and "seed" in error["details"]
    assert alice.get(match_id)["status"] == "invited"
    bob.ok(match_id, "join")
    before = alice.get(match_id)
    for action in ("roll", "seed"):
        error = assert_error(alice.post(match_id, action, {"seed": seed}), 400,
                             "validation_error")
        assert error["details"]["reason"] == reason
    after = alice.get(match_id)
    assert after["version"] == before["version"] and after["state"] == before["state"]
    assert Game.objects.get(match_id=match_id).dice_drawn == 0


def test_a_seed_after_the_first_die_is_refused_and_nothing_is_rolled(alice: Seat,
                                                                     bob: Seat) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    alice.ok(match_id, "roll")  # the game's first die
    before = bob.get(match_id)
    assert before["state"]["fairness"]["seeds_open"] is False
    for action in ("roll", "seed"):
        error = assert_error(bob.post(match_id, action, {"seed": "late"}), 409, "wrong_phase")
        assert error["details"]["reason"] == "seed_too_late"
    after = bob.get(match_id)
    assert after["version"] == before["version"] and after["state"] == before["state"]
    assert after["state"]["roll_off"]["black"] is None


def test_a_seed_is_given_once_per_side_and_is_public(alice: Seat, bob: Seat) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    shown = alice.ok(match_id, "seed", {"seed": "mine"})
    assert shown["state"]["fairness"]["player_seeds"]["white"] == "mine"
    error = assert_error(alice.post(match_id, "seed", {"seed": "again"}), 409, "wrong_phase")
    assert error["details"]["reason"] == "seed_given"
    event = Event.objects.get(match_id=match_id, type="player_seed")
    assert event.data == {"game": 1, "side": "white", "seed": "mine"}
    assert_error(alice.post(match_id, "seed", {}), 400, "validation_error")


def test_an_uncommitted_game_takes_no_seed(alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    assert alice.get(match_id)["state"]["fairness"] is None
    error = assert_error(alice.post(match_id, "seed", {"seed": "s"}), 409, "wrong_phase")
    assert error["details"]["reason"] == "not_committed"


# --- no seam for choosing dice: tests plan theirs in tests/dice.py ---------------------------


def test_production_has_no_seam_for_choosing_dice() -> None:
    """games.dice holds the derivation's functions and nothing else: no queue of dice, no
    switch, no setting that could let a server roll anything but its committed dice."""
    own = {name for name, value in vars(dice).items()
           if getattr(value, "__module__", None) == "games.dice"}
    assert own == {"commit", "game_dice", "roll_off_die", "turn_dice", "first_die_rolled",
                   "reveal"}
    assert not any(isinstance(value, (list, dict, set)) for name, value in vars(dice).items()
                   if not name.startswith("__"))
    assert not hasattr(dice, "planned") and not hasattr(dice, "_scripts")
    assert not any("DICE" in name for name in vars(site_settings))
    assert not any("DICE" in name for name in dir(django_settings))


def test_a_live_games_dice_are_its_commitments(alice: Seat, bob: Seat) -> None:
    """Unplanned, every die the server rolls is derived from the game's committed seed."""
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    game = Game.objects.get(match_id=match_id)
    assert fairness.commitment(bytes.fromhex(game.dice_seed)) == game.dice_commitment
    derived = dice.game_dice(game)
    assert derived is not None
    assert alice.ok(match_id, "roll")["die"] == derived.roll_off(0, 0)
    black = bob.ok(match_id, "roll")
    assert black["die"] == derived.roll_off(0, 1)
    game.refresh_from_db()
    if game.phase == "roll":  # not a tie
        mover = alice if game.turn == "white" else bob
        assert tuple(mover.ok(match_id, "roll")["dice"]) == derived.turn(1)


def test_a_game_started_with_planned_dice_is_not_committed(alice: Seat, bob: Seat,
                                                            scripted_dice: Any) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    scripted_dice(6, 1, 3, 1)
    assert alice.ok(match_id, "roll")["die"] == 6
    assert bob.ok(match_id, "roll")["die"] == 1
    assert alice.ok(match_id, "roll")["dice"] == [3, 1]
    assert Game.objects.get(match_id=match_id).dice_seed == ""


# --- dice statistics ----------------------------------------------------------------------


def test_the_dice_statistics_are_the_hand_counts(alice: Seat, bob: Seat, scripted_dice: Any,
                                                 api: Any) -> None:
    """White rolls 6-6, 3-1, 2-2; Black rolls 5-4, 1-1 (counted by hand below)."""
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    scripted_dice(6, 1)
    alice.ok(match_id, "roll")
    bob.ok(match_id, "roll")
    for index, rolled in enumerate([(6, 6), (5, 4), (3, 1), (1, 1), (2, 2)]):
        mover = alice if index % 2 == 0 else bob
        scripted_dice(*rolled)
        state = mover.ok(match_id, "roll")["state"]
        while state["phase"] == "move":
            state = mover.ok(match_id, "moves", {"steps": [state["legal_steps"][0]]})["state"]
    mine = api.get(f"/api/v1/accounts/users/{alice.user.username}/dice/").json()
    white = mine["by_rules"]["long_nardy"]
    assert white["rolls"] == 3
    assert white["faces"] == [1, 2, 1, 0, 0, 2]
    assert white["doubles"] == 2
    assert white["pips"] == 24 + 4 + 8 and white["average_pips"] == 12.0
    assert white["expected_average_pips"] == 8.1667
    assert white["faces_expected"] == 1.0 and white["doubles_expected"] == 0.5
    # chi-square by hand: expected 1 each; (0 + 1 + 0 + 1 + 1 + 1) / 1 = 4
    assert white["chi_square"] == 4.0
    assert white["p_value"] == pytest.approx(0.549416, abs=1e-6)
    assert mine["all"] == white
    theirs = api.get(f"/api/v1/accounts/users/{bob.user.username}/dice/").json()["all"]
    assert (theirs["rolls"], theirs["faces"], theirs["doubles"], theirs["pips"]) == (
        2, [2, 0, 0, 1, 1, 0], 1, 9 + 4)
    assert_error(api.get("/api/v1/accounts/users/nobody/dice/"), 404, "not_found")


def test_the_p_value_in_closed_form() -> None:
    """Known quantiles of the chi-square law with 5 degrees of freedom."""
    assert fairness.chi_square_p(11.0705) == pytest.approx(0.05, abs=1e-6)
    assert fairness.chi_square_p(15.0863) == pytest.approx(0.01, abs=1e-6)
    assert fairness.chi_square_p(0.0) == 1.0
    assert fairness.chi_square_p(4.0) == pytest.approx(0.549416, abs=1e-6)
    assert fairness.chi_square([10] * 6) == 0.0


def test_the_admin_shows_the_commitment_and_the_seed_only_after_the_end(
        alice: Seat, bob: Seat, admin_client: Any) -> None:
    match_id = _invite(alice, bob)
    bob.ok(match_id, "join")
    game = Game.objects.get(match_id=match_id)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.dice_commitment in page and "secret until the game ends" in page
    assert game.dice_seed not in page
    alice.ok(match_id, "resign")
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.dice_seed in page


def _synthetic(opening: str) -> dict[str, Any]:
    """A record built from the derivation alone: a tied first roll-off round, then the
    deciding one, turn 1 playing the roll-off's dice (backgammon), turn 2 derived."""
    match_id = next(m for m in range(1, 500)
                    if fairness.GameDice(SEED, m, 1).roll_off(0, 0)
                    == fairness.GameDice(SEED, m, 1).roll_off(0, 1)
                    and fairness.GameDice(SEED, m, 1).roll_off(1, 0)
                    != fairness.GameDice(SEED, m, 1).roll_off(1, 1))
    derived = fairness.GameDice(SEED, match_id, 1)
    pairs = [{"white": derived.roll_off(r, 0), "black": derived.roll_off(r, 1)} for r in (0, 1)]
    high = max(pairs[1].values())
    low = min(pairs[1].values())
    return {"format": "nardy-match/1", "id": match_id, "games": [{
        "number": 1, "roll_off": pairs,
        "turns": [{"number": 1, "dice": [high, low]},
                  {"number": 2, "dice": list(derived.turn(2))}],
        "fairness": {"scheme": "nard-dice-v1", "commitment": fairness.commitment(SEED),
                     "server_seed": SEED.hex(), "opening": opening,
                     "player_seeds": {"white": None, "black": None}}}]}


def test_a_tied_roll_off_and_the_backgammon_opening_verify() -> None:
    """The roll-off's round 1 after a tie (index 2, 3); turn 1 of roll_off_played is the
    deciding pair, the starter's die first, and is not derived again."""
    report = fairness.verify_record(_synthetic("roll_off_played"))
    assert [(g.status, g.dice) for g in report.games] == [("verified", 8)]
    report = fairness.verify_record(_synthetic("roll_off"))
    assert report.mismatch is not None and "turn 1:" in report.mismatch.detail


@pytest.mark.parametrize("rules", ["backgammon", "short_nardy", "nard"])
def test_a_hotseat_game_of_each_rule_set_verifies(alice: Seat, rules: str,
                                                  tmp_path: Path) -> None:
    created = alice.create(hotseat=True, rules=rules)
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    _play_turns(alice, alice, match_id, 10, Answers(), random.Random(rules))
    alice.ok(match_id, "resign")
    record = _export(alice, match_id)
    assert record["games"][0]["fairness"]["opening"] in ("roll_off", "roll_off_played")
    status, printed = _verify(record, tmp_path)
    assert status == 0 and "game 1: verified" in printed, printed
