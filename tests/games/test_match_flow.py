"""Matches over HTTP: creation, joining, roll-off (R7), rolls, moves and rights."""

from __future__ import annotations

import pytest

from games.models import Event, Match, Turn
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db


def test_open_seek_is_listed_and_joined_by_anyone(alice, bob, api):
    created = alice.create(length=3, color="black")
    assert created.status_code == 201
    match = created.json()
    assert match["status"] == "open" and match["black"] == "alice" and match["white"] is None
    assert match["state"] is None and match["version"] == 1
    seeks = api.get("/api/v1/matches/", {"status": "open"}).json()
    assert [m["id"] for m in seeks["results"]] == [match["id"]] and seeks["count"] == 1
    joined = bob.ok(match["id"], "join")
    assert joined["status"] == "active" and joined["white"] == "bob"
    assert joined["state"]["phase"] == "roll-off" and joined["state"]["game"] == 1
    assert joined["version"] == 2


def test_own_seek_cannot_be_joined_and_invitation_only_by_invitee(alice, bob, seat):
    seek = alice.create(length=1).json()
    assert_error(alice.post(seek["id"], "join"), 403, "permission_denied")
    carol = seat("carol")
    invitation = alice.create(length=1, opponent="BOB").json()
    assert invitation["status"] == "invited" and invitation["invited"] == "bob"
    assert_error(carol.post(invitation["id"], "join"), 403, "permission_denied")
    assert bob.ok(invitation["id"], "join")["status"] == "active"
    assert_error(bob.post(invitation["id"], "join"), 409, "wrong_phase")


@pytest.mark.parametrize("body, field", [
    ({"length": 2}, "length"),
    ({"length": "x"}, "length"),
    ({"length": 3, "opponent": "nobody"}, "opponent"),
    ({"length": 3, "opponent": "alice"}, "opponent"),
    ({"length": 3, "color": "green"}, "color"),
    ({"length": 3, "hotseat": True, "opponent": "bob"}, "opponent"),
])
def test_create_validation(alice, bob, body, field):
    response = alice.client.post("/api/v1/matches/", body, format="json")
    error = assert_error(response, 400, "validation_error")
    assert field in error["details"]
    assert not Match.objects.exists()


def test_create_needs_auth(api):
    assert_error(api.post("/api/v1/matches/", {"length": 1}, format="json"),
                 401, "not_authenticated")


def test_decline_and_cancel_abort_before_start(alice, bob):
    invitation = alice.create(length=1, opponent="bob").json()
    declined = bob.ok(invitation["id"], "decline")
    assert declined["status"] == "aborted"
    seek = alice.create(length=1).json()
    assert_error(bob.post(seek["id"], "cancel"), 403, "permission_denied")
    assert alice.ok(seek["id"], "cancel")["status"] == "aborted"
    assert_error(bob.post(seek["id"], "join"), 409, "wrong_phase")


def test_R7_roll_off_ties_roll_again_and_the_higher_die_starts(alice, bob, scripted_dice):
    match_id = alice.create(length=1, opponent="bob", color="white").json()["id"]
    bob.ok(match_id, "join")
    scripted_dice(4, 4, 5, 2)
    first = alice.ok(match_id, "roll")
    assert first["roll"] == {"kind": "roll-off", "side": "white", "die": 4, "result": "pending"}
    assert_error(alice.post(match_id, "roll"), 409, "not_your_turn")
    tie = bob.ok(match_id, "roll")
    assert tie["roll"]["result"] == "tie"
    assert tie["state"]["phase"] == "roll-off"
    assert tie["state"]["roll_off"] == {"white": None, "black": None}
    bob.ok(match_id, "roll")  # black rolls 5 first this time
    decided = alice.ok(match_id, "roll")
    assert decided["roll"]["result"] == "black"
    state = decided["state"]
    assert state["phase"] == "roll" and state["turn"] == "black" and state["dice"] is None
    rolloffs = [e.data for e in Event.objects.filter(type="roll_off").order_by("seq")]
    assert [(e["side"], e["die"], e["result"]) for e in rolloffs] == [
        ("white", 4, "pending"), ("black", 4, "tie"), ("black", 5, "pending"),
        ("white", 2, "black")]
    # The roll-off dice are not played: the starter now rolls two dice (R7).
    scripted_dice(3, 1)
    rolled = bob.ok(match_id, "roll")
    assert rolled["dice"] == [3, 1] and rolled["state"]["phase"] == "move"


