"""R8, R11, R12, R13 through the HTTP API: head allowance, counters, later games."""

from __future__ import annotations

import pytest

from tests.support import assert_error, events, set_board, start_match, steps_of

pytestmark = pytest.mark.django_db



def test_R12_R13_white_first_turn_four_four_counter_2_1_0(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(4, 4)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2
    assert steps_of(state) == {(24, 20, 4)}
    state = alice.move(match_id, (24, 20))["state"]
    assert state["head_may_leave"] == 1
    assert steps_of(state) == {(24, 20, 4), (20, 16, 4)}
    state = alice.move(match_id, (24, 20))["state"]
    assert state["head_may_leave"] == 0
    assert steps_of(state) == {(20, 16, 4)}
    state = alice.move(match_id, (20, 16))["state"]
    assert state["head_may_leave"] == 0 and state["dice_left"] == [4]
    state = alice.move(match_id, (20, 16))["state"]
    assert state["turn"] == "black" and state["phase"] == "roll"
    assert state["head_may_leave"] == 0
    assert alice.get(match_id)["state"]["board"]["points"] == {"24": 13, "16": 2, "12": -15}


def test_R11_R12_R13_first_turn_three_three_leaver_keeps_moving(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(3, 3)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2 and steps_of(state) == {(24, 21, 3)}
    state = alice.move(match_id, (24, 21))["state"]
    assert state["head_may_leave"] == 1 and steps_of(state) == {(24, 21, 3), (21, 18, 3)}
    state = alice.move(match_id, (21, 18))["state"]
    # Still one more may leave (R11: the moving checker is still the first leaver).
    assert state["head_may_leave"] == 1 and steps_of(state) == {(24, 21, 3), (18, 15, 3)}
    state = alice.move(match_id, (18, 15))["state"]
    # Only the second leaver can use the last die (15/12 lands on Black's head).
    assert state["head_may_leave"] == 1 and steps_of(state) == {(24, 21, 3)}
    state = alice.move(match_id, (24, 21))["state"]
    assert state["turn"] == "black"
    assert state["board"]["points"] == {"24": 13, "21": 1, "15": 1, "12": -15}


def test_R12_first_turn_five_five_lets_only_one_leave(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 5)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 1 and steps_of(state) == {(24, 19, 5)}
    state = alice.move(match_id, (24, 19))["state"]
    assert state["head_may_leave"] == 0 and steps_of(state) == {(19, 14, 5)}


def test_R12_black_first_turn_when_white_started_and_not_on_later_turns(alice, bob,
                                                                       scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(2, 1)
    alice.ok(match_id, "roll")
    alice.move(match_id, (24, 22), (22, 21))
    scripted_dice(4, 4)
    rolled = bob.ok(match_id, "roll")
    state = rolled["state"]
    assert state["turn"] == "black" and state["head_may_leave"] == 2
    assert state["board"]["perspective"] == "black"
    assert steps_of(state) == {(24, 20, 4)}
    state = bob.move(match_id, (24, 20), (24, 20))["state"]
    assert state["head_may_leave"] == 0 and steps_of(state) == {(20, 16, 4)}
    state = bob.move(match_id, (20, 16), (20, 16))["state"]
    assert state["turn"] == "white"
    # White's second turn: 4-4 no longer lets two leave (R12 "only then").
    scripted_dice(4, 4)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 1
    assert (24, 20, 4) in steps_of(state)
    state = alice.move(match_id, (24, 20))["state"]
    assert state["head_may_leave"] == 0
    assert all(s[0] != 24 for s in steps_of(state))
    # Black's second turn: 6-6 lets only one leave.
    state = alice.move(match_id, *[(s["from"], s["to"]) for s in state["legal_steps"][:1]])
    while state["state"]["phase"] == "move":
        state = alice.move(match_id, *[(s["from"], s["to"])
                                         for s in state["state"]["legal_steps"][:1]])
    scripted_dice(6, 6)
    state = bob.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 1


def test_R13_counter_is_zero_when_no_legal_die_can_leave_the_head(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    # White 24 (head) x14 and one on 10; Black sits on White's 18 and 19, so 6-5 cannot
    # leave the head; 10/4 and 10/5 each play one die only, so the larger (R21) is played.
    set_board(match_id, {24: 14, 10: 1, 19: -1, 18: -1, 12: -13})
    scripted_dice(6, 5)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 0
    assert steps_of(state) == {(10, 4, 6)}
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 10, "to": 5}]}),
                 400, "illegal_move", reason="must_play_larger")
    state = alice.move(match_id, (10, 4))["state"]
    assert state["turn"] == "black"  # the 5 cannot be played: the turn passed (R23)
    assert events(match_id, "pass")[-1]["reason"] == "no legal move"
    assert events(match_id, "pass")[-1]["dice_left"] == [5]


def _finish_game_one(alice, bob, match_id, scripted_dice, winner: str, loser_off: int = 0):
    """The side ``winner`` bears off its last checker at once with a 6-5."""
    if winner == "white":
        set_board(match_id, {1: 1, 12: -(15 - loser_off)}, off_mine=14, off_theirs=loser_off,
                  turn="white")
        seat = alice
    else:
        set_board(match_id, {1: 1, 12: -(15 - loser_off)}, perspective="black", off_mine=14,
                  off_theirs=loser_off, turn="black")
        seat = bob
    scripted_dice(6, 5)
    seat.ok(match_id, "roll")
    return seat.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0}]})


def test_R8_R12_loser_starts_game_two_and_both_first_turns_are_fresh(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=5, script=scripted_dice)["id"]
    done = _finish_game_one(alice, bob, match_id, scripted_dice, "white")
    state = done["state"]
    assert state["game"] == 2 and state["turn"] == "black" and state["phase"] == "roll"
    assert state["first_turn"] == {"white": True, "black": True}
    assert events(match_id, "game_start")[-1] == {"game": 2, "starter": "black",
                                                 "roll_off": False}
    # Black (the loser) starts; a 6-6 on its first turn lets two leave (R12).
    scripted_dice(6, 6)
    state = bob.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2 and steps_of(state) == {(24, 18, 6)}
    state = bob.move(match_id, (24, 18))["state"]
    assert state["head_may_leave"] == 1 and steps_of(state) == {(24, 18, 6)}
    state = bob.move(match_id, (24, 18))["state"]
    assert state["turn"] == "white"  # the other two sixes cannot play (R23)
    # White's first turn of game 2 also gets two leavers with 6-6.
    scripted_dice(6, 6)
    state = alice.ok(match_id, "roll")["state"]
    assert state["turn"] == "white" and state["head_may_leave"] == 2
    assert steps_of(state) == {(24, 18, 6)}
    state = alice.move(match_id, (24, 18), (24, 18))["state"]
    assert state["turn"] == "black"
    # Black's second turn of game 2: 3-3 lets only one leave.
    scripted_dice(3, 3)
    state = bob.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 1


def test_R8_white_loses_by_resigning_and_starts_game_two_with_first_turn_rights(
        alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=5, script=scripted_dice)["id"]
    resigned = alice.ok(match_id, "resign")
    assert resigned["score"] == {"white": 0, "black": 2}
    state = resigned["state"]
    assert state["game"] == 2 and state["turn"] == "white" and state["phase"] == "roll"
    scripted_dice(3, 3)
    state = alice.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2
    state = alice.move(match_id, (24, 21), (24, 21), (21, 18), (21, 18))["state"]
    assert state["turn"] == "black"
    scripted_dice(6, 6)
    state = bob.ok(match_id, "roll")["state"]
    assert state["head_may_leave"] == 2
