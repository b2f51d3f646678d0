"""Challenges: an invitation by name, refused by the invited player's setting, and a
notice to the invited player that it accepts or declines from its notices."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import API, assert_error

pytestmark = pytest.mark.django_db

ME = f"{API}/accounts/me/"
NOTICES = f"{API}/accounts/me/notifications/"


def follow(seat: Any, name: str) -> None:
    assert seat.client.post(f"{API}/accounts/users/{name}/follow/").status_code == 200


def challenges(seat: Any, setting: str) -> None:
    answer = seat.client.patch(ME, {"challenges": setting}, format="json")
    assert answer.status_code == 200 and answer.json()["challenges"] == setting


def test_the_setting_is_on_the_profile_and_checked(alice: Any) -> None:
    assert alice.client.get(ME).json()["challenges"] == "everyone"
    challenges(alice, "nobody")
    assert_error(alice.client.patch(ME, {"challenges": "friends"}, format="json"), 400,
                 "validation_error")
    assert alice.client.get(ME).json()["challenges"] == "nobody"


def test_nobody_refuses_every_challenge(alice: Any, bob: Any) -> None:
    challenges(bob, "nobody")
    follow(bob, "alice")
    assert_error(alice.create(opponent="bob"), 403, "challenges_closed", challenges="nobody")
    assert bob.create(opponent="alice").status_code == 201  # Bob may still challenge


def test_following_accepts_only_those_followed(alice: Any, bob: Any, seat: Any) -> None:
    carol = seat("carol")
    challenges(bob, "following")
    follow(bob, "carol")
    follow(alice, "bob")  # Alice follows Bob, but Bob does not follow her
    assert_error(alice.create(opponent="bob"), 403, "challenges_closed",
                 challenges="following")
    assert carol.create(opponent="bob").status_code == 201


def test_a_rematch_is_a_challenge_too(alice: Any, bob: Any) -> None:
    match_id = alice.create(opponent="bob").json()["id"]
    bob.ok(match_id, "join")
    alice.ok(match_id, "resign")
    challenges(bob, "nobody")
    assert_error(alice.post(match_id, "rematch"), 403, "challenges_closed")


def test_everyone_is_the_default_and_open_seeks_are_not_challenges(alice: Any, bob: Any
                                                                   ) -> None:
    assert alice.create(opponent="bob").status_code == 201
    challenges(bob, "nobody")
    seek = alice.create().json()["id"]
    assert bob.post(seek, "join").status_code == 200


def test_a_challenge_accepted_from_its_notice(alice: Any, bob: Any,
                                              django_capture_on_commit_callbacks: Any) -> None:
    follow(alice, "bob")
    with django_capture_on_commit_callbacks(execute=True):
        made = alice.create(opponent="bob", length=3, color="white", rules="short_nardy")
    assert made.status_code == 201
    match_id = made.json()["id"]
    listed = bob.client.get(NOTICES).json()
    assert listed["unread"] == 1
    notice = listed["results"][0]
    assert notice["kind"] == "challenge" and notice["read_at"] is None
    assert notice["data"] == {"match": match_id, "by": "alice", "rules": "short_nardy",
                              "length": 3, "stakes": "none", "turn_seconds": None,
                              "rated": True, "color": "black", "rematch_of": None}
    # Accept: join the notice's match, and mark the notice read.
    assert bob.post(notice["data"]["match"], "join").json()["status"] == "active"
    marked = bob.client.post(NOTICES, {"ids": [notice["id"]]}, format="json")
    assert marked.status_code == 200 and marked.json() == {"marked": 1, "unread": 0}
    assert alice.client.get(NOTICES).json() == {"unread": 0, "results": []}


def test_a_challenge_declined_from_its_notice(alice: Any, bob: Any,
                                              django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_id = alice.create(opponent="bob").json()["id"]
        other = alice.create(opponent="bob").json()["id"]
    notice = bob.client.get(NOTICES).json()["results"][1]
    assert notice["data"]["match"] == match_id
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.post(match_id, "decline").status_code == 200
    assert alice.get(match_id)["status"] == "aborted"
    # Answered, its notice is read; the other challenge's waits.
    listed = bob.client.get(NOTICES).json()
    assert listed["unread"] == 1
    assert [(n["data"]["match"], n["read_at"] is None) for n in listed["results"]] == [
        (other, True), (match_id, False)]


def test_a_challenge_accepted_from_the_lobby_reads_its_notice(
        alice: Any, bob: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_id = alice.create(opponent="bob").json()["id"]
    assert bob.client.get(NOTICES).json()["unread"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        bob.ok(match_id, "join")
    assert bob.client.get(NOTICES).json()["unread"] == 0


def test_no_notice_for_a_refused_challenge(alice: Any, bob: Any,
                                           django_capture_on_commit_callbacks: Any) -> None:
    challenges(bob, "nobody")
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.create(opponent="bob").status_code == 403
    assert bob.client.get(NOTICES).json() == {"unread": 0, "results": []}


def test_the_refusal_speaks_russian_too(alice: Any, bob: Any) -> None:
    challenges(bob, "nobody")
    answer = alice.client.post(f"{API}/matches/", {"length": 1, "opponent": "bob"},
                               format="json", HTTP_ACCEPT_LANGUAGE="ru")
    error = assert_error(answer, 403, "challenges_closed")
    assert error["message"] == "Этот игрок не принимает от вас вызовов."
