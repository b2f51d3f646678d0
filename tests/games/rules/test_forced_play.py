"""R19-R24 through the HTTP API: what is offered after each step, and passes."""

from __future__ import annotations

import pytest

from tests.support import assert_error, events, set_board, start_match, steps_of

pytestmark = pytest.mark.django_db


def _ready(alice, bob, scripted_dice):
    return start_match(alice, bob, script=scripted_dice)["id"]


def test_R11_R24_after_leaving_the_head_only_that_checker_moves_on(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    scripted_dice(6, 5)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(24, 18, 6), (24, 19, 5)}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}]})["state"]
    assert state["dice_left"] == [6] and steps_of(state) == {(19, 13, 6)}
    error = assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}),
                         400, "illegal_move", reason="head_rule")
    assert {(s["from"], s["to"], s["die"]) for s in error["details"]["legal_steps"]} == {
        (19, 13, 6)}


def test_R19_R24_a_die_that_blocks_the_other_is_not_offered(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    # White on 13 and 9 (13 more on 1, which cannot bear off yet); Black on 8 and 6.
    # 13/7 is a legal six alone, but then no 1 plays (7/6, 9/8 blocked) while
    # 13/12 + 9/3 plays both: R19 rules 13/7 out.
    set_board(match_id, {13: 1, 9: 1, 1: 13, 8: -14, 6: -1})
    scripted_dice(6, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(13, 12, 1), (9, 3, 6)}
    error = assert_error(alice.post(match_id, "moves", {"steps": [{"from": 13, "to": 7}]}),
                         400, "illegal_move", reason="must_play_both")
    assert error["details"]["index"] == 0
    assert error["details"]["step"] == {"from": 13, "to": 7, "die": None}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 9, "to": 3}]})["state"]
    assert steps_of(state) == {(13, 12, 1), (3, 2, 1)}


def test_R21_only_the_smaller_die_plays_then_the_rest_passes(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    # One free White checker on 13; Black holds 7 and 6: the six cannot be played at all.
    set_board(match_id, {13: 1, 1: 14, 7: -1, 6: -14})
    scripted_dice(6, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(13, 12, 1)}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 13, "to": 12}]})["state"]
    assert state["turn"] == "black"
    passed = events(match_id, "pass")
    assert passed[-1]["reason"] == "no legal move" and passed[-1]["dice_left"] == [6]


def test_R20_R23_double_plays_as_many_as_possible_then_passes(alice, bob, scripted_dice, api):
    match_id = _ready(alice, bob, scripted_dice)
    set_board(match_id, {13: 1, 1: 14, 5: -15})  # 13/11/9/7 then 7/5 is blocked
    scripted_dice(2, 2)
    state = alice.ok(match_id, "roll")["state"]
    assert steps_of(state) == {(13, 11, 2)}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 13, "to": 11},
                                                   {"from": 11, "to": 9}]})["state"]
    assert state["dice_left"] == [2, 2] and steps_of(state) == {(9, 7, 2)}
    state = alice.ok(match_id, "moves", {"steps": [{"from": 9, "to": 7}]})["state"]
    assert state["turn"] == "black" and state["phase"] == "roll"
    assert events(match_id, "pass")[-1] == {"game": 1, "turn": 1, "side": "white",
                                            "reason": "no legal move", "dice_left": [2]}
    record = api.get(f"/api/v1/matches/{match_id}/games/1/moves/").json()[-1]
    assert record["passed"] is True and record["pass_reason"] == "no legal move"
    assert [s["to"] for s in record["steps"]] == [11, 9, 7]


def test_R23_roll_with_no_legal_move_for_black(alice, bob, scripted_dice, api):
    match_id = _ready(alice, bob, scripted_dice)
    # Black (its own numbering) on its 8; White holds Black's 7..2.
    set_board(match_id, {8: 15, 7: -3, 6: -3, 5: -3, 4: -3, 3: -2, 2: -1}, perspective="black",
              turn="black")
    scripted_dice(6, 6)
    rolled = bob.ok(match_id, "roll")
    assert rolled["roll"] == {"kind": "turn", "side": "black", "dice": [6, 6], "passed": True}
    assert rolled["state"]["turn"] == "white" and rolled["state"]["phase"] == "roll"
    assert events(match_id, "pass")[-1] == {"game": 1, "turn": 1, "side": "black",
                                            "reason": "no legal move", "dice_left": [6, 6, 6, 6]}
    log = api.get(f"/api/v1/matches/{match_id}/events/").json()
    assert [e["type"] for e in log[-2:]] == ["roll", "pass"]
    assert log[-1]["data"]["reason"] == "no legal move"


def test_R6_R10_blocked_intermediate_stop_and_error_details(alice, bob, scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    scripted_dice(6, 6)
    rolled = alice.ok(match_id, "roll")
    response = alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 18},
                                                        {"from": 18, "to": 12}]})
    error = assert_error(response, 400, "illegal_move")
    assert error["details"]["reason"] == "point_blocked" and error["details"]["index"] == 1
    assert alice.get(match_id)["version"] == rolled["version"]


def test_R16_R24_prime_at_a_stop_is_not_offered_until_the_window_breaks(alice, bob,
                                                                       scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    # White 6..2 (five in a row) and a checker on 10; Black all on White's 9 (opp 21),
    # nothing ahead of the window 2..7 (opp 14..19). 10/7 would build the prime.
    set_board(match_id, {10: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -15})
    scripted_dice(3, 1)
    state = alice.ok(match_id, "roll")["state"]
    offered = steps_of(state)
    assert (10, 7, 3) not in offered
    assert {(6, 3, 3), (6, 5, 1)} <= offered
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 10, "to": 7}]}),
                 400, "illegal_move", reason="prime_rule")
    state = alice.ok(match_id, "moves", {"steps": [{"from": 6, "to": 5}]})["state"]
    assert (10, 7, 3) in steps_of(state)  # 6 is empty now: no prime


def test_R17_a_prime_broken_by_one_die_and_refilled_by_the_next_is_judged(alice, bob,
                                                                         scripted_dice):
    match_id = _ready(alice, bob, scripted_dice)
    # White prime 24..19 (one on 19); Black on White's 5 and 10: nothing ahead of it.
    set_board(match_id, {24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 1, 1: 4, 5: -1, 10: -14})
    scripted_dice(2, 1)
    state = alice.ok(match_id, "roll")["state"]
    assert (19, 17, 2) in steps_of(state) and (20, 19, 1) in steps_of(state)
    # 20/19 first keeps the prime standing (not new): then 19/17 is fine.
    # 19/17 first breaks it; refilling 19 with 20/19 builds it anew -> refused (R17).
    state = alice.ok(match_id, "moves", {"steps": [{"from": 19, "to": 17}]})["state"]
    assert (20, 19, 1) not in steps_of(state)
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 20, "to": 19}]}),
                 400, "illegal_move", reason="prime_rule")
