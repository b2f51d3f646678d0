"""Races on PostgreSQL: real concurrent connections submit at the same moment.

Each thread has its own client and so its own database connection; a barrier
releases them together.  Exactly one action applies; the rest are refused with
409 (`version_conflict`, `wrong_phase`, `not_your_turn`) and nothing is lost or
written twice.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from accounts.services import token_obtain
from games.models import Event, Match, Turn
from tests.support import start_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks are PostgreSQL's; CI runs this on PostgreSQL"),
]


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` at the same moment on their own threads; return their responses."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = calls[index]()
        except Exception as exc:  # surfaced by the assertions below
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=user).key}")
    return client


def assert_log_is_whole(match_id: int) -> None:
    seqs = list(Event.objects.filter(match_id=match_id).order_by("seq")
                .values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    match = Match.objects.get(pk=match_id)
    assert match.last_event_seq == len(seqs)
    numbers = list(Turn.objects.filter(game__match_id=match_id).values_list("number", flat=True))
    assert len(numbers) == len(set(numbers))


def codes(responses: list[Any]) -> Counter[Any]:
    out: Counter[Any] = Counter()
    for response in responses:
        assert not isinstance(response, Exception), response
        body = response.json()
        out[response.status_code if response.status_code < 400
            else (response.status_code, body["error"]["code"])] += 1
    return out


@pytest.mark.parametrize("clients", [2, 8, 16])
def test_the_same_step_from_many_clients_applies_once(alice, bob, scripted_dice, clients):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 5)
    version = alice.ok(match_id, "roll")["version"]
    body = {"steps": [{"from": 24, "to": 18}], "expected_version": version}
    url = f"/api/v1/matches/{match_id}/moves/"
    seats = [client_of(alice.user) for _ in range(clients)]
    responses = race([lambda c=c: c.post(url, body, format="json") for c in seats])
    assert codes(responses) == Counter({200: 1, (409, "version_conflict"): clients - 1})
    turn = Turn.objects.get(game__match_id=match_id)
    assert turn.steps == [{"from": 24, "to": 18, "die": 6, "hit": False}]
    assert Match.objects.get(pk=match_id).version == version + 1
    assert_log_is_whole(match_id)


def test_different_steps_at_once_only_one_applies(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 5)
    version = alice.ok(match_id, "roll")["version"]
    url = f"/api/v1/matches/{match_id}/moves/"
    bodies = [{"steps": [{"from": 24, "to": 18}], "expected_version": version},
              {"steps": [{"from": 24, "to": 19}], "expected_version": version},
              {"steps": [{"from": 24, "to": 18}, {"from": 18, "to": 13}]},
              {"steps": [{"from": 24, "to": 19}, {"from": 19, "to": 13}]}]
    seats = [client_of(alice.user) for _ in bodies]
    responses = race([lambda c=c, b=b: c.post(url, b, format="json")
                      for c, b in zip(seats, bodies, strict=True)])
    outcome = codes(responses)
    assert outcome[200] == 1 or (outcome[200] == 2 and _one_checker_played(match_id))
    assert sum(outcome.values()) == len(bodies)
    for key in outcome:
        assert key == 200 or key[0] in (400, 409)
    assert_log_is_whole(match_id)


def _one_checker_played(match_id: int) -> bool:
    """A single-step request and a two-step one can both fit one turn (6 then 5)."""
    steps = Turn.objects.get(game__match_id=match_id).steps
    return len(steps) == 2


@pytest.mark.parametrize("clients", [2, 16])
def test_rolls_at_once_roll_once(alice, bob, scripted_dice, clients):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(*([3, 2] * clients))
    url = f"/api/v1/matches/{match_id}/roll/"
    seats = [client_of(alice.user) for _ in range(clients)]
    responses = race([lambda c=c: c.post(url, {}, format="json") for c in seats])
    assert codes(responses) == Counter({200: 1, (409, "wrong_phase"): clients - 1})
    assert Turn.objects.filter(game__match_id=match_id).count() == 1
    assert Event.objects.filter(match_id=match_id, type="roll").count() == 1
    assert_log_is_whole(match_id)


def test_both_players_and_a_stranger_race_to_act(alice, bob, seat, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(4, 1, 4, 1)
    url = f"/api/v1/matches/{match_id}/roll/"
    stranger = seat("stranger")
    responses = race([lambda: client_of(alice.user).post(url, {}, format="json"),
                      lambda: client_of(bob.user).post(url, {}, format="json"),
                      lambda: client_of(stranger.user).post(url, {}, format="json")])
    assert codes(responses) == Counter({200: 1, (409, "not_your_turn"): 1,
                                        (403, "permission_denied"): 1})
    assert_log_is_whole(match_id)


def test_two_users_join_one_seek_at_once(alice, seat):
    match_id = alice.create(length=3).json()["id"]
    joiners = [seat(f"joiner{i}") for i in range(8)]
    url = f"/api/v1/matches/{match_id}/join/"
    responses = race([lambda j=j: client_of(j.user).post(url, {}, format="json")
                      for j in joiners])
    assert codes(responses) == Counter({200: 1, (409, "wrong_phase"): 7})
    match = Match.objects.get(pk=match_id)
    assert match.status == "active" and match.version == 2
    assert Event.objects.filter(match=match, type="joined").count() == 1
    assert_log_is_whole(match_id)


def _cube_match(alice, bob, scripted_dice) -> int:
    created = alice.create(length=3, opponent="bob", color="white", stakes="cube").json()
    bob.ok(created["id"], "join")
    scripted_dice(6, 1)
    alice.ok(created["id"], "roll")
    bob.ok(created["id"], "roll")
    return created["id"]


def test_an_offer_and_a_roll_at_once_only_one_applies(alice, bob, scripted_dice):
    """S3: an offer comes before the roll; the two at once: exactly one applies."""
    match_id = _cube_match(alice, bob, scripted_dice)
    scripted_dice(3, 2)
    base = f"/api/v1/matches/{match_id}/"
    responses = race([lambda: client_of(alice.user).post(base + "offer/", {}, format="json"),
                      lambda: client_of(alice.user).post(base + "roll/", {}, format="json")])
    outcome = codes(responses)
    # Second: a roll after the offer finds Black to answer (not_your_turn); an offer after
    # the roll finds the dice rolled (wrong_phase).
    assert outcome[200] == 1 and (outcome[(409, "not_your_turn")]
                                  + outcome[(409, "wrong_phase")]) == 1, outcome
    match = Match.objects.get(pk=match_id)
    offers = Event.objects.filter(match_id=match_id, type="offer").count()
    rolls = Event.objects.filter(match_id=match_id, type="roll").count()
    assert offers + rolls == 1
    assert match.current_game.phase == ("offer" if offers else "move")
    assert_log_is_whole(match_id)


def test_accept_and_refuse_at_once_only_one_applies(alice, bob, scripted_dice):
    match_id = _cube_match(alice, bob, scripted_dice)
    alice.ok(match_id, "offer")
    base = f"/api/v1/matches/{match_id}/"
    responses = race([lambda: client_of(bob.user).post(base + "accept/", {}, format="json"),
                      lambda: client_of(bob.user).post(base + "refuse/", {}, format="json")])
    outcome = codes(responses)
    # The second finds White to roll after an accept (not_your_turn), or the game over
    # after a refusal, with the next game's White to roll (not_your_turn, R8), or no offer.
    assert outcome[200] == 1 and (outcome[(409, "not_your_turn")]
                                  + outcome[(409, "wrong_phase")]) == 1, outcome
    answers = Event.objects.filter(match_id=match_id, type__in=("accept", "refuse")).count()
    assert answers == 1
    assert_log_is_whole(match_id)


def test_a_claim_and_a_late_roll_at_once_only_one_applies(alice, bob, scripted_dice,
                                                          monkeypatch):
    """Past White's deadline, White rolls as Black claims: exactly one applies."""
    from datetime import timedelta

    from django.utils import timezone

    created = alice.create(length=3, opponent="bob", color="white", turn_seconds=30).json()
    match_id = created["id"]
    bob.ok(match_id, "join")
    scripted_dice(6, 1)
    alice.ok(match_id, "roll")
    bob.ok(match_id, "roll")
    real_now = timezone.now
    monkeypatch.setattr("django.utils.timezone.now", lambda: real_now() + timedelta(seconds=45))
    scripted_dice(3, 2)
    base = f"/api/v1/matches/{match_id}/"
    # Both name the version they saw: without it, a roll that loses the race would apply
    # to game 2, where White (the loser, R8) is to roll again.
    seen = {"expected_version": Match.objects.get(pk=match_id).version}
    responses = race([lambda: client_of(alice.user).post(base + "roll/", seen, format="json"),
                      lambda: client_of(bob.user).post(base + "claim/", seen, format="json")])
    outcome = codes(responses)
    assert outcome == Counter({200: 1, (409, "version_conflict"): 1}), outcome
    claims = Event.objects.filter(match_id=match_id, type="claim").count()
    rolls = Event.objects.filter(match_id=match_id, type="roll").count()
    assert claims + rolls == 1
    assert_log_is_whole(match_id)


def test_parallel_creations_respect_the_computer_and_invitation_caps(alice, bob, settings):
    """The computer-match and invitation limits are checked under a lock of the creator's row,
    so eight creations at the same moment make exactly as many matches as allowed."""
    settings.COMPUTER_MATCHES_PER_ACCOUNT = 2
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default"]}}
    computer = [lambda: client_of(alice.user).post(
        "/api/v1/matches/", {"length": 1, "computer": "random"}, format="json")
        for _ in range(8)]
    codes = Counter(response.status_code for response in race(computer))
    assert codes == {201: 2, 409: 6}
    settings.INVITATIONS_OPEN_PER_PLAYER = 3
    invites = [lambda: client_of(alice.user).post(
        "/api/v1/matches/", {"length": 1, "opponent": "bob"}, format="json")
        for _ in range(8)]
    codes = Counter(response.status_code for response in race(invites))
    assert codes == {201: 3, 409: 5}
    assert Match.objects.filter(created_by=alice.user).count() == 5
