"""API.md "Matches", the contract: shapes, perspectives (R33), board and steps, versions,
refusals by phase, the record, events, the list, read vs write.

Bad input to these endpoints: tests/api/test_bad_input.py; the flow of play:
test_match_flow.py; the rules through the API: rules/."""

from __future__ import annotations

import pytest

from games.models import Event, Match
from tests.api.test_bad_input import snapshot
from tests.support import (
    API,
    MATCHES,
    assert_error,
    check_board,
    check_match,
    check_state,
    check_step,
    is_json,
    set_board,
    start_match,
    steps_of,
)

pytestmark = pytest.mark.django_db

WHITE_VIEW_AFTER_24_17 = {"perspective": "white", "points": {"24": 14, "17": 1, "12": -15},
                          "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}
# R2: White's 24 is Black's 12, White's 17 is Black's 5, White's 12 is Black's 24.
BLACK_VIEW_AFTER_24_17 = {"perspective": "black", "points": {"24": 15, "12": -14, "5": -1},
                          "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}


# --- create ------------------------------------------------------------------------------------


def test_create_open_seek_invitation_and_hotseat(alice, bob):
    seek = alice.create(length=3, color="white")
    assert seek.status_code == 201 and is_json(seek), seek.content
    body = seek.json()
    check_match(body)
    assert (body["status"], body["length"], body["white"], body["black"]) == (
        "open", 3, "alice", None)
    assert body["winner"] is None and body["finished_at"] is None
    assert body["score"] == {"white": 0, "black": 0}

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


# --- anonymous read vs write --------------------------------------------------------------------


def test_anonymous_may_read_but_not_write(alice, bob, api, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    for url in (MATCHES, f"{MATCHES}{match_id}/", f"{MATCHES}{match_id}/games/",
                f"{MATCHES}{match_id}/games/1/moves/", f"{MATCHES}{match_id}/events/",
                f"{API}/accounts/users/alice/"):
        response = api.get(url)
        assert response.status_code == 200 and is_json(response), (url, response.content)
    before = snapshot(match_id, api)
    assert_error(api.post(MATCHES, {"length": 1}, format="json"), 401, "not_authenticated")
    for action in ("join", "roll", "moves", "resign", "rematch", "cancel", "decline"):
        assert_error(api.post(f"{MATCHES}{match_id}/{action}/", {}, format="json"), 401,
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


# --- perspectives (R33) -----------------------------------------------------------------------


def test_R33_default_perspectives_players_spectators(alice, bob, seat, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    url = f"{MATCHES}{match_id}/"
    assert api.get(url).json()["state"]["board"]["points"] == {"24": 15, "12": -15}
    assert api.get(url, {"perspective": "black"}).json()["state"]["board"]["points"] == {
        "24": 15, "12": -15}
    scripted_dice(5, 2)
    alice.ok(match_id, "roll")
    alice.move(match_id, (24, 19), (19, 17))
    for board in (alice.get(match_id)["state"]["board"], bob.get(match_id)["state"]["board"]):
        check_board(board)
    assert alice.get(match_id)["state"]["board"] == WHITE_VIEW_AFTER_24_17
    assert bob.get(match_id)["state"]["board"] == BLACK_VIEW_AFTER_24_17
    assert api.get(url).json()["state"]["board"] == WHITE_VIEW_AFTER_24_17
    assert api.get(url, {"perspective": "black"}).json()["state"]["board"] == (
        BLACK_VIEW_AFTER_24_17)
    # An empty ?perspective= is the default.
    assert api.get(f"{url}?perspective=").json()["state"]["board"] == WHITE_VIEW_AFTER_24_17
    carol = seat("carol")
    assert carol.get(match_id)["state"]["board"] == WHITE_VIEW_AFTER_24_17
    assert carol.get(match_id, perspective="black")["state"]["board"] == BLACK_VIEW_AFTER_24_17
    assert alice.get(match_id, perspective="black")["state"]["board"] == BLACK_VIEW_AFTER_24_17
    assert bob.get(match_id, perspective="white")["state"]["board"] == WHITE_VIEW_AFTER_24_17
    # The list shows each match in the asker's default perspective too.
    listed = bob.client.get(MATCHES, {"player": "bob"}).json()["results"]
    assert listed[0]["state"]["board"] == BLACK_VIEW_AFTER_24_17


@pytest.mark.parametrize("bad", ["red", "WHITE", "1", "white,black"])
def test_a_bad_perspective_is_400(alice, bob, scripted_dice, api, bad):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    assert_error(api.get(f"{MATCHES}{match_id}/", {"perspective": bad}), 400,
                 "validation_error")


def test_R33_legal_steps_stay_in_the_movers_numbering_whatever_the_perspective(
        alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(2, 1)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 22}, {"from": 22, "to": 21}]})
    scripted_dice(6, 5)
    response = bob.client.post(f"{MATCHES}{match_id}/roll/?perspective=white", {},
                               format="json")
    assert response.status_code == 200
    state = response.json()["state"]
    assert state["board"]["perspective"] == "white"
    assert state["board"]["points"] == {"24": 14, "21": 1, "12": -15}
    assert steps_of(state) == {(24, 18, 6), (24, 19, 5)}  # Black's own numbering
    response = bob.client.post(f"{MATCHES}{match_id}/moves/?perspective=white",
                               {"steps": [{"from": 24, "to": 18}]}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["applied"] == [{"from": 24, "to": 18, "die": 6, "hit": False}]
    assert body["state"]["board"]["points"] == {"24": 14, "21": 1, "12": -14, "6": -1}


def test_R33_hotseat_view_turns_to_the_side_to_move(alice, scripted_dice):
    match_id = alice.create(length=1, hotseat=True).json()["id"]
    scripted_dice(6, 2)  # White wins the roll-off
    alice.ok(match_id, "roll")
    state = alice.ok(match_id, "roll")["state"]
    assert state["turn"] == "white" and state["board"]["perspective"] == "white"
    scripted_dice(5, 2)
    state = alice.ok(match_id, "roll")["state"]
    assert state["board"]["perspective"] == "white"
    state = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19},
                                                   {"from": 19, "to": 17}]})["state"]
    assert state["turn"] == "black"
    assert state["board"] == BLACK_VIEW_AFTER_24_17
    assert alice.get(match_id)["state"]["board"] == BLACK_VIEW_AFTER_24_17
    scripted_dice(3, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert state["board"]["perspective"] == "black" and state["legal_steps"]
    assert alice.get(match_id, perspective="white")["state"]["board"]["perspective"] == "white"


def test_bad_perspective_on_a_state_changing_call_changes_nothing(alice, bob, scripted_dice):
    """A 4xx answer must not hide an applied change (API.md: refusals change nothing)."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    before = alice.get(match_id)
    scripted_dice(6, 5)
    response = alice.client.post(f"{MATCHES}{match_id}/roll/?perspective=red", {},
                                 format="json")
    assert_error(response, 400, "validation_error")
    after = alice.get(match_id)
    assert after["version"] == before["version"], "the roll was applied despite the 400"
    assert after["state"]["phase"] == "roll"


def test_bad_perspective_on_moves_changes_nothing(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 5)
    rolled = alice.ok(match_id, "roll")
    response = alice.client.post(f"{MATCHES}{match_id}/moves/?perspective=purple",
                                 {"steps": [{"from": 24, "to": 18}]}, format="json")
    assert_error(response, 400, "validation_error")
    after = alice.get(match_id)
    assert after["version"] == rolled["version"], "the step was applied despite the 400"
    assert after["state"]["dice_left"] == [6, 5]


def test_bad_perspective_on_create_and_resign_changes_nothing(alice, bob, scripted_dice):
    count = Match.objects.count()
    response = alice.client.post(f"{MATCHES}?perspective=red",
                                 {"length": 1, "opponent": "bob"}, format="json")
    assert_error(response, 400, "validation_error")
    assert Match.objects.count() == count, "the match was created despite the 400"
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    before = alice.get(match_id)
    response = alice.client.post(f"{MATCHES}{match_id}/resign/?perspective=red", {},
                                 format="json")
    assert_error(response, 400, "validation_error")
    assert alice.get(match_id)["score"] == before["score"], "resigned despite the 400"


def test_moves_phase_after_set_board_black_to_move(alice, bob, scripted_dice):
    """Sanity check of the board helper itself in Black's numbering."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    set_board(match_id, {24: 15, 12: -15}, perspective="black", turn="black")
    assert bob.get(match_id)["state"]["board"]["points"] == {"24": 15, "12": -15}


def test_moves_die_optional_applied_and_board(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    version = alice.ok(match_id, "roll")["version"]
    body = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}],
                                        "expected_version": version})
    check_match(body)
    assert body["version"] == version + 1
    assert body["applied"] == [{"from": 24, "to": 19, "die": 5, "hit": False}]
    for step in body["applied"]:
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


