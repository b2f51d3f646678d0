"""Clocks, claims, abandonment, abort and presence through the API.

A controllable clock (the ``clock`` fixture) stands in for ``django.utils.timezone.now``,
which every deadline, claim, sweep and presence mark reads. alice (White) invites bob
(Black); the roll-off (6, 1) makes White the starter.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient

from games import presence
from games.models import Event, Match
from games.replay import replay_problems
from games.services import clocks_sweep
from tests.conftest import assert_error
from tests.support import Seat

pytestmark = pytest.mark.django_db
START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr("django.utils.timezone.now", made)
    return made


def iso(moment: datetime) -> str:
    """The API's one format for an instant: UTC, milliseconds, ``Z``."""
    millis = f"{moment.microsecond // 1000:03d}"
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis}Z"


def clock_match(white: Seat, black: Seat, script: Any, *, turn_seconds: int | None = 60,
                roll_off: bool = True, **extra: Any) -> int:
    created = white.create(length=3, opponent=black.user.username, color="white",
                           turn_seconds=turn_seconds, **extra)
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    black.ok(match_id, "join")
    if roll_off:
        script(6, 1)
        white.ok(match_id, "roll")
        black.ok(match_id, "roll")
    return match_id


def types(match_id: int) -> list[str]:
    return list(Event.objects.filter(match_id=match_id).order_by("seq")
                .values_list("type", flat=True))


def data_of(match_id: int, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in Event.objects.filter(match_id=match_id, type=type_).order_by("seq")]


# --- the clock and the deadline -----------------------------------------------------------


def test_no_clock_no_deadline_and_no_claim(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=None)
    match = alice.get(match_id)
    assert (match["turn_seconds"], match["state"]["deadline"]) == (None, None)
    clock.advance(days=30)
    error = assert_error(bob.post(match_id, "claim"), 409, "wrong_phase")
    assert error["details"] == {"reason": "no_clock"}
    assert alice.get(match_id)["status"] == "active"
    assert clocks_sweep().settled == ()


def test_the_deadline_moves_with_each_action_and_is_the_same_for_every_reader(
        alice, bob, scripted_dice, clock):
    created = alice.create(length=3, opponent="bob", color="white", turn_seconds=60).json()
    assert (created["turn_seconds"], created["state"]) == (60, None)
    match_id = created["id"]
    joined = bob.ok(match_id, "join")
    assert joined["state"]["deadline"] == iso(START + timedelta(seconds=60))
    clock.advance(seconds=10)
    scripted_dice(6)
    assert alice.ok(match_id, "roll")["state"]["deadline"] == iso(
        START + timedelta(seconds=70))
    clock.advance(seconds=10)
    scripted_dice(1, 6, 5)
    bob.ok(match_id, "roll")
    clock.advance(seconds=5)
    rolled = alice.ok(match_id, "roll")
    assert rolled["state"]["deadline"] == iso(START + timedelta(seconds=85))
    clock.advance(seconds=20)
    moved = alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}]})
    expected = iso(START + timedelta(seconds=105))
    assert moved["state"]["deadline"] == expected
    assert bob.get(match_id)["state"]["deadline"] == expected
    assert APIClient().get(f"/api/v1/matches/{match_id}/").json()["state"]["deadline"] == expected
    clock.advance(seconds=30)  # reading does not move it
    assert alice.get(match_id)["state"]["deadline"] == expected


@pytest.mark.parametrize("seconds", [29, 86_401, 0, -5])
def test_the_clock_is_30_seconds_to_a_day(alice, seconds):
    error = assert_error(alice.create(turn_seconds=seconds), 400, "validation_error")
    assert "turn_seconds" in error["details"]


def test_a_hotseat_match_has_no_clock(alice):
    error = assert_error(alice.create(hotseat=True, turn_seconds=60), 400, "validation_error")
    assert error["details"] == {"turn_seconds": ["Not allowed with hotseat."]}


def test_a_rematch_keeps_the_clock(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=300)
    created = Match.objects.get(pk=match_id)
    created.length = 1
    created.save()
    bob.ok(match_id, "resign")
    assert bob.ok(match_id, "rematch")["turn_seconds"] == 300


