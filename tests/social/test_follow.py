"""Following a player, and the list of those followed with who is online or playing."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Follow
from accounts.services import notice_create
from games import presence
from tests.support import API, assert_error

pytestmark = pytest.mark.django_db

FOLLOWING = f"{API}/accounts/me/following/"


def follow_url(name: str) -> str:
    return f"{API}/accounts/users/{name}/follow/"


def test_follow_is_idempotent_and_unfollow_too(alice: Any, bob: Any) -> None:
    for _ in range(2):
        answer = alice.client.post(follow_url("BOB"))
        assert answer.status_code == 200
        assert answer.json() == {"username": "bob", "following": True}
    assert Follow.objects.filter(follower=alice.user, followed=bob.user).count() == 1
    for _ in range(2):
        assert alice.client.delete(follow_url("bob")).status_code == 204
    assert not Follow.objects.exists()


def test_follow_unknown_player_or_oneself_or_anonymously(alice: Any, api: Any) -> None:
    assert_error(alice.client.post(follow_url("nobody-here")), 404, "not_found")
    assert_error(alice.client.delete(follow_url("nobody-here")), 404, "not_found")
    assert_error(alice.client.post(follow_url("alice")), 400, "cannot_follow_self")
    assert_error(alice.client.delete(follow_url("Alice")), 400, "cannot_follow_self")
    assert_error(api.post(follow_url("alice")), 401, "not_authenticated")
    assert_error(api.get(FOLLOWING), 401, "not_authenticated")


def test_following_lists_who_is_online_and_what_they_play(alice: Any, bob: Any, seat: Any
                                                          ) -> None:
    carol, dave = seat("carol"), seat("dave")
    for name in ("bob", "carol", "dave"):
        assert alice.client.post(follow_url(name)).status_code == 200
    # Bob plays Carol (active); Dave has an open seek only; nobody plays Alice.
    match_id = bob.create(opponent="carol").json()["id"]
    carol.ok(match_id, "join")
    assert dave.create().json()["status"] == "open"
    presence.seen(bob.user.pk)
    presence.seen(dave.user.pk)
    answer = alice.client.get(FOLLOWING)
    assert answer.status_code == 200
    rows = {row["username"]: row for row in answer.json()}
    assert [row["username"] for row in answer.json()] == ["dave", "carol", "bob"]
    assert (rows["bob"]["online"], rows["bob"]["playing"]) == (True, [match_id])
    # Carol's join, a request to the matches API, marked her seen.
    assert (rows["carol"]["online"], rows["carol"]["playing"]) == (True, [match_id])
    assert (rows["dave"]["online"], rows["dave"]["playing"]) == (True, [])
    assert set(rows["bob"]) == {"username", "display_name", "is_bot", "online", "playing",
                                "since"}


def test_someone_never_seen_is_offline(alice: Any, make_user: Any) -> None:
    make_user("erin")  # made, never made a request
    alice.client.post(follow_url("erin"))
    assert alice.client.get(FOLLOWING).json()[0]["online"] is False


def test_watching_a_followed_players_match_from_the_list(alice: Any, bob: Any, seat: Any
                                                         ) -> None:
    carol = seat("carol")
    alice.client.post(follow_url("bob"))
    match_id = bob.create(opponent="carol").json()["id"]
    carol.ok(match_id, "join")
    playing = alice.client.get(FOLLOWING).json()[0]["playing"]
    watched = alice.client.get(f"{API}/matches/{playing[0]}/")
    assert watched.status_code == 200 and watched.json()["status"] == "active"


def test_the_admin_lists_notices_read_only(admin_client: Any, alice: Any) -> None:
    notice = notice_create(recipient=alice.user, kind="tournament_started")
    listed = admin_client.get("/admin/accounts/notice/")
    assert listed.status_code == 200 and b"tournament_started" in listed.content
    assert admin_client.get("/admin/accounts/notice/add/").status_code == 403
    assert admin_client.get(f"/admin/accounts/notice/{notice.pk}/change/").status_code == 200
