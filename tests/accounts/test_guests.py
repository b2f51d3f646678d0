"""Guests: an identity without a password (a token and the page's session), never rated,
limited per address, pruned when stale, and registered into an ordinary account that
keeps its matches."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from tests.support import API, MATCHES, assert_error

pytestmark = pytest.mark.django_db

GUEST = f"{API}/accounts/guest/"
REGISTER = f"{API}/accounts/register/"
ME = f"{API}/accounts/me/"


def guest(client: APIClient | None = None, address: str = "10.0.0.1") -> tuple[APIClient, Any]:
    client = client or APIClient()
    answer = client.post(GUEST, REMOTE_ADDR=address)
    assert answer.status_code == 201, answer.content
    return client, answer.json()


def test_a_guest_has_a_token_and_a_session(settings: Any) -> None:
    client, body = guest()
    assert set(body) == {"username", "token", "is_guest"} and body["is_guest"] is True
    assert re.fullmatch(r"Guest-[0-9a-f]{4}", body["username"])
    user = User.objects.get(username=body["username"])
    assert user.is_guest and not user.has_usable_password() and not user.may_play_rated
    # The session the answer set signs the client in…
    me = client.get(ME)
    assert me.status_code == 200
    assert (me.json()["username"], me.json()["is_guest"]) == (body["username"], True)
    # …and so does the token, on its own.
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert other.get(ME).json()["username"] == body["username"]
    public = APIClient().get(f"{API}/accounts/users/{body['username']}/").json()
    assert public["is_guest"] is True


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_another_sites_page_cannot_sign_a_visitor_in_as_a_guest(site: str) -> None:
    client = APIClient()
    assert_error(client.post(GUEST, HTTP_SEC_FETCH_SITE=site), 403, "csrf_failed")
    assert not User.objects.exists()
    assert client.post(GUEST, HTTP_SEC_FETCH_SITE="same-origin").status_code == 201


def test_guests_per_address_are_limited(settings: Any) -> None:
    settings.GUESTS_PER_ADDRESS = 2
    for _ in range(2):
        guest(address="10.0.0.7")
    error = assert_error(APIClient().post(GUEST, REMOTE_ADDR="10.0.0.7"), 429, "throttled",
                         limit=2)
    assert 0 < error["details"]["retry_after"] <= settings.GUESTS_WINDOW
    guest(address="10.0.0.8")  # another address has its own budget
    assert User.objects.filter(is_guest=True).count() == 3


def test_nobody_registers_a_guests_name(api: APIClient) -> None:
    for name in ("Guest-7f3a", "guest_0b12", "GUEST7F3A"):
        answer = api.post(REGISTER, {"username": name, "password": "a-long-secret-42"},
                          format="json")
        assert_error(answer, 400, "validation_error")
    ok = api.post(REGISTER, {"username": "guesthouse", "password": "a-long-secret-42"},
                  format="json")
    assert ok.status_code == 201


def test_a_guest_is_never_rated(seat: Any) -> None:
    client, body = guest()
    bob = seat("bob")
    asked = client.post(MATCHES, {"length": 1, "opponent": "bob", "rated": True},
                        format="json")
    assert_error(asked, 400, "validation_error")
    made = client.post(MATCHES, {"length": 1, "opponent": "bob"}, format="json")
    assert made.status_code == 201 and made.json()["rated"] is False
    # Nor when a player invites the guest: the match becomes casual.
    invitation = bob.create(opponent=body["username"]).json()
    assert invitation["rated"] is False
    paired = client.post(f"{API}/pairing/", {"rated": True}, format="json")
    assert_error(paired, 400, "validation_error")


def test_a_guest_plays_the_computer_then_registers_with_the_match_kept() -> None:
    client, body = guest()
    made = client.post(MATCHES, {"length": 1, "computer": "random"}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "active"
    match_id = made.json()["id"]
    guest_id = User.objects.get(username=body["username"]).pk
    # Registering with the guest's session (its token would do as well) upgrades it.
    answer = client.post(REGISTER, {"username": "newcomer", "password": "a-long-secret-42",
                                    "email": "new@example.com"}, format="json")
    assert answer.status_code == 201
    assert answer.json()["username"] == "newcomer" and answer.json()["token"]
    user = User.objects.get(pk=guest_id)
    assert (user.username, user.is_guest, user.email) == ("newcomer", False, "new@example.com")
    assert user.check_password("a-long-secret-42") and user.may_play_rated
    assert User.objects.filter(is_guest=True).count() == 0
    # The session still works, the new token too, and the match is the new account's.
    assert client.get(ME).json()["username"] == "newcomer"
    mine = client.get(MATCHES, {"player": "newcomer"}).json()
    assert [m["id"] for m in mine["results"]] == [match_id]
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert token.get(ME).json()["username"] == "newcomer"


def test_registering_with_a_guests_token_upgrades_it() -> None:
    _, body = guest()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    answer = client.post(REGISTER, {"username": "tokenly", "password": "a-long-secret-42"},
                         format="json")
    assert answer.status_code == 201
    assert User.objects.get(username="tokenly").date_joined is not None
    assert User.objects.count() == 1


def test_registering_while_signed_in_as_a_player_makes_a_new_account(alice: Any) -> None:
    answer = alice.client.post(REGISTER, {"username": "second", "password": "a-long-secret-42"},
                               format="json")
    assert answer.status_code == 201
    assert set(User.objects.values_list("username", flat=True)) == {"alice", "second"}


def test_a_stale_token_does_not_stop_registration(api: APIClient) -> None:
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    answer = api.post(REGISTER, {"username": "fresh", "password": "a-long-secret-42"},
                      format="json")
    assert answer.status_code == 201


def test_stale_guests_without_matches_are_pruned(settings: Any) -> None:
    settings.GUEST_TTL_HOURS = 24
    _, idle = guest()
    client, played = guest()
    assert client.post(MATCHES, {"length": 1, "computer": "random"},
                       format="json").status_code == 201
    _, fresh = guest()
    old = timezone.now() - timedelta(hours=25)
    User.objects.filter(username__in=[idle["username"], played["username"]]).update(
        date_joined=old, last_login=old)
    call_command("prune_guests")
    left = set(User.objects.filter(is_guest=True).values_list("username", flat=True))
    assert left == {played["username"], fresh["username"]}