# --- versions: every state-changing call -----------------------------------------------------


def test_version_grows_by_exactly_one_per_change(alice, bob, scripted_dice, api):
    created = alice.create(length=3, opponent="bob", color="white").json()
    match_id, version = created["id"], created["version"]
    assert type(version) is int
    seen = [version]

    def check(body):
        seen.append(body["version"])
        assert body["version"] == seen[-2] + 1, seen
        assert body["state"] is None or body["state"]["version"] == body["version"]
        assert api.get(f"{MATCHES}{match_id}/").json()["version"] == body["version"]

    check(bob.ok(match_id, "join"))
    scripted_dice(3, 3, 1, 6)  # a tie, then Black 1, White 6: White starts
    check(alice.ok(match_id, "roll"))
    check(bob.ok(match_id, "roll"))
    check(bob.ok(match_id, "roll"))
    check(alice.ok(match_id, "roll"))
    scripted_dice(5, 2)
    check(alice.ok(match_id, "roll"))
    check(alice.move(match_id, (24, 19), (19, 17)))
    scripted_dice(6, 6)
    check(bob.ok(match_id, "roll"))
    check(bob.move(match_id, (24, 18)))
    check(bob.move(match_id, (24, 18)))  # and the pass
    check(alice.ok(match_id, "resign"))


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
    """API.md "Versions"; for a rematch, nothing is created either."""
    match_id, who, body = _setup(action, alice, bob, scripted_dice)
    before = snapshot(match_id, who.client)
    version = before[0]["version"]
    assert type(version) is int
    scripted_dice(4, 2)
    for stale in (version - 1, version + 1, 0, 10**30):
        assert_error(who.post(match_id, action, {**body, "expected_version": stale}), 409,
                     "version_conflict")
        assert snapshot(match_id, who.client) == before
    answer = who.ok(match_id, action, {**body, "expected_version": version})
    check_match(answer)
    if action == "rematch":  # a new match; the finished one is as it was
        assert answer["id"] != match_id and answer["version"] == 1
        assert who.get(match_id)["version"] == version
    else:
        assert answer["version"] == version + 1 == who.get(match_id)["version"]


