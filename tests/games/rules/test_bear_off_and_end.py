"""R25-R31 through the HTTP API: bearing off, the end of a game, scores and the match."""

from __future__ import annotations

import pytest

from games.models import Event
from tests.support import (
    assert_error,
    event_types,
    events,
    set_board,
    start_match,
    steps_of,
)

pytestmark = pytest.mark.django_db


def _ready(alice, bob, scripted_dice, length=1):
    return start_match(alice, bob, length=length, script=scripted_dice)["id"]


def test_R26_over_roll_bears_off_from_the_highest_point_and_die_may_be_omitted(
        alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    set_board(match_id, {5: 2, 3: 1, 12: -15}, off_mine=12)
    scripted_dice(6, 4)
    state = alice.ok(match_id, "roll")["state"]
    # 6: point 6 empty, nothing higher than 6 -> off from 5 (the highest).
    # 4: point 4 empty but 5 is higher -> only a move inside home, 5/1.
    assert steps_of(state) == {(5, 0, 6), (5, 1, 4)}
    moved = alice.ok(match_id, "moves", {"steps": [{"from": 5, "to": 0}]})
    assert moved["applied"] == [{"from": 5, "to": 0, "die": 6, "hit": False}]
    state = moved["state"]
    assert state["dice_left"] == [4] and state["board"]["off"] == {"mine": 13, "theirs": 0}
    assert steps_of(state) == {(5, 1, 4)}
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 3, "to": 0}]}),
                 400, "illegal_move", reason="bear_off_not_exact")


def test_R26_ambiguous_die_must_be_named(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    set_board(match_id, {5: 2, 3: 1, 12: -15}, off_mine=12)
    scripted_dice(6, 5)
    rolled = alice.ok(match_id, "roll")
    assert steps_of(rolled["state"]) == {(5, 0, 6), (5, 0, 5)}
    before = Event.objects.filter(match_id=match_id).count()
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 5, "to": 0}]}),
                 400, "illegal_move", reason="ambiguous_die")
    after = alice.get(match_id)
    assert after["version"] == rolled["version"] and after["state"] == rolled["state"]
    assert Event.objects.filter(match_id=match_id).count() == before
    moved = alice.ok(match_id, "moves", {"steps": [{"from": 5, "to": 0, "die": 5, "hit": False}]})
    assert moved["applied"] == [{"from": 5, "to": 0, "die": 5, "hit": False}]
    assert moved["state"]["dice_left"] == [6]
    # The 6 now bears off from 5 again (highest), and the die can be left out.
    done = alice.ok(match_id, "moves", {"steps": [{"from": 5, "to": 0}]})
    assert done["applied"] == [{"from": 5, "to": 0, "die": 6, "hit": False}]


def test_R26_exact_bear_off_or_move_inside_home(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    set_board(match_id, {6: 1, 4: 1, 2: 1, 12: -15}, off_mine=12)
    scripted_dice(4, 2)
    state = alice.ok(match_id, "roll")["state"]
    # 4: 4/off (exact) or 6/2, 4/... no (4-4=0 is off); 2: 2/off, 4/2, 6/4.
    assert steps_of(state) == {(6, 2, 4), (4, 0, 4), (6, 4, 2), (4, 2, 2), (2, 0, 2)}
    moved = alice.ok(match_id, "moves", {"steps": [{"from": 6, "to": 2}, {"from": 2, "to": 0}]})
    assert moved["state"]["turn"] == "black"
    assert alice.get(match_id)["state"]["board"]["points"] == {"12": -15, "4": 1, "2": 1}


def test_R25_last_checker_home_with_the_first_die_then_bear_off(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    set_board(match_id, {8: 1, 2: 2, 12: -15}, off_mine=12)
    scripted_dice(6, 2)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(8, 2, 6), (8, 6, 2)}
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 2, "to": 0}]}),
                 400, "illegal_move", reason="not_all_home")
    state = alice.ok(match_id, "moves", {"steps": [{"from": 8, "to": 2}]})["state"]
    assert steps_of(state) == {(2, 0, 2)}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 2, "to": 0}]})["state"]
    assert state["turn"] == "black"


