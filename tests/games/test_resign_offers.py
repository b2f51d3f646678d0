"""Offers to resign with a result (R30/H16 with a choice): the side at its turn offers a
single, a gammon (a mars) or a backgammon (a koks) — no more than a resignation concedes
now — and the opponent accepts (the game ends with it) or refuses (play goes on)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games import selectors
from games.importing import match_import
from games.models import Event, Game, Match
from games.replay import GameReplay, replay_problems
from nardy import WHITE, Outcome, resign_offers
from nardy.descriptor import BACKGAMMON, LONG_NARDY, SHORT_NARDY
from tests.support import Seat, assert_error, set_board, start_match

pytestmark = pytest.mark.django_db


# --- the rules ------------------------------------------------------------------------------


def names(offers: tuple[Outcome, ...]) -> list[tuple[str, int]]:
    return [(o.result, o.points) for o in offers]


def test_R30_H16_an_offer_is_less_than_what_resigning_concedes_and_at_least_a_single(
        ) -> None:
    assert names(resign_offers(BACKGAMMON.results, Outcome(WHITE, 3, "backgammon"))) == [
        ("single", 1), ("gammon", 2)]
    assert names(resign_offers(BACKGAMMON.results, Outcome(WHITE, 2, "gammon"))) == [
        ("single", 1)]
    # Resigning concedes a single: there is nothing cheaper to offer.
    assert names(resign_offers(BACKGAMMON.results, Outcome(WHITE, 1, "single"))) == []
    # R29/R30: Long Nardy's results are the single (oyn) and the mars.
    assert names(resign_offers(LONG_NARDY.results, Outcome(WHITE, 2, "mars"))) == [
        ("single", 1)]
    assert names(resign_offers(SHORT_NARDY.results, Outcome(WHITE, 3, "koks"))) == [
        ("single", 1), ("mars", 2)]
    assert {o.winner for o in resign_offers(BACKGAMMON.results,
                                            Outcome(WHITE, 3, "backgammon"))} == {WHITE}


# --- over HTTP ------------------------------------------------------------------------------


def backgammon_match(white: Seat, black: Seat, script: Any, **extra: Any) -> dict[str, Any]:
    """A 3-point backgammon match in which White won the roll-off 6-1 and is to play it
    (H4): its turn 1 is rolled, no step played."""
    created = white.create(length=3, opponent=black.user.username, color="white",
                           rules="backgammon", **extra)
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    black.ok(match_id, "join")
    script(6, 1)
    white.ok(match_id, "roll")
    match = black.ok(match_id, "roll")
    assert (match["state"]["phase"], match["state"]["turn"]) == ("move", "white")
    return match


def test_the_state_lists_the_results_the_side_at_its_turn_may_offer(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = backgammon_match(alice, bob, scripted_dice)["id"]
    # H15/H16: nobody is off and each has checkers in the other's home: a backgammon.
    assert alice.get(match_id)["state"]["resign"] == {
        "side": "white", "points": 3, "result": "backgammon",
        "offers": [{"result": "single", "points": 1}, {"result": "gammon", "points": 2}]}
    # Not Black's turn: it may resign, not offer.
    assert bob.get(match_id)["state"]["resign"] == {
        "side": "black", "points": 3, "result": "backgammon", "offers": []}


def test_an_offer_refused_then_a_dearer_one_accepted_ends_the_game_with_it(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = backgammon_match(alice, bob, scripted_dice)["id"]
    offered = alice.ok(match_id, "resign", {"offer": "single"})["state"]
    assert (offered["phase"], offered["turn"], offered["dice"]) == ("resign", "black", [6, 1])
    assert offered["resign_offer"] == {"by": "white", "result": "single", "points": 1}
    assert offered["resign"]["offers"] == []  # one offer at a time
    # While it waits nothing else happens; the stakes' accept is not this answer.
    assert_error(alice.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}), 409,
                 "not_your_turn")
    assert_error(bob.post(match_id, "roll"), 409, "wrong_phase")
    assert_error(bob.post(match_id, "accept"), 409, "wrong_phase")
    assert_error(alice.post(match_id, "resign", {"offer": "gammon"}), 409, "wrong_phase",
                 reason="offer_waiting")
    assert_error(alice.post(match_id, "resign/accept"), 409, "not_your_turn")

    refused = bob.ok(match_id, "resign/refuse")["state"]
    # Play goes on exactly where it was: White to play its 6-1.
    assert (refused["phase"], refused["turn"], refused["dice"]) == ("move", "white", [6, 1])
    assert refused["resign_offer"] is None
    assert alice.get(match_id)["state"]["legal_steps"]
    # The same or a cheaper result is not offered again until Black has played a turn.
    assert alice.get(match_id)["state"]["resign"]["offers"] == [
        {"result": "gammon", "points": 2}]
    assert_error(alice.post(match_id, "resign", {"offer": "single"}), 409,
                 "resign_offer_repeated", refused="single")

    alice.ok(match_id, "resign", {"offer": "gammon"})
    finished = bob.ok(match_id, "resign/accept")
    assert finished["score"] == {"white": 0, "black": 2}
    assert finished["state"]["game"] == 2
    game = Game.objects.get(match_id=match_id, number=1)
    assert (game.winner, game.points_won, game.mars, game.result, game.end_reason) == (
        "black", 2, True, "gammon", "resigned")
    types = [e.type for e in Event.objects.filter(match_id=match_id).order_by("seq")]
    first = types.index("resign_offer")
    assert types[first:first + 6] == ["resign_offer", "resign_answer", "resign_offer",
                                      "resign_answer", "game_over", "game_start"]
    answer = Event.objects.filter(match_id=match_id, type="resign_answer").order_by("seq")
    assert [(e.data["answer"], e.data["result"]) for e in answer] == [
        ("refuse", "single"), ("accept", "gammon")]
    over = Event.objects.get(match_id=match_id, type="game_over", data__game=1)
    assert (over.data["result"], over.data["reason"], over.data["points"]) == (
        "gammon", "resigned", 2)
    listed = alice.client.get(f"/api/v1/matches/{match_id}/games/").json()[0]
    assert (listed["result"], listed["end_reason"]) == ("gammon", "resigned")
    assert [(o["during"], o["result"], o["answer"]) for o in listed["resign_offers"]] == [
        ("move", "single", "refuse"), ("move", "gammon", "accept")]
    # The replay plays the offers and answers again and agrees.
    assert replay_problems(game) == []
    call_command("verify_games")


def test_an_offer_before_the_roll_is_accepted_and_replays(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    # R30: nobody is off, a resignation concedes a mars; White offers a single instead.
    assert alice.get(match_id)["state"]["resign"]["offers"] == [
        {"result": "single", "points": 1}]
    # As much as resigning concedes is no offer: resign instead.
    assert_error(alice.post(match_id, "resign", {"offer": "mars"}), 409,
                 "resign_offer_too_high", conceded="mars", most="single")
    alice.ok(match_id, "resign", {"offer": "single"})
    assert bob.ok(match_id, "resign/accept")["score"] == {"white": 0, "black": 1}
    game = Game.objects.get(match_id=match_id, number=1)
    assert (game.result, game.points_won, game.mars, game.conceded()) == (
        "single", 1, False, "single")
    assert replay_problems(game) == []


def test_the_offer_s_bounds_and_when_it_may_be_made(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    # Long Nardy has no gammon: a result of another rule set is bad input.
    assert_error(alice.post(match_id, "resign", {"offer": "gammon"}), 400, "validation_error")
    assert_error(alice.post(match_id, "resign", {"offer": "single", "match": True}), 400,
                 "validation_error")
    # Not at one's turn.
    assert_error(bob.post(match_id, "resign", {"offer": "single"}), 409, "not_your_turn")
    # R30: White has borne off one, so resigning concedes a single: nothing is cheaper.
    set_board(match_id, {6: 10, 5: 4, 13: -15}, off_mine=1)
    assert alice.get(match_id)["state"]["resign"]["offers"] == []
    assert_error(alice.post(match_id, "resign", {"offer": "mars"}), 409,
                 "resign_offer_too_high", conceded="single", most=None)
    assert_error(alice.post(match_id, "resign", {"offer": "single"}), 409,
                 "resign_offer_too_high")
    set_board(match_id, {6: 10, 5: 5, 13: -15})
    # After the roll, before a step: allowed; in the middle of moving: not.
    scripted_dice(2, 1)
    alice.ok(match_id, "roll")
    alice.move(match_id, (6, 4))
    assert alice.get(match_id)["state"]["resign"]["offers"] == []
    assert_error(alice.post(match_id, "resign", {"offer": "single"}), 409, "wrong_phase",
                 reason="moving")
    assert_error(bob.post(match_id, "resign/accept"), 409, "not_your_turn")
    assert_error(alice.post(match_id, "resign/refuse"), 409, "wrong_phase")


def test_with_dave_stakes_nothing_is_cheaper_than_resigning(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = backgammon_match(alice, bob, scripted_dice, stakes="dave")["id"]
    assert alice.get(match_id)["state"]["resign"] == {
        "side": "white", "points": 1, "result": "single", "offers": []}
    assert_error(alice.post(match_id, "resign", {"offer": "single"}), 409,
                 "resign_offer_too_high", conceded="single")


def test_the_offerer_may_still_resign_outright_while_its_offer_waits(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match_id = backgammon_match(alice, bob, scripted_dice)["id"]
    alice.ok(match_id, "resign", {"offer": "single"})
    assert alice.ok(match_id, "resign")["score"] == {"white": 0, "black": 3}
    game = Game.objects.get(match_id=match_id, number=1)
    assert game.result == "resigned" and game.resign_offers[0]["answer"] is None
    assert replay_problems(game) == []


def test_a_match_ended_by_an_accepted_offer_exports_and_imports_back(
        alice: Seat, bob: Seat, make_user: Any, scripted_dice: Any) -> None:
    """The record names the result a resignation was accepted with; the import, seeing
    less than resigning would concede, offers it and accepts it again."""
    match_id = backgammon_match(alice, bob, scripted_dice)["id"]
    alice.ok(match_id, "resign", {"offer": "single"})
    bob.ok(match_id, "resign/refuse")
    alice.ok(match_id, "resign", {"offer": "gammon"})
    bob.ok(match_id, "resign/accept")  # 0-2 of 3; game 2: the roll-off, then an offer
    scripted_dice(6, 1)
    alice.ok(match_id, "roll")
    bob.ok(match_id, "roll")  # White is to play the 6-1 of the roll-off (H4)
    alice.ok(match_id, "resign", {"offer": "single"})
    finished = bob.ok(match_id, "resign/accept")
    assert (finished["status"], finished["score"]) == ("finished", {"white": 0, "black": 3})
    original = Match.objects.get(pk=match_id)
    text = selectors.record_text(original)
    assert "white resigns, black wins 2 points (gammon)" in text
    copy = match_import(text=text, by=make_user("importer"))
    assert selectors.record_text(copy) == text
    games = [(g.winner, g.points_won, g.result, g.end_reason) for g in copy.games.all()]
    assert games == [("black", 2, "gammon", "resigned"), ("black", 1, "single", "resigned")]
    for game in copy.games.all():
        assert replay_problems(game) == []


def test_the_roll_an_accepted_offer_left_unplayed_is_not_a_complete_turn(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    """As after a resignation: the replay (and so the review) leaves that roll out."""
    match_id = backgammon_match(alice, bob, scripted_dice)["id"]
    alice.ok(match_id, "resign", {"offer": "gammon"})
    bob.ok(match_id, "resign/accept")
    game = Game.objects.get(match_id=match_id, number=1)
    replay = GameReplay(game)
    turns = list(replay.turns())
    assert [(t.number, t.dice, t.steps, t.complete) for t in turns] == [
        (1, (6, 1), (), False)]
    replay.finish()
    assert (replay.game.result, replay.game.points_won) == ("gammon", 2)
    assert replay_problems(game) == []
