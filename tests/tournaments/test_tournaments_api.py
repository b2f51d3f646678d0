"""Tournaments through HTTP: a whole Swiss (odd players), knock-out and arena played to
the end by several accounts with rated matches (resigning to finish fast), a forfeit and
a withdrawal, and the refusals with their codes (nothing half-written)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Event, Match
from ratings.models import RatingChange
from tests.support import Seat, assert_error
from tournaments.models import Entrant, Pairing, Tournament, TournamentEvent

# The after-commit listener (games.notify) settles a tournament match's end: real commits.
pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/tournaments/"


def create(seat: Seat, **body: Any) -> dict[str, Any]:
    response = seat.client.post(URL, {"name": "Cup", "rules": "long_nardy", "length": 1,
                                      **body}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def act(seat: Seat, tid: int, action: str, body: dict[str, Any] | None = None) -> Any:
    return seat.client.post(f"{URL}{tid}/{action}/", body or {}, format="json")


def detail(seat: Seat, tid: int) -> dict[str, Any]:
    response = seat.client.get(f"{URL}{tid}/")
    assert response.status_code == 200, response.content
    return response.json()


def play_round(seats: dict[str, Seat], tid: int, loser_of=None) -> int:
    """Finish every active match: its ``loser_of(white, black)`` resigns (default: the
    later name in alphabetical order loses). Returns how many were finished."""
    state = detail(next(iter(seats.values())), tid)
    finished = 0
    for m in state["matches"]:
        if m["id"] is None or m["status"] != "active":
            continue
        loser = (loser_of or (lambda w, b: max(w, b)))(m["white"], m["black"])
        response = seats[loser].post(m["id"], "resign")
        assert response.status_code == 200, response.content
        finished += 1
    return finished


@pytest.fixture
def players(seat):
    def make(n: int) -> dict[str, Seat]:
        return {name: seat(name) for name in (f"p{i:02d}" for i in range(1, n + 1))}
    return make


def test_a_whole_swiss_with_five_players(players):
    seats = players(5)
    host = seats["p01"]
    t = create(host, system="swiss", rounds=3)
    assert t["status"] == "created" and t["standings"] == []
    for s in seats.values():
        assert act(s, t["id"], "join").status_code == 200
    started = act(host, t["id"], "start")
    assert started.status_code == 200 and started.json()["status"] == "started"
    for _round in range(3):
        assert play_round(seats, t["id"]) == 2
    final = detail(host, t["id"])
    assert final["status"] == "finished" and final["round"] == 3
    # every round: two matches and one bye, three different players had the byes
    byes = [m["white"] for m in final["matches"] if m["settled_by"] == "bye"]
    assert len(byes) == 3 and len(set(byes)) == 3
    played = [m for m in final["matches"] if m["id"] is not None]
    assert len(played) == 6
    pairs = [frozenset((m["white"], m["black"])) for m in played]
    assert len(set(pairs)) == 6  # no rematch
    assert sum(r["score"] for r in final["standings"]) == 6 + 3
    assert [r["rank"] for r in final["standings"]] == [1, 2, 3, 4, 5]
    # p01 never loses (it is first alphabetically): it wins every match and leads
    assert final["standings"][0]["username"] == "p01"
    # the matches were rated, and each says its tournament
    ids = [m["id"] for m in played]
    assert RatingChange.objects.filter(match_id__in=ids).count() == 12
    answer = host.get(ids[0])
    assert answer["tournament"] == t["id"] and answer["rated"] is True
    created = Event.objects.get(match_id=ids[0], type="match_created").data
    assert created["tournament"] == t["id"] and created["round"] == 1
    kinds = list(TournamentEvent.objects.filter(tournament_id=t["id"])
                 .values_list("type", flat=True))
    for kind in ("joined", "started", "round", "paired", "bye", "match_over", "standings",
                 "finished"):
        assert kind in kinds
    assert kinds[-1] == "finished"
    # tie-breaks: Buchholz is the sum of the opponents' scores
    scores = {r["username"]: r["score"] for r in final["standings"]}
    for row in final["standings"]:
        opponents = [m["black"] if m["white"] == row["username"] else m["white"]
                     for m in played if row["username"] in (m["white"], m["black"])]
        assert row["buchholz"] == sum(scores[o] for o in opponents)


def test_a_knockout_with_six_players_and_a_third_place_match(players):
    seats = players(6)
    host = seats["p01"]
    t = create(host, system="knockout", third_place=True)
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    first = detail(host, t["id"])
    # 6 players in a bracket of 8: two byes, to the top two seeds
    assert sum(1 for m in first["matches"] if m["settled_by"] == "bye") == 2
    assert play_round(seats, t["id"]) == 2   # quarter-finals
    assert play_round(seats, t["id"]) == 2   # semi-finals
    assert play_round(seats, t["id"]) == 2   # the final and the third-place match
    final = detail(host, t["id"])
    assert final["status"] == "finished"
    last = [m for m in final["matches"] if m["round"] == 3]
    assert {m["third_place"] for m in last} == {True, False}
    winner = next(m["winner"] for m in last if not m["third_place"])
    third = next(m["winner"] for m in last if m["third_place"])
    assert final["standings"][0]["username"] == winner == "p01"
    assert final["standings"][2]["username"] == third


def test_an_arena_pairs_again_at_once_and_settles_its_end(players, seat):
    seats = players(4)
    host = seats["p01"]
    t = create(host, system="arena", minutes=30)
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    assert play_round(seats, t["id"]) == 2
    state = detail(host, t["id"])
    active = [m for m in state["matches"] if m["status"] == "active"]
    assert len(active) == 2  # everyone paired again at once
    # a late joiner waits for someone (nobody waits now)
    late = seat("late")
    assert act(late, t["id"], "join").status_code == 200
    # p01 won its first match: 2 points (a single win); nobody has a streak yet
    assert {r["username"]: r["score"] for r in state["standings"]}["p01"] == 2
    # the arena's time is over: the unfinished matches are settled by the score
    Tournament.objects.filter(pk=t["id"]).update(ends_at=timezone.now() - timedelta(seconds=1))
    final = detail(host, t["id"])
    assert final["status"] == "finished"
    assert {m["settled_by"] for m in final["matches"]} == {"played", "arena_end"}
    assert not Pairing.objects.filter(tournament_id=t["id"], finished_at=None).exists()


def test_an_arena_pause_keeps_a_player_out_of_the_pairing(players):
    seats = players(3)
    host = seats["p01"]
    t = create(host, system="arena", minutes=30)
    for s in seats.values():
        act(s, t["id"], "join")
    paused = act(seats["p03"], t["id"], "pause")
    assert paused.status_code == 200 and paused.json()["me"]["paused"] is True
    act(host, t["id"], "start")
    state = detail(host, t["id"])
    assert len(state["matches"]) == 1
    assert "p03" not in (state["matches"][0]["white"], state["matches"][0]["black"])
    error = assert_error(act(seats["p03"], 999999, "pause"), 404, "not_found")
    assert error["message"]


def test_a_forfeit_by_the_clock_and_a_withdrawal_between_rounds(players):
    from games.services import clocks_sweep
    seats = players(4)
    host = seats["p01"]
    t = create(host, system="swiss", rounds=2, turn_seconds=30)
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    state = detail(host, t["id"])
    absent, present = state["matches"][0], state["matches"][1]
    # withdrawing while one's match of the round is being played: refused, unchanged
    assert_error(act(seats[present["white"]], t["id"], "withdraw"), 409, "round_in_progress")
    assert not Entrant.objects.filter(tournament_id=t["id"], withdrawn=True).exists()
    # only White rolls off in the first match: after the grace, the sweep aborts it as
    # abandoned, and Black, absent at pairing time, forfeits
    assert seats[absent["white"]].post(absent["id"], "roll").status_code == 200
    Match.objects.filter(pk=absent["id"]).update(deadline=timezone.now() - timedelta(days=30))
    assert absent["id"] in clocks_sweep().settled
    seats[present["black"]].post(present["id"], "resign")
    state = detail(host, t["id"])
    assert state["round"] == 2
    first = next(m for m in state["matches"] if m["id"] == absent["id"])
    assert first["settled_by"] == "forfeit" and first["winner"] == absent["white"]
    # between rounds? round 2 is under way: its players' matches are open
    open_round = [m for m in state["matches"] if m["round"] == 2]
    for m in open_round:
        loser = m["black"]
        seats[loser].post(m["id"], "resign")
    assert detail(host, t["id"])["status"] == "finished"


def test_a_withdrawal_between_rounds_leaves_the_next_pairing(players):
    seats = players(4)
    host = seats["p01"]
    t = create(host, system="swiss", rounds=3)
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    # p04 loses its first match, then withdraws before the others finish the round
    state = detail(host, t["id"])
    mine = next(m for m in state["matches"] if "p04" in (m["white"], m["black"]))
    seats["p04"].post(mine["id"], "resign")
    assert act(seats["p04"], t["id"], "withdraw").status_code == 200
    play_round(seats, t["id"])
    state = detail(host, t["id"])
    round2 = [m for m in state["matches"] if m["round"] == 2]
    assert all("p04" not in (m["white"], m["black"]) for m in round2)
    assert any(m["settled_by"] == "bye" for m in round2)  # three left: a bye
    assert next(r for r in state["standings"] if r["username"] == "p04")["withdrawn"]


def test_the_refusals_answer_the_error_shape_and_change_nothing(players, seat):
    seats = players(3)
    host, other, third = seats["p01"], seats["p02"], seats["p03"]
    t = create(host, system="swiss", rounds=1, max_players=2)
    assert act(host, t["id"], "join").status_code == 200
    assert_error(act(host, t["id"], "join"), 409, "already_joined")
    assert act(other, t["id"], "join").status_code == 200
    assert_error(act(third, t["id"], "join"), 409, "tournament_full")
    assert_error(act(other, t["id"], "start"), 403, "permission_denied")
    assert Entrant.objects.filter(tournament_id=t["id"]).count() == 2
    assert detail(host, t["id"])["status"] == "created"
    assert_error(act(other, t["id"], "pause"), 400, "validation_error")
    act(host, t["id"], "start")
    assert_error(act(host, t["id"], "start"), 409, "tournament_started")
    assert_error(act(third, t["id"], "withdraw"), 409, "not_joined")
    play_round(seats, t["id"])
    assert detail(host, t["id"])["status"] == "finished"
    assert_error(act(third, t["id"], "join"), 409, "tournament_finished")
    assert_error(act(host, t["id"], "withdraw"), 409, "tournament_finished")
    assert Entrant.objects.filter(tournament_id=t["id"]).count() == 2


def test_create_checks_its_input_and_the_per_account_limit(seat, settings):
    alice = seat("alice")
    bad = alice.client.post(URL, {"name": "A", "system": "arena", "length": 1},
                            format="json")
    assert "minutes" in assert_error(bad, 400, "validation_error")["details"]
    bad = alice.client.post(URL, {"name": "A", "system": "swiss", "length": 2, "rounds": 3},
                            format="json")
    assert "length" in assert_error(bad, 400, "validation_error")["details"]
    bad = alice.client.post(URL, {"name": "A", "system": "chess", "length": 1}, format="json")
    assert_error(bad, 400, "validation_error")
    settings.TOURNAMENTS_PER_ACCOUNT = 1
    create(alice, system="knockout")
    again = alice.client.post(URL, {"name": "B", "system": "knockout", "length": 1},
                              format="json")
    assert_error(again, 409, "too_many_tournaments", limit=1)
    assert Tournament.objects.count() == 1
    anonymous = alice.client.__class__().post(URL, {"name": "B", "system": "knockout",
                                                    "length": 1}, format="json")
    assert_error(anonymous, 401, "not_authenticated")


def test_the_list_by_link_and_the_start_time(seat):
    alice, bob = seat("alice"), seat("bob")
    listed = create(alice, system="knockout", starts_at=(
        timezone.now() + timedelta(hours=1)).isoformat())
    hidden = create(alice, system="knockout", entry="link")
    assert hidden["code"]
    body = alice.client.get(URL).json()
    assert [x["id"] for x in body["upcoming"]] == [listed["id"]]
    assert_error(act(bob, hidden["id"], "join", {"code": "wrong"}), 404, "not_found")
    assert act(bob, hidden["id"], "join", {"code": hidden["code"]}).status_code == 200
    assert detail(bob, hidden["id"])["code"] is None  # the creator's and the staff's only
    act(alice, listed["id"], "join")
    act(bob, listed["id"], "join")
    Tournament.objects.filter(pk=listed["id"]).update(starts_at=timezone.now())
    assert detail(bob, listed["id"])["status"] == "started"  # its time has come
    body = alice.client.get(URL).json()
    assert [x["id"] for x in body["running"]] == [listed["id"]]


def test_the_events_list_and_the_stream_once(seat):
    alice, bob = seat("alice"), seat("bob")
    t = create(alice, system="knockout")
    act(alice, t["id"], "join")
    act(bob, t["id"], "join")
    events = alice.client.get(f"{URL}{t['id']}/events/", {"after": 1}).json()
    assert [e["type"] for e in events] == ["joined", "joined"]
    assert [e["seq"] for e in events] == [2, 3]
    response = alice.client.get(f"{URL}{t['id']}/stream/", HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 200
    async def read() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    body = asyncio.run(read()).decode()
    assert "event: joined" in body and "id: 3" in body
    assert_error(alice.client.get(f"{URL}{t['id']}/events/", {"after": -1}), 400,
                 "validation_error")


def test_the_paired_players_account_streams_say_paired_with_the_tournament(seat):
    from live import kinds

    alice, bob = seat("alice"), seat("bob")
    t = create(alice, system="knockout")
    act(alice, t["id"], "join")
    act(bob, t["id"], "join")
    act(alice, t["id"], "start")
    match_id = detail(alice, t["id"])["matches"][0]["id"]
    match = Match.objects.get(pk=match_id)
    by_user = kinds.items(match, list(Event.objects.filter(match=match, type="match_created")))
    for player in (alice, bob):
        kind, data = by_user[player.user.pk][0]
        assert kind == "paired" and data["tournament"] == t["id"]
        assert data["match"] == match_id


def test_the_tick_command_finishes_an_arena_whose_time_is_over(seat):
    from django.core.management import call_command

    alice, bob = seat("alice"), seat("bob")
    t = create(alice, system="arena", minutes=1)
    act(alice, t["id"], "join")
    act(bob, t["id"], "join")
    act(alice, t["id"], "start")
    Tournament.objects.filter(pk=t["id"]).update(ends_at=timezone.now() - timedelta(seconds=1))
    call_command("tournaments_tick")
    assert Tournament.objects.get(pk=t["id"]).status == "finished"
    assert TournamentEvent.objects.filter(tournament_id=t["id"]).last().type == "finished"


def test_a_knockout_walkover_when_a_winner_withdraws_between_rounds(players):
    seats = players(4)
    host = seats["p01"]
    t = create(host, system="knockout")
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    first = detail(host, t["id"])["matches"]
    assert len(first) == 2
    # the first match ends; its winner withdraws while the other is still played
    done, other = first
    winner, loser = sorted((done["white"], done["black"]))
    seats[loser].post(done["id"], "resign")
    assert act(seats[winner], t["id"], "withdraw").status_code == 200
    loser2 = max(other["white"], other["black"])
    seats[loser2].post(other["id"], "resign")
    final = detail(host, t["id"])
    assert final["status"] == "finished"
    last = [m for m in final["matches"] if m["round"] == 2]
    assert [(m["settled_by"], m["black"]) for m in last] == [("walkover", None)]
    champion = min(other["white"], other["black"])
    assert last[0]["winner"] == champion == final["standings"][0]["username"]


def test_the_winners_ratings_rise_and_the_losers_fall(players):
    from ratings.models import Rating

    seats = players(4)
    host = seats["p01"]
    t = create(host, system="knockout")
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    play_round(seats, t["id"])
    play_round(seats, t["id"])
    ratings = {r.user.username: r.rating for r in Rating.objects.select_related("user")}
    assert ratings["p01"] > 1500 > ratings["p04"]  # p01 won twice, p04 lost once
    assert detail(host, t["id"])["standings"][0]["username"] == "p01"


def test_a_casual_tournament_changes_no_rating(players):
    seats = players(2)
    t = create(seats["p01"], system="knockout", rated=False)
    for s in seats.values():
        act(s, t["id"], "join")
    act(seats["p01"], t["id"], "start")
    match_id = detail(seats["p01"], t["id"])["matches"][0]["id"]
    assert seats["p01"].get(match_id)["rated"] is False
    play_round(seats, t["id"])
    assert not RatingChange.objects.exists()


def test_computer_entrants_only_when_allowed_and_by_the_creator(seat):
    alice, bob = seat("alice"), seat("bob")
    closed = create(alice, system="swiss", rounds=1)
    refused = act(alice, closed["id"], "join", {"computer": "random"})
    assert "computer" in assert_error(refused, 400, "validation_error")["details"]
    t = create(alice, system="swiss", rounds=1, allow_computer=True, rated=False)
    assert_error(act(bob, t["id"], "join", {"computer": "random"}), 403, "permission_denied")
    assert act(alice, t["id"], "join", {"computer": "random"}).status_code == 200
    rows = detail(alice, t["id"])["standings"]
    assert [(r["username"], r["computer"]) for r in rows] == [("computer-random", "random")]
    assert_error(act(alice, t["id"], "join", {"computer": "nobody"}), 400, "validation_error")


def test_a_knockout_final_by_walkover_still_plays_its_third_place_match(players):
    seats = players(4)
    host = seats["p01"]
    t = create(host, system="knockout", third_place=True)
    for s in seats.values():
        act(s, t["id"], "join")
    act(host, t["id"], "start")
    first, second = detail(host, t["id"])["matches"]
    seats[max(first["white"], first["black"])].post(first["id"], "resign")
    act(seats[min(first["white"], first["black"])], t["id"], "withdraw")
    seats[max(second["white"], second["black"])].post(second["id"], "resign")
    state = detail(host, t["id"])
    # the final is a walkover; the third-place match is played by the semi-finals' losers
    final_round = [m for m in state["matches"] if m["round"] == 2]
    assert sorted((m["settled_by"], m["third_place"]) for m in final_round) == [
        ("", True), ("walkover", False)]
    play_round(seats, t["id"])
    assert detail(host, t["id"])["status"] == "finished"


def test_the_refusals_in_russian(seat):
    alice = seat("alice")
    t = create(alice, system="knockout")
    act(alice, t["id"], "join")
    again = alice.client.post(f"{URL}{t['id']}/join/", {}, format="json",
                              HTTP_ACCEPT_LANGUAGE="ru")
    assert assert_error(again, 409, "already_joined")["message"] == (
        "Вы уже участвуете в этом турнире.")
    missing = alice.client.get(f"{URL}999999/", HTTP_ACCEPT_LANGUAGE="ru")
    assert assert_error(missing, 404, "not_found")["message"] == "Такого турнира нет."