# --- claims ----------------------------------------------------------------------------


def test_a_claim_before_the_deadline_is_refused(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=60)  # exactly at the deadline: not late yet
    before = alice.get(match_id)
    error = assert_error(bob.post(match_id, "claim"), 409, "wrong_phase")
    assert error["details"] == {"reason": "not_late",
                                "deadline": iso(START + timedelta(seconds=60))}
    after = alice.get(match_id)
    assert after["state"]["presence"] == {"white": True, "black": True}  # bob asked
    assert {**after, "state": {**after["state"], "presence": None}} == {
        **before, "state": {**before["state"], "presence": None}}


def test_a_claim_after_the_deadline_wins_the_game_as_a_resignation(alice, bob, scripted_dice,
                                                                   clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=61)
    claimed = bob.ok(match_id, "claim")
    # White had borne off nothing: R30 gives a mars.
    assert claimed["score"] == {"white": 0, "black": 2}
    assert claimed["state"]["game"] == 2 and claimed["status"] == "active"
    assert claimed["state"]["deadline"] == iso(clock.now + timedelta(seconds=60))
    assert data_of(match_id, "claim") == [
        {"game": 1, "side": "black", "late": "white",
         "deadline": iso(START + timedelta(seconds=60))}]
    over = data_of(match_id, "game_over")[-1]
    assert (over["winner"], over["points"], over["result"], over["reason"]) == (
        "black", 2, "resigned", "claimed")
    assert "resign" not in types(match_id)
    game = Match.objects.get(pk=match_id).games.get(number=1)
    assert replay_problems(game) == []


def test_a_claim_with_a_stake_concedes_the_stake(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, stakes="cube")
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")  # stake 2, White to roll
    clock.advance(minutes=2)
    assert bob.ok(match_id, "claim")["score"] == {"white": 0, "black": 4}


def test_only_the_waiting_side_may_claim(alice, bob, seat, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=61)
    error = assert_error(alice.post(match_id, "claim"), 409, "not_your_turn")
    assert error["details"] == {"turn": "white"}
    assert_error(seat("stranger").post(match_id, "claim"), 403, "permission_denied")
    assert_error(APIClient().post(f"/api/v1/matches/{match_id}/claim/"), 401,
                 "not_authenticated")


def test_the_side_to_answer_an_offer_can_be_late(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, stakes="dave")
    alice.ok(match_id, "offer")
    clock.advance(seconds=61)
    assert alice.ok(match_id, "claim")["score"] == {"white": 1, "black": 0}  # dave: the stake


def test_a_claim_in_the_roll_off_against_the_side_that_has_not_rolled(alice, bob,
                                                                      scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, roll_off=False)
    clock.advance(seconds=61)
    error = assert_error(alice.post(match_id, "claim"), 409, "wrong_phase")
    assert error["details"]["reason"] == "nobody_rolled"
    scripted_dice(4)
    alice.ok(match_id, "roll")
    clock.advance(seconds=61)
    assert_error(bob.post(match_id, "claim"), 409, "not_your_turn")
    assert alice.ok(match_id, "claim")["score"] == {"white": 2, "black": 0}


def test_the_claim_takes_expected_version(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=61)
    version = alice.get(match_id)["version"]
    assert_error(bob.post(match_id, "claim", {"expected_version": version - 1}), 409,
                 "version_conflict")
    assert bob.ok(match_id, "claim", {"expected_version": version})["version"] == version + 1


# --- abandonment: the sweep and lazy enforcement ----------------------------------------