# --- refusals in each phase ---------------------------------------------------------------


def test_refusals_in_each_phase_have_the_right_codes(alice, bob, seat, scripted_dice, api):
    created = alice.create(length=1, opponent="bob", color="white").json()
    match_id = created["id"]
    # Before the match starts.
    assert_error(alice.post(match_id, "roll"), 409, "wrong_phase")
    assert_error(alice.post(match_id, "join"), 403, "permission_denied")
    assert_error(seat("carol").post(match_id, "join"), 403, "permission_denied")
    assert_error(alice.post(match_id, "rematch"), 409, "wrong_phase")
    bob.ok(match_id, "join")
    assert_error(bob.post(match_id, "join"), 409, "wrong_phase")
    # Roll-off: no moves yet; a second roll-off die is not yours to roll.
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}),
                 409, "wrong_phase")
    scripted_dice(6)
    alice.ok(match_id, "roll")
    assert_error(alice.post(match_id, "roll"), 409, "not_your_turn")
    scripted_dice(2)
    bob.ok(match_id, "roll")
    # Move phase refusals.
    scripted_dice(4, 2)
    alice.ok(match_id, "roll")
    assert_error(bob.post(match_id, "roll"), 409, "not_your_turn")
    assert_error(alice.post(match_id, "roll"), 409, "wrong_phase")
    for steps, reason in [
        ([{"from": 23, "to": 19}], "no_checker"),
        ([{"from": 12, "to": 8}], "wrong_side"),
        ([{"from": 24, "to": 21}], "no_such_die"),
        ([{"from": 24, "to": 20}, {"from": 24, "to": 22}], "head_rule"),
    ]:
        error = assert_error(alice.post(match_id, "moves", {"steps": steps}), 400,
                             "illegal_move")
        assert error["details"]["reason"] == reason, (steps, error)
        assert error["details"]["index"] == len(steps) - 1
        assert isinstance(error["details"]["legal_steps"], list)
    for body in [{"steps": [None]}, {"steps": [{"from": 24}]}, {"steps": [{"to": 20}]},
                 {"steps": [{"from": "x", "to": 20}]}, {"steps": [{"from": 24, "to": 20}],
                                                        "expected_version": "v"},
                 {"steps": [{"from": 24, "to": 20}], "expected_version": -1},
                 {"steps": [{"from": 24, "to": 20}] * 5},
                 {"steps": [{"from": 24, "to": 20, "die": 7, "hit": False}]},
                 {"steps": {"from": 24, "to": 20}}, {}]:
        assert_error(alice.post(match_id, "moves", body), 400, "validation_error")
    assert alice.get(match_id)["state"]["dice_left"] == [4, 2]
    # Anonymous and strangers.
    assert_error(api.post(f"{MATCHES}{match_id}/moves/", {"steps": []}, format="json"),
                 401, "not_authenticated")
    assert_error(seat("dave").post(match_id, "roll"), 403, "permission_denied")
    assert_error(api.get(f"{MATCHES}{match_id}/games/9/moves/"), 404, "not_found")


