"""Idempotency-Key on state-changing POSTs: replay, refusal of reuse, expiry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Match, Turn
from nard_site.api.models import IdempotencyRecord
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db


def test_a_retried_create_replays_the_first_answer_and_creates_nothing(alice):
    headers = {"HTTP_IDEMPOTENCY_KEY": "create-1"}
    first = alice.client.post("/api/v1/matches/", {"length": 3}, format="json", **headers)
    again = alice.client.post("/api/v1/matches/", {"length": 3}, format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1


def test_the_same_key_with_another_body_is_refused(alice):
    headers = {"HTTP_IDEMPOTENCY_KEY": "create-2"}
    alice.client.post("/api/v1/matches/", {"length": 3}, format="json", **headers)
    response = alice.client.post("/api/v1/matches/", {"length": 5}, format="json", **headers)
    assert_error(response, 422, "idempotency_key_reused")
    assert Match.objects.count() == 1


def test_retried_roll_and_moves_change_nothing(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    roll = alice.client.post(f"/api/v1/matches/{match_id}/roll/", {}, format="json",
                             HTTP_IDEMPOTENCY_KEY="roll-1")
    replay = alice.client.post(f"/api/v1/matches/{match_id}/roll/", {}, format="json",
                               HTTP_IDEMPOTENCY_KEY="roll-1")
    assert replay.json()["dice"] == roll.json()["dice"] == [5, 3]  # no new dice were rolled
    body = {"steps": [{"from": 24, "to": 19}]}
    moved = alice.client.post(f"/api/v1/matches/{match_id}/moves/", body, format="json",
                              HTTP_IDEMPOTENCY_KEY="move-1")
    events = Event.objects.count()
    again = alice.client.post(f"/api/v1/matches/{match_id}/moves/", body, format="json",
                              HTTP_IDEMPOTENCY_KEY="move-1")
    assert again.status_code == moved.status_code == 200 and again.json() == moved.json()
    assert Event.objects.count() == events
    assert Turn.objects.get().steps == [{"from": 24, "to": 19, "die": 5, "hit": False}]


def test_a_refusal_stores_no_key_and_keys_are_per_user(alice, bob, scripted_dice):
    """A refused action changed nothing, so it keeps no record (a client
    could otherwise fill the table with refusals); its retry runs again."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    url = f"/api/v1/matches/{match_id}/roll/"
    for n in range(5):
        refused = bob.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}")
        assert_error(refused, 409, "not_your_turn")
    assert not IdempotencyRecord.objects.exists()
    scripted_dice(2, 1)
    accepted = alice.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="k0")
    assert accepted.status_code == 200  # the same key string, another user
    assert IdempotencyRecord.objects.get().user_id == alice.user.pk
    assert_error(bob.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="k0"),
                 409, "not_your_turn")
    assert IdempotencyRecord.objects.count() == 1


def test_a_refused_request_retried_with_its_key_runs_again(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    version = Match.objects.get(pk=match_id).version
    url = f"/api/v1/matches/{match_id}/roll/"
    stale = alice.client.post(url, {"expected_version": version - 1}, format="json",
                              HTTP_IDEMPOTENCY_KEY="r")
    assert_error(stale, 409, "version_conflict")
    scripted_dice(4, 2)
    fixed = alice.client.post(url, {"expected_version": version}, format="json",
                              HTTP_IDEMPOTENCY_KEY="r")
    assert fixed.status_code == 200 and fixed.json()["dice"] == [4, 2]


def test_the_fingerprint_includes_the_query_string(alice, bob, scripted_dice):
    """``?perspective=black`` is another request than none, so the same
    key with it is refused instead of answering the first request's perspective."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    url = f"/api/v1/matches/{match_id}/roll/"
    first = alice.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="q")
    assert first.status_code == 200
    other = alice.client.post(f"{url}?perspective=black", {}, format="json",
                              HTTP_IDEMPOTENCY_KEY="q")
    assert_error(other, 422, "idempotency_key_reused")
    same = alice.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="q")
    assert same.json() == first.json() and same["Idempotent-Replayed"] == "true"


def test_keys_expire(alice, settings):
    headers = {"HTTP_IDEMPOTENCY_KEY": "old"}
    alice.client.post("/api/v1/matches/", {"length": 3}, format="json", **headers)
    IdempotencyRecord.objects.update(created_at=IdempotencyRecord.objects.get().created_at
                                     - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL + 1))
    response = alice.client.post("/api/v1/matches/", {"length": 5}, format="json", **headers)
    assert response.status_code == 201 and Match.objects.count() == 2


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve"])
def test_malformed_keys_are_refused(alice, key):
    response = alice.client.post("/api/v1/matches/", {"length": 3}, format="json",
                                 HTTP_IDEMPOTENCY_KEY=key)
    assert_error(response, 400, "validation_error")
    assert not Match.objects.exists()


def test_an_account_keeps_only_its_newest_answers(alice, settings):
    """What keyed POSTs leave is bounded per account (before: every answer, whole, until
    the purge command ran — 379 rows, 1.65 MB for one hotseat match), and a kept key
    still replays its answer."""
    settings.IDEMPOTENCY_KEYS_PER_ACCOUNT = 3
    answers = [alice.client.post("/api/v1/matches/", {"length": 1}, format="json",
                                 HTTP_IDEMPOTENCY_KEY=f"bounded-{i}") for i in range(5)]
    assert [a.status_code for a in answers] == [201] * 5
    assert sorted(IdempotencyRecord.objects.values_list("key", flat=True)) == [
        "bounded-2", "bounded-3", "bounded-4"]
    again = alice.client.post("/api/v1/matches/", {"length": 1}, format="json",
                              HTTP_IDEMPOTENCY_KEY="bounded-4")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == answers[4].json()


def test_expired_answers_of_other_keys_are_deleted_by_the_next_keyed_post(alice, settings):
    alice.client.post("/api/v1/matches/", {"length": 1}, format="json",
                      HTTP_IDEMPOTENCY_KEY="old-key")
    IdempotencyRecord.objects.update(
        created_at=timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL + 1))
    alice.client.post("/api/v1/matches/", {"length": 1}, format="json",
                      HTTP_IDEMPOTENCY_KEY="new-key")
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new-key"]