def test_the_sweep_settles_only_what_is_over_the_limit_and_only_once(alice, bob, seat,
                                                                     scripted_dice, clock,
                                                                     settings):
    settings.RATED_MIN_TURNS = 0  # rated however short (the minimum: tests/ratings)
    over = clock_match(alice, bob, scripted_dice, turn_seconds=60)
    carol, dave = seat("carol"), seat("dave")
    under = clock_match(carol, dave, scripted_dice, turn_seconds=120)
    unclocked = clock_match(seat("erin"), seat("frank"), scripted_dice, turn_seconds=None)
    clock.advance(seconds=60 + 3 * 60 + 1)  # 60 s match: late by more than 3 limits
    swept = clocks_sweep()
    assert swept.settled == (over,)
    match = Match.objects.get(pk=over)
    assert (match.status, match.winner, match.score_black) == ("finished", "black", 2)
    assert data_of(over, "abandoned") == [
        {"game": 1, "side": "white", "by": "sweep",
         "deadline": iso(START + timedelta(seconds=60))}]
    over_data = data_of(over, "match_over")
    assert over_data[0].pop("ratings")["black"]["change"] > 0  # rated by default
    assert over_data == [
        {"winner": "black", "score": {"white": 0, "black": 2}, "reason": "abandoned"}]
    assert data_of(over, "game_over")[-1]["reason"] == "abandoned"
    assert Match.objects.get(pk=under).status == "active"
    assert Match.objects.get(pk=unclocked).status == "active"
    events = Event.objects.count()
    assert clocks_sweep().settled == ()
    assert Event.objects.count() == events
    stats = alice.client.get("/api/v1/accounts/users/bob/").json()["stats"]
    assert (stats["matches_won"], stats["games_won"]) == (1, 1)
    call_command("verify_games", match=over)


def test_correspondence_is_abandoned_after_a_day_at_least(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=3600)
    clock.advance(hours=1, seconds=3 * 3600 + 1)  # 3 limits late, but less than a day
    assert clocks_sweep().settled == ()
    clock.advance(hours=21)  # now a day and a second late
    assert clocks_sweep().settled == (match_id,)


def test_the_sweep_command(alice, bob, scripted_dice, clock, capsys):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=30)
    clock.advance(seconds=30 + 90 + 1)
    call_command("sweep_clocks")
    assert f"1 abandoned match(es) settled: {match_id}" in capsys.readouterr().out
    assert Match.objects.get(pk=match_id).status == "finished"


def test_a_roll_off_nobody_rolled_is_aborted_when_abandoned(alice, bob, scripted_dice,
                                                           clock):
    match_id = clock_match(alice, bob, scripted_dice, roll_off=False)
    clock.advance(seconds=60 + 181)
    assert clocks_sweep().settled == (match_id,)
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.winner) == ("aborted", "")
    assert data_of(match_id, "aborted") == [{"by": None, "reason": "abandoned"}]


def test_a_read_settles_an_abandoned_match_lazily_and_writes_nothing_otherwise(
        alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=100)  # late, not abandoned
    before = alice.get(match_id)
    events = Event.objects.count()
    read = APIClient().get(f"/api/v1/matches/{match_id}/").json()
    assert (read["status"], read["version"]) == ("active", before["version"])
    assert Event.objects.count() == events
    assert Match.objects.get(pk=match_id).version == before["version"]
    clock.advance(seconds=200)  # now late by more than 3 limits
    read = APIClient().get(f"/api/v1/matches/{match_id}/").json()
    assert (read["status"], read["winner"]) == ("finished", "black")
    assert data_of(match_id, "abandoned")[0]["by"] == "request"


def test_an_action_on_an_abandoned_match_settles_it_and_is_refused(alice, bob, scripted_dice,
                                                                   clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=60 + 181)
    scripted_dice(3, 1)
    error = assert_error(alice.post(match_id, "roll"), 409, "wrong_phase")
    assert error["details"] == {"status": "finished", "reason": "abandoned"}
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.winner) == ("finished", "black")
    assert types(match_id).count("abandoned") == 1 and "roll" not in types(match_id)


def test_an_idempotent_action_on_an_abandoned_match_keeps_the_settlement(alice, bob,
                                                                         scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice)
    clock.advance(seconds=60 + 181)
    response = alice.client.post(alice.url(match_id, "roll"), {}, format="json",
                                 HTTP_IDEMPOTENCY_KEY="late-roll")
    assert_error(response, 409, "wrong_phase")
    assert Match.objects.get(pk=match_id).status == "finished"


