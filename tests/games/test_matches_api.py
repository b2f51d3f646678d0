"""API.md "Matches": shapes, board/steps, versions, pagination, events, read vs write."""

from __future__ import annotations

import pytest

from games.models import Event, Match
from tests.review_api.helpers import (
    API,
    assert_4xx_shape,
    check_board,
    check_match,
    check_state,
    check_step,
    error_of,
    is_json,
)
from tests.support import set_board, start_match

pytestmark = pytest.mark.django_db
MATCHES = f"{API}/matches/"


def snapshot(match_id, client):
    return (client.get(f"{MATCHES}{match_id}/").json(),
            Event.objects.filter(match_id=match_id).count(), Match.objects.count())


# --- create ------------------------------------------------------------------------------------


def test_create_open_seek_invitation_and_hotseat(alice, bob):
    seek = alice.create(length=3, color="white")
    assert seek.status_code == 201 and is_json(seek), seek.content
    body = seek.json()
    check_match(body)
    assert (body["status"], body["length"], body["white"], body["black"]) == (
        "open", 3, "alice", None)
    assert body["winner"] is None and body["finished_at"] is None
    assert body["score"] == {"white": 0, "black": 0} or {"white", "black"} <= set(body["score"])

    invite = alice.create(length=5, opponent="bob", color="black").json()
    check_match(invite)
    assert (invite["status"], invite["white"], invite["black"], invite["length"]) == (
        "invited", "bob", "alice", 5)

    hotseat = alice.create(length=7, hotseat=True).json()
    check_match(hotseat)
    assert hotseat["status"] == "active"
    assert hotseat["state"]["phase"] == "roll-off"
    assert hotseat["white"] == hotseat["black"] == "alice"


def test_create_random_color(alice):
    body = alice.create(length=1, color="random").json()
    assert {body["white"], body["black"]} == {"alice", None}


@pytest.mark.parametrize("body", [
    {}, {"length": 2}, {"length": 0}, {"length": -1}, {"length": 9}, {"length": "abc"},
    {"length": None}, {"length": [1]}, {"length": {"n": 1}}, {"length": 1.5},
    {"length": 10**30}, {"length": True},
    {"length": 1, "color": "red"}, {"length": 1, "color": None}, {"length": 1, "color": 1},
    {"length": 1, "hotseat": "perhaps"}, {"length": 1, "hotseat": None},
    {"length": 1, "hotseat": [True]},
    {"length": 1, "opponent": "nobody"}, {"length": 1, "opponent": "alice"},
    {"length": 1, "opponent": {"u": "bob"}}, {"length": 1, "opponent": ["bob"]},
    {"length": 1, "opponent": "x" * 5000}, {"length": 1, "opponent": "bob\x00"},
    {"length": 1, "opponent": "bob", "hotseat": True},
])
def test_create_bad_input_is_400_and_creates_nothing(alice, bob, body):
    count = Match.objects.count()
    error_of(alice.client.post(MATCHES, body, format="json"), 400, "validation_error")
    assert Match.objects.count() == count


# --- anonymous read vs write --------------------------------------------------------------------