def test_R27_opposing_checker_in_home_does_not_stop_bearing_off(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    # Black has one checker on White's 4 (Black's 16).
    set_board(match_id, {6: 2, 4: -1, 20: -14}, off_mine=13)
    scripted_dice(6, 2)
    state = alice.ok(match_id, "roll")["state"]
    # 6/off with the 6; 6/4 would land on Black (R6); the 2 cannot bear off (6 is higher).
    assert steps_of(state) == {(6, 0, 6)}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 6, "to": 0}]})["state"]
    assert state["turn"] == "black"
    assert events(match_id, "pass")[-1] == {"game": 1, "turn": 1, "side": "white",
                                            "reason": "no legal move", "dice_left": [2]}


def test_R28_R29_game_ends_at_once_with_a_mars_and_dice_left(alice, bob, scripted_dice, api):
    match_id = _ready(alice, bob, scripted_dice, length=3)
    set_board(match_id, {2: 1, 1: 1, 12: -15}, off_mine=13)
    scripted_dice(6, 5)
    rolled = alice.ok(match_id, "roll")
    assert steps_of(rolled["state"]) == {(2, 0, 6), (2, 0, 5)}
    version = rolled["version"]
    done = alice.ok(match_id, "moves", {"steps": [{"from": 2, "to": 0, "die": 5, "hit": False},
                                                  {"from": 1, "to": 0, "die": 6, "hit": False}]})
    assert done["version"] == version + 1
    assert done["score"] == {"white": 2, "black": 0} and done["status"] == "active"
    state = done["state"]
    assert state["game"] == 2 and state["phase"] == "roll" and state["turn"] == "black"
    assert state["dice"] is None and state["dice_left"] == [] and state["legal_steps"] == []
    assert state["head_may_leave"] == 0
    assert state["board"] == {"perspective": "white", "points": {"24": 15, "12": -15},
                              "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}
    types = event_types(match_id)
    assert types[-5:] == ["roll", "step", "step", "game_over", "game_start"]
    assert events(match_id, "game_over")[-1] == {
        "game": 1, "winner": "white", "points": 2, "mars": True, "result": "mars",
            "reason": "borne_off", "stake": 1,
        "score": {"white": 2, "black": 0}}
    games = api.get(f"/api/v1/matches/{match_id}/games/").json()
    assert [(g["number"], g["starter"], g["winner"], g["points"], g["mars"]) for g in games] == [
        (1, "white", "white", 2, True), (2, "black", None, None, False)]
    moves = api.get(f"/api/v1/matches/{match_id}/games/1/moves/").json()
    assert moves[-1]["passed"] is False and moves[-1]["pass_reason"] is None
    assert moves[-1]["steps"] == [{"from": 2, "to": 0, "die": 5, "hit": False}, {"from": 1,
        "to": 0, "die": 6, "hit": False}]


def test_R28_a_step_after_the_fifteenth_checker_is_refused_and_changes_nothing(
        alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice, length=3)
    set_board(match_id, {1: 1, 12: -15}, off_mine=14)
    scripted_dice(2, 2)
    rolled = alice.ok(match_id, "roll")
    response = alice.post(match_id, "moves", {"steps": [{"from": 1, "to": 0},
                                                         {"from": 1, "to": 0}]})
    assert_error(response, 400, "illegal_move")
    assert alice.get(match_id)["version"] == rolled["version"]
    done = alice.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0}]})
    assert done["state"]["game"] == 2