def test_the_sweep_warns_the_side_to_act_once_before_its_deadline(alice, bob, scripted_dice,
                                                                  clock):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=600)
    clock.advance(seconds=400)  # 200 s left: more than a quarter (150 s)
    assert clocks_sweep().warned == ()
    clock.advance(seconds=60)  # 140 s left
    version = Match.objects.get(pk=match_id).version
    assert clocks_sweep().warned == (match_id,)
    assert data_of(match_id, "deadline") == [
        {"game": 1, "side": "white", "deadline": iso(START + timedelta(seconds=600))}]
    assert Match.objects.get(pk=match_id).version == version  # no client goes stale
    assert clocks_sweep().warned == ()
    scripted_dice(3, 1)
    alice.ok(match_id, "roll")  # a new deadline may be warned again
    assert Match.objects.get(pk=match_id).deadline_warned is False


# --- abort before the first roll ------------------------------------------------------


@pytest.mark.parametrize("who", ["white", "black"])
def test_either_player_aborts_before_the_first_roll(alice, bob, scripted_dice, clock, who):
    match_id = clock_match(alice, bob, scripted_dice, roll_off=False)
    seat = alice if who == "white" else bob
    aborted = seat.ok(match_id, "abort")
    assert (aborted["status"], aborted["winner"], aborted["score"]) == (
        "aborted", None, {"white": 0, "black": 0})
    assert aborted["state"]["deadline"] is None
    assert data_of(match_id, "aborted") == [
        {"by": seat.user.username, "reason": "aborted before the first roll"}]
    stats = alice.client.get("/api/v1/accounts/users/alice/").json()["stats"]
    assert not any(v for v in stats.values() if isinstance(v, int)), stats
    assert_error(seat.post(match_id, "abort"), 409, "wrong_phase")


def test_no_abort_after_the_first_roll(alice, bob, seat, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, roll_off=False)
    assert_error(seat("stranger").post(match_id, "abort"), 403, "permission_denied")
    scripted_dice(3, 3)
    alice.ok(match_id, "roll")
    bob.ok(match_id, "roll")  # a tie: the dice are cleared, but the match has started
    error = assert_error(alice.post(match_id, "abort"), 409, "wrong_phase")
    assert error["details"]["reason"] == "rolled"
    assert Match.objects.get(pk=match_id).status == "active"


def test_no_abort_of_a_match_that_is_not_active(alice, bob):
    created = alice.create(length=3, opponent="bob").json()
    assert_error(alice.post(created["id"], "abort"), 409, "wrong_phase")


# --- presence -----------------------------------------------------------------------


def test_presence_from_requests(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=None)
    clock.advance(seconds=61)
    assert alice.get(match_id)["state"]["presence"] == {"white": True, "black": False}
    assert bob.get(match_id)["state"]["presence"] == {"white": True, "black": True}
    clock.advance(seconds=59)
    assert APIClient().get(f"/api/v1/matches/{match_id}/").json()["state"]["presence"] == {
        "white": True, "black": True}  # alice's mark was refreshed by her read at +61 s
    clock.advance(seconds=61)
    assert APIClient().get(f"/api/v1/matches/{match_id}/").json()["state"]["presence"] == {
        "white": False, "black": False}


def test_presence_from_streams(alice, bob, scripted_dice, clock):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=None)
    clock.advance(seconds=61)
    presence.seen(bob.user.pk)  # what live/ calls for an open stream
    state = APIClient().get(f"/api/v1/matches/{match_id}/").json()["state"]
    assert state["presence"] == {"white": False, "black": True}


def test_presence_is_not_written_on_every_request(alice, bob, scripted_dice, clock,
                                                  monkeypatch):
    match_id = clock_match(alice, bob, scripted_dice, turn_seconds=None)
    clock.advance(seconds=61)
    writes: list[str] = []
    real_set = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **k: (writes.append(key),
                                                            real_set(key, *a, **k))[1])
    for _ in range(5):
        alice.get(match_id)
        clock.advance(seconds=2)
    assert [w for w in writes if w.startswith("presence:")] == [f"presence:{alice.user.pk}"]