def test_roll_and_step_then_turn_passes_to_the_opponent(alice, bob, scripted_dice):
    match = start_match(alice, bob, script=scripted_dice)
    match_id = match["id"]
    assert match["state"]["turn"] == "white"
    scripted_dice(6, 3)
    rolled = alice.ok(match_id, "roll")
    state = rolled["state"]
    assert rolled["roll"] == {"kind": "turn", "side": "white", "dice": [6, 3], "passed": False}
    assert state["dice"] == [6, 3] and state["dice_left"] == [6, 3]
    assert state["head_may_leave"] == 1
    assert {(s["from"], s["to"], s["die"]) for s in state["legal_steps"]} == {
        (24, 18, 6), (24, 21, 3)}
    # The opponent sees the same state but is offered nothing.
    assert bob.get(match_id)["state"]["legal_steps"] == []
    moved = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}]})
    assert moved["applied"] == [{"from": 24, "to": 18, "die": 6, "hit": False}]
    assert moved["state"]["dice_left"] == [3] and moved["state"]["head_may_leave"] == 0
    assert {(s["from"], s["to"]) for s in moved["state"]["legal_steps"]} == {(18, 15)}
    done = alice.ok(match_id, "moves", {"steps": [{"from": 18, "to": 15, "die": 3, "hit": False}]})
    assert done["state"]["turn"] == "black" and done["state"]["phase"] == "roll"
    assert done["state"]["board"]["points"] == {"24": 14, "15": 1, "12": -15}
    turn = Turn.objects.get()
    assert turn.steps == [{"from": 24, "to": 18, "die": 6, "hit": False}, {"from": 18,
        "to": 15, "die": 3, "hit": False}]
    assert turn.pass_reason == "" and turn.position_after and turn.finished_at


def test_R6_R12_first_turn_six_six_for_each_colour(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 6)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2 and state["dice_left"] == [6, 6, 6, 6]
    # 18 -> 12 is blocked by Black's head, so only two sixes play: both from the head.
    assert state["legal_steps"] == [{"from": 24, "to": 18, "die": 6, "hit": False}]
    done = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}] * 2})
    assert done["state"]["turn"] == "black"
    assert done["state"]["board"]["points"]["18"] == 2
    scripted_dice(6, 6)
    state = bob.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2 and state["board"]["perspective"] == "black"
    done = bob.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}, {"from": 24, "to": 18}]})
    assert done["state"]["board"]["points"] == {"24": 13, "18": 2, "12": -13, "6": -2}
    passes = Event.objects.filter(type="pass")
    assert [e.data["reason"] for e in passes] == ["no legal move", "no legal move"]
    assert [t.pass_reason for t in Turn.objects.order_by("number")] == [
        "no legal move", "no legal move"]


def test_multi_step_request_failing_in_its_last_step_changes_nothing(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 2)
    before = alice.ok(match_id, "roll")
    events = Event.objects.count()
    response = alice.post(match_id, "moves", {"steps": [
        {"from": 24, "to": 19}, {"from": 24, "to": 22}]})  # second: head rule (R11)
    error = assert_error(response, 400, "illegal_move")
    assert error["details"]["index"] == 1 and error["details"]["reason"] == "head_rule"
    after = alice.get(match_id)
    assert after["state"] == before["state"] and after["version"] == before["version"]
    assert Event.objects.count() == events and Turn.objects.get().steps == []