def test_anonymous_may_read_but_not_write(alice, bob, api, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    for url in (MATCHES, f"{MATCHES}{match_id}/", f"{MATCHES}{match_id}/games/",
                f"{MATCHES}{match_id}/games/1/moves/", f"{MATCHES}{match_id}/events/",
                f"{API}/accounts/users/alice/"):
        response = api.get(url)
        assert response.status_code == 200 and is_json(response), (url, response.content)
    before = snapshot(match_id, api)
    error_of(api.post(MATCHES, {"length": 1}, format="json"), 401, "not_authenticated")
    for action in ("join", "roll", "moves", "resign", "rematch", "cancel", "decline"):
        error_of(api.post(f"{MATCHES}{match_id}/{action}/", {}, format="json"), 401,
                 "not_authenticated")
    assert snapshot(match_id, api) == before


# --- state, board, steps -------------------------------------------------------------------------


def test_roll_off_and_turn_roll_answers(alice, bob, scripted_dice, seat, api):
    match_id = alice.create(length=1, opponent="bob", color="white").json()["id"]
    joined = bob.ok(match_id, "join")
    check_match(joined)
    assert joined["status"] == "active" and joined["state"]["phase"] == "roll-off"
    scripted_dice(6, 2)
    first = alice.ok(match_id, "roll")
    check_match(first)
    assert first["die"] == 6  # "roll-off die"
    second = bob.ok(match_id, "roll")
    assert second["die"] == 2
    assert second["state"]["phase"] == "roll" and second["state"]["turn"] == "white"
    scripted_dice(5, 3)
    rolled = alice.ok(match_id, "roll")
    check_match(rolled)
    assert rolled["dice"] == [5, 3]  # "the turn's two dice"
    state = rolled["state"]
    assert state["phase"] == "move" and state["turn"] == "white"
    assert state["dice"] == [5, 3] and sorted(state["dice_left"]) == [3, 5]
    assert state["legal_steps"], state
    # legal_steps: "empty for anyone else".
    for viewer in (bob.client, seat("carol").client, api):
        other = viewer.get(f"{MATCHES}{match_id}/").json()
        check_match(other)
        assert other["state"]["legal_steps"] == []
        assert other["state"]["version"] == state["version"]


def test_default_and_explicit_perspectives(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    url = f"{MATCHES}{match_id}/"
    check_board(alice.get(match_id)["state"]["board"], "white")
    check_board(bob.get(match_id)["state"]["board"], "black")
    check_board(api.get(url).json()["state"]["board"], "white")
    check_board(api.get(url, {"perspective": "black"}).json()["state"]["board"], "black")
    assert api.get(url).json()["state"]["board"]["points"] == {"24": 15, "12": -15}
    assert api.get(url, {"perspective": "black"}).json()["state"]["board"]["points"] == {
        "24": 15, "12": -15}
    for bad in ("red", "WHITE", "1", "white,black"):
        error_of(api.get(url, {"perspective": bad}), 400, "validation_error")
    # An empty ?perspective= is bad input or the default - never a 500.
    empty = api.get(f"{url}?perspective=")
    if empty.status_code == 200:
        assert empty.json()["state"]["board"]["perspective"] == "white"
    else:
        error_of(empty, 400, "validation_error")


def test_moves_die_optional_applied_and_board(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    version = alice.ok(match_id, "roll")["version"]
    body = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}],
                                        "expected_version": version})
    check_match(body)
    assert body["version"] == version + 1
    for step in body.get("applied", []):
        check_step(step)
    assert body["state"]["board"]["points"] == {"24": 14, "19": 1, "12": -15}
    body = alice.ok(match_id, "moves", {"steps": [{"from": 19, "to": 16, "die": 3, "hit": False}]})
    assert body["state"]["turn"] == "black" and body["state"]["phase"] == "roll"
    assert body["state"]["board"]["points"] == {"24": 14, "16": 1, "12": -15}


def test_bearing_off_is_to_0_with_or_without_die(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    set_board(match_id, {6: 1, 3: 2, 12: -15}, off_mine=12)
    scripted_dice(3, 1)
    state = alice.ok(match_id, "roll")["state"]
    check_state(state)
    assert {"from": 3, "to": 0, "die": 3, "hit": False} in state["legal_steps"]
    body = alice.ok(match_id, "moves", {"steps": [{"from": 3, "to": 0}]})
    assert body["state"]["board"]["off"] == {"mine": 13, "theirs": 0}
    assert body["state"]["board"]["points"] == {"12": -15, "6": 1, "3": 1}
    check_board(body["state"]["board"], "white")
    body = alice.ok(match_id, "moves", {"steps": [{"from": 6, "to": 5, "die": 1, "hit": False}]})
    check_board(body["state"]["board"], "white")


def test_illegal_move_and_turn_errors(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    error_of(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}), 409,
             "wrong_phase")
    error_of(bob.post(match_id, "roll"), 409, "not_your_turn")
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    before = alice.get(match_id)
    error = error_of(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 20}]}), 400,
                     "illegal_move")
    assert isinstance(error["details"], dict)
    error_of(bob.post(match_id, "moves", {"steps": [{"from": 24, "to": 19}]}), 409,
             "not_your_turn")
    assert alice.get(match_id) == before


# --- versions: every state-changing call -----------------------------------------------------


def _setup(action, alice, bob, scripted_dice):
    """A match where ``action`` by the returned seat would succeed."""
    if action in ("join", "cancel", "decline"):
        match_id = alice.create(length=1, opponent="bob", color="white").json()["id"]
        return match_id, {"join": bob, "cancel": alice, "decline": bob}[action], {}
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    if action == "moves":
        scripted_dice(5, 3)
        alice.ok(match_id, "roll")
        return match_id, alice, {"steps": [{"from": 24, "to": 19}]}
    if action == "rematch":
        alice.ok(match_id, "resign")
    return match_id, alice, {}


@pytest.mark.parametrize("action", ["join", "cancel", "decline", "roll", "moves", "resign",
                                    "rematch"])