@pytest.mark.parametrize("loser_off, points, mars", [(0, 2, True), (3, 1, False)])
def test_R29_black_wins_with_or_without_mars(alice, bob, scripted_dice, api, loser_off, points,
                                            mars):
    match_id = _ready(alice, bob, scripted_dice, length=5)
    set_board(match_id, {1: 1, 24: -(15 - loser_off)}, perspective="black", off_mine=14,
              off_theirs=loser_off, turn="black")
    scripted_dice(4, 2)
    rolled = bob.ok(match_id, "roll")
    # Either die alone bears the last checker off, never both: the larger (R21, R28).
    assert steps_of(rolled["state"]) == {(1, 0, 4)}
    done = bob.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0}]})
    assert done["applied"] == [{"from": 1, "to": 0, "die": 4, "hit": False}]
    assert done["score"] == {"white": 0, "black": points}
    assert done["state"]["game"] == 2 and done["state"]["turn"] == "white"
    game = api.get(f"/api/v1/matches/{match_id}/games/").json()[0]
    assert (game["winner"], game["points"], game["mars"]) == ("black", points, mars)
    over = events(match_id, "game_over")[-1]
    assert (over["winner"], over["points"], over["mars"]) == ("black", points, mars)


def test_R31_match_ends_when_a_score_passes_the_length(alice, bob, scripted_dice, api,
                                                       settings):
    settings.RATED_MIN_TURNS = 0  # rated however short (the minimum: tests/ratings)
    match_id = _ready(alice, bob, scripted_dice, length=3)
    # Game 1: Black wins 1 (White has borne off 2).
    set_board(match_id, {1: 1, 24: -13}, perspective="black", off_mine=14, off_theirs=2,
              turn="black")
    scripted_dice(2, 1)
    bob.ok(match_id, "roll")
    done = bob.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0, "die": 2, "hit": False}]})
    assert done["score"] == {"white": 0, "black": 1} and done["state"]["turn"] == "white"
    # Game 2: White wins with a mars: 2-1, not over (3 needed).
    set_board(match_id, {1: 1, 12: -15}, off_mine=14, turn="white")
    scripted_dice(3, 1)
    alice.ok(match_id, "roll")
    done = alice.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0, "die": 3, "hit": False}]})
    assert done["score"] == {"white": 2, "black": 1} and done["status"] == "active"
    assert done["state"]["game"] == 3 and done["state"]["turn"] == "black"
    # Game 3: White wins with a mars again: 4-1 passes 3 -> the match is over.
    set_board(match_id, {2: 1, 12: -15}, off_mine=14, turn="white")
    scripted_dice(5, 5)
    alice.ok(match_id, "roll")
    done = alice.ok(match_id, "moves", {"steps": [{"from": 2, "to": 0}]})
    assert done["status"] == "finished" and done["winner"] == "white"
    assert done["score"] == {"white": 4, "black": 1} and done["finished_at"]
    state = done["state"]
    assert state["phase"] == "finished" and state["turn"] is None and state["legal_steps"] == []
    assert state["game"] == 3
    assert event_types(match_id)[-2:] == ["game_over", "match_over"]
    over = events(match_id, "match_over")
    assert "ratings" in over[0] and over[0].pop("ratings")  # rated by default
    assert over == [{"winner": "white",
                                               "score": {"white": 4, "black": 1}}]
    assert_error(alice.post(match_id, "roll"), 409, "wrong_phase")
    assert_error(bob.post(match_id, "roll"), 409, "wrong_phase")
    assert_error(bob.post(match_id, "resign"), 409, "wrong_phase")
    games = api.get(f"/api/v1/matches/{match_id}/games/").json()
    assert [(g["starter"], g["winner"], g["points"], g["mars"]) for g in games] == [
        ("white", "black", 1, False), ("white", "white", 2, True), ("black", "white", 2, True)]


def test_R31_length_one_match_is_won_by_a_mars_of_two(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice, length=1)
    set_board(match_id, {1: 1, 12: -15}, off_mine=14)
    scripted_dice(1, 1)
    alice.ok(match_id, "roll")
    done = alice.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0}]})
    assert done["status"] == "finished" and done["score"] == {"white": 2, "black": 0}
    assert done["state"]["phase"] == "finished"
