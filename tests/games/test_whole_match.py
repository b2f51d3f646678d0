"""A whole 3-point match through HTTP with planned dice: mars, single win, R8, R29, R31."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Event, Game, Match, Turn
from tests.games.play import fair, favour, play_game
from tests.support import start_match

pytestmark = pytest.mark.django_db


def test_three_point_match_with_a_mars_and_a_single_win(alice, bob, scripted_dice, api):
    match = start_match(alice, bob, length=3, script=scripted_dice, rolloff=(6, 1))
    match_id, seats, rng = match["id"], {"white": alice, "black": bob}, random.Random(0)

    # Game 1: White races, Black crawls -> White wins with a mars (R29).
    match = play_game(seats, match_id, favour("white"), rng, scripted_dice)
    assert match["score"] == {"white": 2, "black": 0}
    # R8: the loser (Black) starts game 2 without a roll-off.
    assert match["state"]["game"] == 2 and match["state"]["turn"] == "black"
    assert match["state"]["phase"] == "roll" and match["state"]["first_turn"] == {
        "white": True, "black": True}
    assert match["state"]["board"]["points"] == {"24": 15, "12": -15}

    # Game 2: fair dice; this seed gives Black a single win (White has borne off some).
    match = play_game(seats, match_id, fair, rng, scripted_dice)
    assert match["score"] == {"white": 2, "black": 1}
    assert match["state"]["turn"] == "white"

    # Game 3: White wins the match (R31: reaching or passing 3).
    match = play_game(seats, match_id, favour("white"), rng, scripted_dice)
    assert match["status"] == "finished" and match["winner"] == "white"
    assert match["score"] == {"white": 4, "black": 1}
    assert match["state"]["phase"] == "finished" and match["state"]["legal_steps"] == []
    assert match["finished_at"]

    games = api.get(f"/api/v1/matches/{match_id}/games/").json()
    assert [(g["number"], g["starter"], g["winner"], g["points"], g["mars"], g["end_reason"])
            for g in games] == [
        (1, "white", "white", 2, True, "borne_off"),
        (2, "black", "black", 1, False, "borne_off"),
        (3, "white", "white", 2, True, "borne_off"),
    ]
    for game in Game.objects.filter(match_id=match_id):
        winner = 0 if game.winner == "white" else 1
        assert game.mars == (game.position.off_of(1 - winner) == 0)
        assert game.position.off_of(winner) == 15
        assert game.turns == Turn.objects.filter(game=game).count() == games[
            game.number - 1]["turns"]

    events = api.get(f"/api/v1/matches/{match_id}/events/").json()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    game_overs = [e["data"] for e in events if e["type"] == "game_over"]
    assert [(g["winner"], g["points"], g["mars"]) for g in game_overs] == [
        ("white", 2, True), ("black", 1, False), ("white", 2, True)]
    assert events[-1]["type"] == "match_over" and events[-1]["data"]["winner"] == "white"
    # R28: nothing happens in a game after its fifteenth checker is off.
    for number in (1, 2, 3):
        game_events = [e for e in events if e["data"].get("game") == number]
        assert game_events[-1]["type"] == "game_over"
    moves = api.get(f"/api/v1/matches/{match_id}/games/1/moves/").json()
    assert len(moves) == games[0]["turns"] and moves[0]["side"] == "white"
    assert all(len(t["dice"]) == 2 for t in moves)
    assert Event.objects.filter(match_id=match_id).count() == len(events)

    # Profiles now show the real results.
    stats = api.get("/api/v1/accounts/users/alice/").json()["stats"]
    assert stats == {"matches_played": 1, "matches_won": 1, "games_won": 2, "games_lost": 1,
                     "mars_won": 2, "mars_lost": 0,
                     "points_won": 4, "points_lost": 1,
                     "by_rules": {"long_nardy": {"games_won": 2, "games_lost": 1,
                                                 "won": {"mars": 2}, "lost": {"single": 1}}}}
    stats = api.get("/api/v1/accounts/users/bob/").json()["stats"]
    assert stats == {"matches_played": 1, "matches_won": 0, "games_won": 1, "games_lost": 2,
                     "mars_won": 0, "mars_lost": 2,
                     "points_won": 1, "points_lost": 4,
                     "by_rules": {"long_nardy": {"games_won": 1, "games_lost": 2,
                                                 "won": {"single": 1}, "lost": {"mars": 2}}}}

    # Every stored game replays through the engine to its snapshot.
    call_command("verify_games")

    # Rematch: same opponent and length, colours swapped; Bob accepts as usual.
    rematch = bob.post(match_id, "rematch")
    assert rematch.status_code == 201
    body = rematch.json()
    assert body["status"] == "invited" and body["length"] == 3 and body["rematch_of"] == match_id
    assert (body["white"], body["black"], body["invited"]) == ("bob", "alice", "alice")
    assert alice.ok(body["id"], "join")["status"] == "active"
    assert bob.post(match_id, "rematch").status_code == 409
    assert Match.objects.count() == 2
