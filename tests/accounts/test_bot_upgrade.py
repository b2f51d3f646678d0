"""Bot accounts without staff: ``POST accounts/bot/upgrade/``, the BOT labels, never rated
against people, and quick pairing only with those who accept bots."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Match
from ratings.models import PairingRequest, RatingChange
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db

UPGRADE = "/api/v1/accounts/bot/upgrade/"
PAIRING = "/api/v1/pairing/"


def upgrade(seat):
    answer = seat.client.post(UPGRADE)
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_an_account_without_finished_games_becomes_a_bot_for_good(alice, api):
    assert alice.client.get("/api/v1/accounts/me/").json()["is_bot"] is False

    profile = upgrade(alice)

    assert profile["is_bot"] is True and profile["username"] == "alice"
    assert User.objects.get(pk=alice.user.pk).is_bot is True
    assert api.get("/api/v1/accounts/users/alice/").json()["is_bot"] is True
    assert_error(alice.client.post(UPGRADE), 409, "already_bot")
    # irreversible: the profile's PATCH does not take the flag
    alice.client.patch("/api/v1/accounts/me/", {"is_bot": False}, format="json")
    assert User.objects.get(pk=alice.user.pk).is_bot is True


def test_an_account_with_a_finished_game_is_refused(alice, bob):
    match_id = start_match(alice, bob)["id"]
    alice.ok(match_id, "resign")

    error = assert_error(alice.client.post(UPGRADE), 409, "has_finished_games")

    assert error["details"]["matches_played"] == 1
    assert User.objects.get(pk=alice.user.pk).is_bot is False


def test_an_unfinished_match_does_not_stop_the_upgrade(alice, bob):
    start_match(alice, bob)
    assert upgrade(alice)["is_bot"] is True


def test_the_upgrade_needs_an_account(api):
    assert_error(api.post(UPGRADE), 401, "not_authenticated")


def test_matches_label_the_bot_seats(alice, bob):
    upgrade(bob)
    created = alice.create(opponent="bob", color="white")
    assert created.status_code == 201 and created.json()["rated"] is False
    match_id = created.json()["id"]
    bob.ok(match_id, "join")

    answer = alice.get(match_id)
    listed = alice.client.get("/api/v1/matches/", {"player": "bob"}).json()["results"]

    assert answer["bots"] == {"white": False, "black": True}
    assert listed[0]["bots"] == {"white": False, "black": True}


def test_a_bot_is_never_rated_against_people(alice, bob):
    upgrade(bob)
    error = assert_error(alice.create(opponent="bob", rated=True), 400, "validation_error")
    assert "rated" in error["details"]


def test_a_rated_match_whose_player_became_a_bot_changes_no_rating(alice, bob):
    match_id = start_match(alice, bob)["id"]
    assert Match.objects.get(pk=match_id).rated is True
    upgrade(bob)

    alice.ok(match_id, "resign")

    assert Match.objects.get(pk=match_id).status == "finished"
    assert not RatingChange.objects.exists()


# --- quick pairing ------------------------------------------------------------------------


def test_a_person_who_does_not_accept_bots_is_not_paired_with_one(alice, bob):
    upgrade(bob)
    waiting = bob.client.post(PAIRING, {"length": 1, "rated": False}, format="json")
    assert waiting.status_code == 202 and waiting.json()["options"]["bots"] is False

    asked = alice.client.post(PAIRING, {"length": 1, "rated": False}, format="json")

    assert asked.status_code == 202 and asked.json()["state"] == "waiting"
    assert PairingRequest.objects.count() == 2 and not Match.objects.exists()


def test_a_person_who_accepts_bots_is_paired_with_one(alice, bob):
    upgrade(bob)
    bob.client.post(PAIRING, {"length": 1, "rated": False}, format="json")

    asked = alice.client.post(PAIRING, {"length": 1, "rated": False, "bots": True},
                              format="json")

    assert asked.status_code == 201 and asked.json()["state"] == "paired"
    match = Match.objects.get(pk=asked.json()["match"])
    assert {match.white_id, match.black_id} == {alice.user.pk, bob.user.pk}
    assert match.rated is False


def test_a_bot_asking_meets_only_those_who_accept_bots(alice, bob, seat):
    upgrade(bob)
    alice.client.post(PAIRING, {"length": 1, "rated": False}, format="json")
    waiting = bob.client.post(PAIRING, {"length": 1, "rated": False}, format="json")
    assert waiting.status_code == 202  # alice does not accept bots
    alice.client.delete(PAIRING)

    asked = seat("carol").client.post(PAIRING, {"length": 1, "rated": False, "bots": True},
                                      format="json")

    assert asked.status_code == 201
    match = Match.objects.get(pk=asked.json()["match"])
    assert {match.white.username, match.black.username} == {"carol", "bob"}


def test_two_bots_meet_when_both_accept_bots(alice, bob):
    upgrade(alice)
    upgrade(bob)
    alice.client.post(PAIRING, {"length": 1, "rated": False}, format="json")
    refused = bob.client.post(PAIRING, {"length": 1, "rated": False, "bots": True},
                              format="json")
    assert refused.status_code == 202  # alice does not accept bots
    alice.client.delete(PAIRING)
    asked = alice.client.post(PAIRING, {"length": 1, "rated": False, "bots": True},
                              format="json")

    assert asked.status_code == 201 and asked.json()["state"] == "paired"


def test_a_bot_asking_for_a_rated_pairing_is_refused(bob):
    upgrade(bob)
    error = assert_error(bob.client.post(PAIRING, {"length": 1}, format="json"), 400,
                         "validation_error")
    assert "rated" in error["details"]


def test_other_bots_option_while_waiting_is_a_409(alice):
    alice.client.post(PAIRING, {"length": 1}, format="json")
    assert_error(alice.client.post(PAIRING, {"length": 1, "bots": True}, format="json"), 409,
                 "already_waiting")
