"""API.md: perspectives (R33), versions, error shapes and codes."""

from __future__ import annotations

import pytest

from games.models import Event, Turn
from tests.conftest import assert_error
from tests.review.helpers import set_board, steps_of
from tests.support import start_match

pytestmark = pytest.mark.django_db

WHITE_VIEW_AFTER_24_17 = {"perspective": "white", "points": {"24": 14, "17": 1, "12": -15},
                          "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}
BLACK_VIEW_AFTER_24_17 = {"perspective": "black", "points": {"24": 15, "12": -14, "5": -1},
                          "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}


def _snapshot(match_id):
    return (Event.objects.filter(match_id=match_id).count(),
            list(Turn.objects.filter(game__match_id=match_id).values_list("steps", flat=True)))


# --- R33 perspectives ------------------------------------------------------------------


def test_R33_default_perspectives_players_spectators(alice, bob, seat, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 2)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}, {"from": 19, "to": 17}]})
    url = f"/api/v1/matches/{match_id}/"
    assert alice.get(match_id)["state"]["board"] == WHITE_VIEW_AFTER_24_17
    assert bob.get(match_id)["state"]["board"] == BLACK_VIEW_AFTER_24_17
    assert api.get(url).json()["state"]["board"] == WHITE_VIEW_AFTER_24_17
    carol = seat("carol")
    assert carol.get(match_id)["state"]["board"] == WHITE_VIEW_AFTER_24_17
    assert carol.get(match_id, perspective="black")["state"]["board"] == BLACK_VIEW_AFTER_24_17
    assert alice.get(match_id, perspective="black")["state"]["board"] == BLACK_VIEW_AFTER_24_17
    assert bob.get(match_id, perspective="white")["state"]["board"] == WHITE_VIEW_AFTER_24_17
    # The list shows each match in the asker's default perspective too.
    listed = bob.client.get("/api/v1/matches/", {"player": "bob"}).json()["results"]
    assert listed[0]["state"]["board"] == BLACK_VIEW_AFTER_24_17


def test_R33_legal_steps_stay_in_the_movers_numbering_whatever_the_perspective(
        alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(2, 1)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 22}, {"from": 22, "to": 21}]})
    scripted_dice(6, 5)
    response = bob.client.post(f"/api/v1/matches/{match_id}/roll/?perspective=white", {},
                               format="json")
    assert response.status_code == 200
    state = response.json()["state"]
    assert state["board"]["perspective"] == "white"
    assert state["board"]["points"] == {"24": 14, "21": 1, "12": -15}
    assert steps_of(state) == {(24, 18, 6), (24, 19, 5)}  # Black's own numbering
    response = bob.client.post(f"/api/v1/matches/{match_id}/moves/?perspective=white",
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
    response = alice.client.post(f"/api/v1/matches/{match_id}/roll/?perspective=red", {},
                                 format="json")
    assert_error(response, 400, "validation_error")
    after = alice.get(match_id)
    assert after["version"] == before["version"], "the roll was applied despite the 400"
    assert after["state"]["phase"] == "roll"


def test_bad_perspective_on_moves_changes_nothing(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 5)
    rolled = alice.ok(match_id, "roll")
    response = alice.client.post(f"/api/v1/matches/{match_id}/moves/?perspective=purple",
                                 {"steps": [{"from": 24, "to": 18}]}, format="json")
    assert_error(response, 400, "validation_error")
    after = alice.get(match_id)
    assert after["version"] == rolled["version"], "the step was applied despite the 400"
    assert after["state"]["dice_left"] == [6, 5]


# --- versions ----------------------------------------------------------------------------


def test_version_grows_by_exactly_one_per_change(alice, bob, scripted_dice, api):
    created = alice.create(length=3, opponent="bob", color="white").json()
    match_id, version = created["id"], created["version"]
    assert isinstance(version, int)
    seen = [version]

    def check(body):
        seen.append(body["version"])
        assert body["version"] == seen[-2] + 1, seen
        assert body["state"] is None or body["state"]["version"] == body["version"]
        assert api.get(f"/api/v1/matches/{match_id}/").json()["version"] == body["version"]

    check(bob.ok(match_id, "join"))
    scripted_dice(3, 3, 1, 6)  # a tie, then Black 1, White 6: White starts
    check(alice.ok(match_id, "roll"))
    check(bob.ok(match_id, "roll"))
    check(bob.ok(match_id, "roll"))
    check(alice.ok(match_id, "roll"))
    scripted_dice(5, 2)
    check(alice.ok(match_id, "roll"))
    check(alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19},
                                                 {"from": 19, "to": 17}]}))
    scripted_dice(6, 6)
    check(bob.ok(match_id, "roll"))
    check(bob.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}))
    check(bob.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}))  # and the pass
    check(alice.ok(match_id, "resign"))


