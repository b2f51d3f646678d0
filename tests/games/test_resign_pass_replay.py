"""Resignation (R30), automatic passes (R23), the replay check and the query budget."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, Game, Turn
from tests.support import assert_error, set_board, start_match

pytestmark = pytest.mark.django_db


def test_R30_resigning_with_nothing_borne_off_concedes_a_mars(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    match = bob.ok(match_id, "resign")  # Black resigns, though it is White's turn
    assert match["score"] == {"white": 2, "black": 0}
    assert match["state"]["game"] == 2 and match["state"]["turn"] == "black"  # R8
    game = Game.objects.get(match_id=match_id, number=1)
    assert (game.winner, game.points_won, game.mars, game.end_reason) == (
        "white", 2, True, "resigned")
    types = [e.type for e in Event.objects.filter(match_id=match_id).order_by("seq")]
    assert types[-3:] == ["resign", "game_over", "game_start"]
    call_command("verify_games")


def test_resigning_the_whole_match_ends_it_with_the_games_points(alice, bob, scripted_dice):
    """``match: true``: the game is conceded as usual (a mars here) and the match ends
    with it, short of its length; the events say it was the match."""
    match_id = start_match(alice, bob, length=5, script=scripted_dice)["id"]
    match = bob.ok(match_id, "resign", {"match": True})
    assert (match["status"], match["winner"], match["score"]) == (
        "finished", "white", {"white": 2, "black": 0})
    resign = Event.objects.get(match_id=match_id, type="resign")
    over = Event.objects.get(match_id=match_id, type="match_over")
    assert resign.data["match"] is True and over.data["reason"] == "resigned"
    assert_error(bob.post(match_id, "resign", {"match": True}), 409, "wrong_phase")


def test_R30_resigning_after_bearing_off_concedes_one_point(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    # Black (White's numbering 13..18 is Black's home 1..6) has borne off three.
    set_board(match_id, {6: 10, 5: 5, 13: -6, 14: -6}, off_theirs=3)
    match = bob.ok(match_id, "resign")
    assert match["status"] == "finished" and match["winner"] == "white"
    assert match["score"] == {"white": 1, "black": 0}
    assert match["state"]["phase"] == "finished"
    game = Game.objects.get(match_id=match_id)
    assert (game.points_won, game.mars) == (1, False)
    assert_error(bob.post(match_id, "resign"), 409, "wrong_phase")


def test_R23_a_roll_with_no_legal_move_passes_at_once(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    # All of White on its 8; Black holds 7..2, so a six (8 -> 2) lands on Black (R6).
    set_board(match_id, {8: 15, 7: -3, 6: -3, 5: -3, 4: -3, 3: -2, 2: -1})
    scripted_dice(6, 6)
    rolled = alice.ok(match_id, "roll")
    assert rolled["roll"]["passed"] is True and rolled["dice"] == [6, 6]
    assert rolled["state"]["turn"] == "black" and rolled["state"]["phase"] == "roll"
    assert rolled["state"]["dice"] is None and rolled["state"]["legal_steps"] == []
    passes = Event.objects.filter(match_id=match_id, type="pass")
    assert [e.data["reason"] for e in passes] == ["no legal move"]
    assert passes[0].data["dice_left"] == [6, 6, 6, 6]
    turn = Turn.objects.get()
    assert turn.pass_reason == "no legal move" and turn.steps == [] and turn.finished_at


def test_verify_games_reports_a_corrupted_record(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 19}, {"from": 19, "to": 16}]})
    call_command("verify_games")
    turn = Turn.objects.get()
    turn.steps = [{"from": 24, "to": 19, "die": 5, "hit": False}, {"from": 24, "to": 21,
        "die": 3, "hit": False}]
    turn.save()
    from io import StringIO

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=out)
    assert f"match {match_id} game 1: turn 1, step 2" in out.getvalue()


def _real(context: CaptureQueriesContext) -> list[str]:
    """The request's own queries (the test's transaction adds savepoints around them)."""
    return [q["sql"] for q in context.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_roll_and_move_use_a_constant_number_of_queries(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    counts = set()
    for turn in range(16):
        seat = alice if turn % 2 == 0 else bob
        scripted_dice(2, 1)
        with CaptureQueriesContext(connection) as roll:
            state = seat.ok(match_id, "roll")["state"]
        with CaptureQueriesContext(connection) as first:
            state = seat.ok(match_id, "moves", {"steps": [state["legal_steps"][0]]})["state"]
        with CaptureQueriesContext(connection) as last:
            state = seat.ok(match_id, "moves", {"steps": [state["legal_steps"][0]]})["state"]
        assert state["turn"] != ("white" if seat is alice else "black")
        counts.add((len(_real(roll)), len(_real(first)), len(_real(last))))
    assert len(counts) == 1, counts  # the same whatever the length of the game
    # PostgreSQL: token, lock, read, one statement for all the writes (+ the new turn
    # record on a roll); elsewhere the writes are separate statements.
    assert max(next(iter(counts))) <= (5 if connection.vendor == "postgresql" else 8), counts
    print("queries (roll, first step, last step):", counts)