def test_stale_expected_version_is_409_and_changes_nothing(alice, bob, scripted_dice, action):
    match_id, who, body = _setup(action, alice, bob, scripted_dice)
    before = snapshot(match_id, who.client)
    version = before[0]["version"]
    assert type(version) is int
    scripted_dice(4, 2)
    for stale in (version - 1, version + 1, 10**30):
        error = error_of(who.post(match_id, action, {**body, "expected_version": stale}), 409,
                         "version_conflict")
        assert isinstance(error["details"], dict)
        assert snapshot(match_id, who.client) == before
    response = who.post(match_id, action, {**body, "expected_version": version})
    assert response.status_code in (200, 201), response.content
    check_match(response.json())
    after = who.client.get(f"{MATCHES}{match_id}/").json()
    if action != "rematch":
        assert after["version"] > version
        assert response.json()["version"] == after["version"]


@pytest.mark.parametrize("payload", [
    {"expected_version": "v"}, {"expected_version": 1.5}, {"expected_version": -1},
    {"expected_version": [1]}, {"expected_version": {"v": 1}}, {"expected_version": True},
    {"expected_version": "1" * 2000},
])
@pytest.mark.parametrize("action", ["join", "roll", "resign", "rematch"])
def test_garbage_expected_version_is_400_and_changes_nothing(alice, bob, scripted_dice,
                                                            action, payload):
    match_id, who, body = _setup(action, alice, bob, scripted_dice)
    before = snapshot(match_id, who.client)
    scripted_dice(4, 2)
    error_of(who.post(match_id, action, {**body, **payload}), 400, "validation_error")
    assert snapshot(match_id, who.client) == before


# --- resign, rematch, games, moves record, events ------------------------------------------------


def test_resign_rematch_games_and_record(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    error_of(alice.post(match_id, "rematch"), 409, "wrong_phase")
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}, {"from": 19, "to": 16}]})
    finished = bob.ok(match_id, "resign")
    check_match(finished)
    assert finished["status"] == "finished" and finished["winner"] == "white"
    assert finished["finished_at"] is not None and finished["score"]["white"] >= 1
    assert finished["state"]["phase"] == "finished"
    games = api.get(f"{MATCHES}{match_id}/games/").json()
    assert isinstance(games, list) and len(games) == 1
    assert {"number", "starter", "winner", "points", "mars", "turns"} <= set(games[0])
    assert (games[0]["number"], games[0]["starter"], games[0]["winner"]) == (1, "white", "white")
    assert type(games[0]["points"]) is int and type(games[0]["mars"]) is bool
    assert type(games[0]["turns"]) is int
    record = api.get(f"{MATCHES}{match_id}/games/1/moves/").json()
    assert isinstance(record, list) and record
    assert record[0]["dice"] == [5, 3]
    for step in record[0]["steps"]:
        check_step(step)
    # Rematch: a new invitation to the same opponent, same length, colours swapped.
    rematch = bob.client.post(f"{MATCHES}{match_id}/rematch/", {}, format="json")
    assert rematch.status_code in (200, 201), rematch.content
    body = rematch.json()
    check_match(body)
    assert body["id"] != match_id
    assert (body["status"], body["length"], body["white"], body["black"]) == (
        "invited", 1, "bob", "alice")
    joined = alice.ok(body["id"], "join")
    assert joined["status"] == "active"