def test_error_codes_of_the_move_path(alice, bob, seat, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    assert_error(bob.post(match_id, "roll"), 409, "not_your_turn")
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}),
                 409, "wrong_phase")
    version = alice.get(match_id)["version"]
    assert_error(alice.post(match_id, "roll", {"expected_version": version - 1}),
                 409, "version_conflict")
    scripted_dice(6, 1)
    alice.ok(match_id, "roll", {"expected_version": version})
    before = alice.get(match_id)
    assert_error(alice.post(match_id, "roll"), 409, "wrong_phase")
    assert_error(bob.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}),
                 409, "not_your_turn")
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 20}]}),
                 400, "illegal_move", reason="no_such_die")
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 25}]}),
                 400, "validation_error")
    assert_error(alice.post(match_id, "moves", {"steps": []}), 400, "validation_error")
    assert_error(alice.post(match_id, "moves", {"steps": "24/18"}), 400, "validation_error")
    assert_error(seat("mallory").post(match_id, "roll"), 403, "permission_denied")
    assert_error(api.post(f"/api/v1/matches/{match_id}/roll/", {}, format="json"),
                 401, "not_authenticated")
    assert alice.get(match_id) == before  # no refusal changed anything
    assert_error(alice.post(999999, "roll"), 404, "not_found")
    assert_error(api.get("/api/v1/matches/999999/"), 404, "not_found")


def test_spectators_read_everything_but_act_on_nothing(alice, bob, seat, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(3, 1)
    alice.ok(match_id, "roll")
    stranger = seat("stranger")
    for reader in (api, stranger.client):
        state = reader.get(f"/api/v1/matches/{match_id}/").json()["state"]
        assert state["legal_steps"] == [] and state["dice"] == [3, 1]
        assert reader.get(f"/api/v1/matches/{match_id}/games/").status_code == 200
        assert reader.get(f"/api/v1/matches/{match_id}/games/1/moves/").status_code == 200
        assert reader.get(f"/api/v1/matches/{match_id}/events/").status_code == 200
    for action in ("roll", "moves", "resign", "join", "rematch"):
        assert_error(api.post(f"/api/v1/matches/{match_id}/{action}/", {}, format="json"),
                     401, "not_authenticated")
    assert_error(stranger.post(match_id, "moves", {"steps": [{"from": 24, "to": 21}]}),
                 403, "permission_denied")
    assert_error(stranger.post(match_id, "resign"), 403, "permission_denied")


def test_events_after_seq_are_in_order_and_gap_free(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    events = api.get(f"/api/v1/matches/{match_id}/events/").json()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["type"] for e in events] == [
        "match_created", "joined", "game_start", "roll_off", "roll_off"]
    later = api.get(f"/api/v1/matches/{match_id}/events/", {"after": 3}).json()
    assert [e["seq"] for e in later] == [4, 5]
    assert_error(api.get(f"/api/v1/matches/{match_id}/events/", {"after": -1}),
                 400, "validation_error")


def test_hotseat_one_account_plays_both_sides(alice, scripted_dice):
    created = alice.create(length=1, hotseat=True)
    assert created.status_code == 201
    match = created.json()
    assert match["status"] == "active" and match["white"] == match["black"] == "alice"
    scripted_dice(2, 5)  # white 2, black 5: black starts
    alice.ok(match["id"], "roll")
    state = alice.ok(match["id"], "roll")["state"]
    assert state["turn"] == "black" and state["board"]["perspective"] == "black"
    scripted_dice(4, 2)
    state = alice.ok(match["id"], "roll")["state"]
    assert state["legal_steps"]  # the one account acts for the side to move
    state = alice.ok(match["id"], "moves", {"steps": [{"from": 24, "to": 20},
                                                     {"from": 20, "to": 18}]})["state"]
    # The view turns to the player about to move (R33).
    assert state["turn"] == "white" and state["board"]["perspective"] == "white"
    assert state["board"]["points"] == {"24": 15, "12": -14, "6": -1}


def test_ids_beyond_the_database_range_are_404(alice, api):
    assert_error(api.get(f"/api/v1/matches/{10**30}/"), 404, "not_found")
    assert_error(alice.post(10**20, "roll"), 404, "not_found")
    match_id = alice.create(length=1, hotseat=True).json()["id"]
    assert_error(api.get(f"/api/v1/matches/{match_id}/games/{10**25}/moves/"), 404, "not_found")


def test_R4_a_backward_step_is_an_illegal_move(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 1)
    version = alice.ok(match_id, "roll")["version"]
    for step in ({"from": 18, "to": 24}, {"from": 24, "to": 24}, {"from": 24, "to": 18,
        "die": 5, "hit": False}):
        assert_error(alice.post(match_id, "moves", {"steps": [step]}), 400, "illegal_move",
                     reason="invalid_step")
    assert alice.get(match_id)["version"] == version