# --- resign, rematch, games, moves record, events ------------------------------------------------


def test_resign_rematch_games_and_record(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    assert_error(alice.post(match_id, "rematch"), 409, "wrong_phase")
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}, {"from": 19, "to": 16}]})
    finished = bob.ok(match_id, "resign")
    check_match(finished)
    assert finished["status"] == "finished" and finished["winner"] == "white"
    assert finished["finished_at"] is not None
    assert finished["score"] == {"white": 2, "black": 0}  # nothing borne off: a mars (R30)
    assert finished["state"]["phase"] == "finished"
    games = api.get(f"{MATCHES}{match_id}/games/").json()
    assert isinstance(games, list) and len(games) == 1
    assert {"number", "starter", "winner", "points", "mars", "turns"} <= set(games[0])
    assert (games[0]["number"], games[0]["starter"], games[0]["winner"]) == (1, "white", "white")
    assert (games[0]["points"], games[0]["mars"], games[0]["turns"]) == (2, True, 1)
    record = api.get(f"{MATCHES}{match_id}/games/1/moves/").json()
    assert isinstance(record, list) and record
    assert record[0]["dice"] == [5, 3]
    for step in record[0]["steps"]:
        check_step(step)
    # Rematch: a new invitation to the same opponent, same length, colours swapped.
    body = bob.ok(match_id, "rematch")
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
    # Bad ?after= values: tests/api/test_bad_input.py.


def test_games_list_and_moves_record_shapes(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    scripted_dice(4, 2)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 20}, {"from": 20, "to": 18}]})
    games = api.get(f"{MATCHES}{match_id}/games/").json()
    assert len(games) == 1
    game = games[0]
    assert {"number", "starter", "winner", "points", "mars", "turns"} <= set(game)
    assert (game["number"], game["starter"], game["winner"], game["points"], game["mars"],
            game["turns"]) == (1, "white", None, None, False, 1)
    moves = api.get(f"{MATCHES}{match_id}/games/1/moves/").json()
    assert moves[0]["dice"] == [4, 2] and moves[0]["side"] == "white"
    assert moves[0]["steps"] == [{"from": 24, "to": 20, "die": 4, "hit": False},
                                 {"from": 20, "to": 18, "die": 2, "hit": False}]


def test_event_shapes_and_after_filter(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(4, 2)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 20}, {"from": 20, "to": 18}]})
    log = api.get(f"{MATCHES}{match_id}/events/").json()
    for event in log:
        assert set(event) == {"seq", "type", "at", "data"}
    assert [e["type"] for e in log] == ["match_created", "joined", "game_start", "roll_off",
                                        "roll_off", "roll", "step", "step"]
    assert log[5]["data"]["dice"] == [4, 2]
    assert {k: log[6]["data"][k] for k in ("from", "to", "die")} == {"from": 24, "to": 20,
                                                                     "die": 4}
    tail = api.get(f"{MATCHES}{match_id}/events/", {"after": log[-2]["seq"]}).json()
    assert tail == log[-1:]


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


def test_list_is_paginated_and_filtered_by_player_and_status(alice, bob, seat, api):
    carol = seat("carol")
    invited = [alice.create(length=1, opponent="bob").json()["id"] for _ in range(2)]
    seek = carol.create(length=3).json()["id"]
    for _ in range(3):
        bob.create(length=5, hotseat=True)
    body = api.get(MATCHES).json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 6 and len(body["results"]) == 6
    for match in body["results"]:
        check_match(match)
    assert [m["id"] for m in api.get(MATCHES, {"status": "open"}).json()["results"]] == [seek]
    listed = api.get(MATCHES, {"status": "invited", "player": "bob"}).json()
    assert sorted(m["id"] for m in listed["results"]) == sorted(invited)
    assert api.get(MATCHES, {"player": "BOB"}).json()["count"] == 5
    assert api.get(MATCHES, {"player": "carol"}).json()["count"] == 1
    assert api.get(MATCHES, {"player": "nobody"}).json()["count"] == 0
    assert api.get(MATCHES, {"status": "active"}).json()["count"] == 3
    page = api.get(MATCHES, {"page_size": 2}).json()
    assert page["count"] == 6 and len(page["results"]) == 2 and page["next"]
    assert_error(api.get(MATCHES, {"status": "bogus"}), 400, "validation_error")
    assert_error(api.get(MATCHES, {"page": 99}), 404, "not_found")


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
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 19}]}), 409,
             "wrong_phase")
    assert body["state"]["legal_steps"] == []