@pytest.mark.parametrize("action, body", [
    ("roll", {}),
    ("moves", {"steps": [{"from": 24, "to": 18}]}),
    ("resign", {}),
])
def test_stale_expected_version_is_409_and_changes_nothing(alice, bob, scripted_dice, action,
                                                          body):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    if action == "moves":
        scripted_dice(6, 5)
        alice.ok(match_id, "roll")
    current = alice.get(match_id)
    snapshot = _snapshot(match_id)
    scripted_dice(6, 5)
    for stale in (current["version"] - 1, current["version"] + 1, 0):
        error = assert_error(alice.post(match_id, action, {**body, "expected_version": stale}),
                             409, "version_conflict")
        assert isinstance(error["details"], dict)
        assert alice.get(match_id) == current
        assert _snapshot(match_id) == snapshot
    ok = alice.post(match_id, action, {**body, "expected_version": current["version"]})
    assert ok.status_code == 200, ok.content
    assert ok.json()["version"] == current["version"] + 1


def test_stale_expected_version_on_join_is_409(alice, bob):
    created = alice.create(length=1, opponent="bob").json()
    error = assert_error(bob.post(created["id"], "join",
                                  {"expected_version": created["version"] + 5}),
                         409, "version_conflict")
    assert error["code"] == "version_conflict"
    assert alice.get(created["id"])["status"] == "invited"
    joined = bob.ok(created["id"], "join", {"expected_version": created["version"]})
    assert joined["status"] == "active"


# --- error shapes -----------------------------------------------------------------------


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
    assert_error(api.post(f"/api/v1/matches/{match_id}/moves/", {"steps": []}, format="json"),
                 401, "not_authenticated")
    assert_error(seat("dave").post(match_id, "roll"), 403, "permission_denied")
    assert_error(api.get(f"/api/v1/matches/{match_id}/games/9/moves/"), 404, "not_found")


def test_games_list_and_moves_record_shapes(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    scripted_dice(4, 2)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 20}, {"from": 20, "to": 18}]})
    games = api.get(f"/api/v1/matches/{match_id}/games/").json()
    assert len(games) == 1
    game = games[0]
    assert {"number", "starter", "winner", "points", "mars", "turns"} <= set(game)
    assert (game["number"], game["starter"], game["winner"], game["points"], game["mars"],
            game["turns"]) == (1, "white", None, None, False, 1)
    moves = api.get(f"/api/v1/matches/{match_id}/games/1/moves/").json()
    assert moves[0]["dice"] == [4, 2] and moves[0]["side"] == "white"
    assert moves[0]["steps"] == [{"from": 24, "to": 20, "die": 4, "hit": False},
                                 {"from": 20, "to": 18, "die": 2, "hit": False}]


def test_event_shapes_and_after_filter(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(4, 2)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 20}, {"from": 20, "to": 18}]})
    log = api.get(f"/api/v1/matches/{match_id}/events/").json()
    for event in log:
        assert set(event) == {"seq", "type", "at", "data"}
    assert [e["type"] for e in log] == ["match_created", "joined", "game_start", "roll_off",
                                        "roll_off", "roll", "step", "step"]
    assert log[5]["data"]["dice"] == [4, 2]
    assert {k: log[6]["data"][k] for k in ("from", "to", "die")} == {"from": 24, "to": 20,
                                                                     "die": 4}
    tail = api.get(f"/api/v1/matches/{match_id}/events/", {"after": log[-2]["seq"]}).json()
    assert tail == log[-1:]


def test_moves_phase_after_set_board_black_to_move(alice, bob, scripted_dice):
    """Sanity check of the board helper itself in Black's numbering."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    set_board(match_id, {24: 15, 12: -15}, perspective="black", turn="black")
    assert bob.get(match_id)["state"]["board"]["points"] == {"24": 15, "12": -15}


def test_bad_perspective_on_create_and_resign_changes_nothing(alice, bob, scripted_dice):
    from games.models import Match

    count = Match.objects.count()
    response = alice.client.post("/api/v1/matches/?perspective=red",
                                 {"length": 1, "opponent": "bob"}, format="json")
    assert_error(response, 400, "validation_error")
    assert Match.objects.count() == count, "the match was created despite the 400"
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    before = alice.get(match_id)
    response = alice.client.post(f"/api/v1/matches/{match_id}/resign/?perspective=red", {},
                                 format="json")
    assert_error(response, 400, "validation_error")
    assert alice.get(match_id)["score"] == before["score"], "resigned despite the 400"