def test_events_shape_order_and_after(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    set_board(match_id, {24: 15, 23: -2, 22: -2, 21: -2, 20: -2, 19: -2, 18: -2, 12: -3})
    scripted_dice(6, 5)
    passed = alice.ok(match_id, "roll")  # nothing plays: the turn passes at once
    assert passed["state"]["turn"] == "black"
    bob.ok(match_id, "resign")
    url = f"{MATCHES}{match_id}/events/"
    log = api.get(url).json()
    assert isinstance(log, list)
    for event in log:
        assert set(event) >= {"seq", "type", "at", "data"}, event
        assert type(event["seq"]) is int and isinstance(event["data"], dict)
    seqs = [e["seq"] for e in log]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    types = [e["type"] for e in log]
    for expected in ("match_created", "joined", "roll_off", "roll", "pass", "resign",
                     "game_over"):
        assert expected in types, types
    pass_event = next(e for e in log if e["type"] == "pass")
    assert pass_event["data"].get("reason"), pass_event
    over = next(e for e in log if e["type"] == "game_over")
    assert {"winner", "points", "mars"} <= set(over["data"]), over
    assert api.get(url, {"after": seqs[2]}).json() == log[3:]
    assert api.get(url, {"after": seqs[-1]}).json() == []
    assert api.get(url, {"after": 10**12}).json() == []
    for bad in ("abc", "-1", "1.5", "", "1e3"):
        response = api.get(f"{url}?after={bad}")
        if response.status_code != 200:
            error_of(response, 400, "validation_error")


def test_events_answer_the_whole_log(alice, bob, scripted_dice, api):
    """API.md: "GET matches/{id}/events/ ?after=<seq> - the log, in order": without
    ?after= the whole log. The product silently stops at 1000 events (limit default)."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    match = Match.objects.get(pk=match_id)
    last = match.last_event_seq
    first_event = Event.objects.filter(match=match).first()
    Event.objects.bulk_create([
        Event(match=match, seq=last + i, type="step", at=first_event.at, data={"n": i})
        for i in range(1, 1101)])
    Match.objects.filter(pk=match_id).update(last_event_seq=last + 1100)
    log = api.get(f"{MATCHES}{match_id}/events/").json()
    assert len(log) == last + 1100, len(log)


# --- list ---------------------------------------------------------------------------------------


def test_list_is_paginated_and_filtered(alice, bob, api):
    ids = [alice.create(length=1, opponent="bob").json()["id"] for _ in range(3)]
    seek = alice.create(length=1).json()["id"]
    body = api.get(MATCHES).json()
    assert {"count", "next", "previous", "results"} <= set(body)
    assert body["count"] == 4 and len(body["results"]) == 4
    for match in body["results"]:
        check_match(match)
    assert [m["id"] for m in api.get(MATCHES, {"status": "open"}).json()["results"]] == [seek]
    invited = api.get(MATCHES, {"status": "invited", "player": "bob"}).json()
    assert sorted(m["id"] for m in invited["results"]) == sorted(ids)
    assert api.get(MATCHES, {"player": "nobody"}).json()["count"] == 0
    page = api.get(MATCHES, {"page_size": 2}).json()
    assert len(page["results"]) == 2 and page["next"]


@pytest.mark.parametrize("query", [
    "page=abc", "page=0", "page=-1", "page=99999", "page=1.5", "page=" + "9" * 50,
    "page_size=abc", "page_size=-5", "page_size=" + "9" * 50, "status=bogus", "status=OPEN",
    "player=" + "x" * 5000, "player=a%00b", "perspective=red", "status=open&status=active",
])
def test_list_garbage_queries_are_4xx_or_ignored(api, alice, query):
    alice.create(length=1)
    response = api.get(f"{MATCHES}?{query}")
    if response.status_code != 200:
        assert_4xx_shape(response)


def test_aborted_match_offers_no_legal_steps(alice, bob, scripted_dice, make_user):
    """legal_steps are "the steps the side to move may play next"; in an aborted match
    nobody may play (moves answer 409 wrong_phase), yet the state still lists steps."""
    from games import services

    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    services.match_abort(match_id=match_id, by=make_user("staff", is_staff=True))
    body = alice.get(match_id)
    assert body["status"] == "aborted"
    error_of(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 19}]}), 409,
             "wrong_phase")
    assert body["state"]["legal_steps"] == []


MOVE_BODIES = [
    {}, {"steps": []}, {"steps": None}, {"steps": "24/19"}, {"steps": {"from": 24, "to": 19}},
    {"steps": [None]}, {"steps": [[24, 19]]}, {"steps": ["24/19"]}, {"steps": [{}]},
    {"steps": [{"from": 24}]}, {"steps": [{"to": 19}]},
    {"steps": [{"from": "x", "to": 19}]}, {"steps": [{"from": 24.5, "to": 19}]},
    {"steps": [{"from": 10**30, "to": 19}]}, {"steps": [{"from": -10**30, "to": 19}]},
    {"steps": [{"from": 24, "to": -1}]}, {"steps": [{"from": 24, "to": 25}]},
    {"steps": [{"from": 24, "to": 19, "die": 0, "hit": False}]}, {"steps": [{"from": 24,
        "to": 19, "die": 7, "hit": False}]},
    {"steps": [{"from": 24, "to": 19, "die": "five", "hit": False}]},
    {"steps": [{"from": 24, "to": 19, "die": [5], "hit": False}]},
    {"steps": [{"from": {"p": 24}, "to": 19}]}, {"steps": [{"from": None, "to": 19}]},
    {"steps": [{"from": True, "to": 19}]},
    {"steps": [{"from": 24, "to": 19}] * 1000},
    {"steps": [{"from": 24, "to": 24}]}, {"steps": [{"from": 19, "to": 24}]},
    {"steps": [{"from": 24, "to": 19, "die": 3, "hit": False}]},
]


@pytest.mark.parametrize("body", MOVE_BODIES, ids=range(len(MOVE_BODIES)))
def test_moves_garbage_is_400_and_changes_nothing(alice, bob, scripted_dice, body):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    before = snapshot(match_id, alice.client)
    alice.client.raise_request_exception = False
    error_of(alice.post(match_id, "moves", body), 400, ("validation_error", "illegal_move"))
    assert snapshot(match_id, alice.client) == before
