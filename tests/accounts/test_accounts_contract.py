"""API.md "Accounts": register, token, me, users/{username}; case-insensitive usernames."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support import API, assert_error, is_json

pytestmark = pytest.mark.django_db
REGISTER = f"{API}/accounts/register/"
TOKEN = f"{API}/accounts/token/"
ME = f"{API}/accounts/me/"
PASSWORD = "long-nardy-2026"
STAT_KEYS = {"matches_played", "matches_won", "games_won", "games_lost", "mars_won",
             "mars_lost", "points_won", "points_lost"}


def register(api, username, password=PASSWORD, **extra):
    return api.post(REGISTER, {"username": username, "password": password, **extra},
                    format="json")


def token_client(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def check_stats(stats):
    assert isinstance(stats, dict) and set(stats) == {*STAT_KEYS, "by_rules"}, stats
    counts = {k: v for k, v in stats.items() if k != "by_rules"}
    assert all(type(v) is int and v >= 0 for v in counts.values()), stats
    assert isinstance(stats["by_rules"], dict), stats


# --- register / token ---------------------------------------------------------------------


def test_register_answers_201_username_and_token(api):
    response = register(api, "newbie", email="newbie@example.com")
    assert response.status_code == 201, response.content
    assert is_json(response)
    body = response.json()
    assert set(body) == {"username", "token"}, body
    assert body["username"] == "newbie"
    assert isinstance(body["token"], str) and body["token"]
    # The token works at once.
    assert token_client(body["token"]).get(ME).status_code == 200


def test_register_email_is_optional(api):
    assert register(api, "noemail").status_code == 201


@pytest.mark.parametrize("body", [
    {}, {"username": "x1"}, {"password": PASSWORD},
    {"username": "", "password": PASSWORD},
    {"username": "has space", "password": PASSWORD},
    {"username": "a" * 151, "password": PASSWORD},
    {"username": ["a"], "password": PASSWORD},
    {"username": {"a": 1}, "password": PASSWORD},
    {"username": None, "password": PASSWORD},
    {"username": "okname", "password": PASSWORD, "email": "not-an-email"},
    {"username": "okname", "password": "123"},
    {"username": "okname", "password": None},
])
def test_register_bad_input_is_400_validation_error(api, body):
    assert_error(api.post(REGISTER, body, format="json"), 400, "validation_error")


def test_token_answers_200_token_only(api, make_user):
    make_user("tokenuser", password=PASSWORD)
    response = api.post(TOKEN, {"username": "tokenuser", "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    assert set(response.json()) == {"token"}
    assert token_client(response.json()["token"]).get(ME).status_code == 200


def test_token_bad_credentials_are_401_missing_ones_400(api, make_user):
    """A wrong password and an unknown username get the same answer (no user probing)."""
    make_user("tokenuser", password=PASSWORD)
    wrong = assert_error(api.post(TOKEN, {"username": "tokenuser", "password": "wrong"},
                                  format="json"), 401, "not_authenticated")
    unknown = assert_error(api.post(TOKEN, {"username": "nobody", "password": PASSWORD},
                                    format="json"), 401, "not_authenticated")
    assert wrong == unknown
    assert_error(api.post(TOKEN, {}, format="json"), 400, "validation_error")


def test_delete_token_is_204_and_the_old_token_stops_working(api):
    key = register(api, "revoker").json()["token"]
    client = token_client(key)
    response = client.delete(TOKEN)
    assert response.status_code == 204
    assert_error(client.get(ME), 401, "not_authenticated")
    assert_error(client.post(f"{API}/matches/", {"length": 1}, format="json"), 401,
             "not_authenticated")
    assert_error(client.delete(TOKEN), 401, "not_authenticated")
    # Logging in again hands out a working (new) token.
    again = api.post(TOKEN, {"username": "revoker", "password": PASSWORD}, format="json")
    assert again.status_code == 200
    assert again.json()["token"] != key
    assert token_client(again.json()["token"]).get(ME).status_code == 200


# --- me / users ---------------------------------------------------------------------------


def test_me_profile_with_stats(alice):
    response = alice.client.get(ME)
    assert response.status_code == 200 and is_json(response)
    body = response.json()
    assert body["username"] == "alice"
    assert "display_name" in body
    check_stats(body["stats"])


def test_patch_me_display_name(alice):
    response = alice.client.patch(ME, {"display_name": "Alice the Great"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["display_name"] == "Alice the Great"
    check_stats(body["stats"])
    assert alice.client.get(ME).json()["display_name"] == "Alice the Great"
    # Unicode is fine.
    response = alice.client.patch(ME, {"display_name": "Алиса 🎲"}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == "Алиса 🎲"


def test_patch_me_cannot_change_username_or_staff(alice):
    """Fields other than display_name are ignored (200), never applied."""
    response = alice.client.patch(ME, {"username": "mallory", "is_staff": True}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "alice"
    body = alice.client.get(ME).json()
    assert body["username"] == "alice"
    assert body.get("is_staff", False) is False


@pytest.mark.parametrize("body", [
    {"display_name": None}, {"display_name": ["x"]}, {"display_name": {"a": 1}},
    {"display_name": "x" * 10_000}, {"display_name": "a\x00b"}, [], "text", 5,
])
def test_patch_me_bad_input_is_400(alice, body):
    before = alice.client.get(ME).json()["display_name"]
    assert_error(alice.client.patch(ME, body, format="json"), 400, "validation_error")
    assert alice.client.get(ME).json()["display_name"] == before


def test_me_other_methods_are_405(alice):
    assert_error(alice.client.put(ME, {"display_name": "x"}, format="json"), 405,
             "method_not_allowed")
    assert_error(alice.client.delete(ME), 405, "method_not_allowed")


def test_public_profile_shape_and_anonymous_access(api, alice):
    response = api.get(f"{API}/accounts/users/alice/")
    assert response.status_code == 200 and is_json(response)
    body = response.json()
    assert body["username"] == "alice"
    check_stats(body["stats"])
    assert "email" not in body and "password" not in body


def test_public_profile_unknown_is_404(api):
    assert_error(api.get(f"{API}/accounts/users/nobody/"), 404, "not_found")
    assert_error(api.get(f"{API}/accounts/users/{'x' * 2000}/"), 404, "not_found")


def test_public_profile_nul_in_username_is_404_not_500(api):
    """psycopg refuses a NUL in a query parameter: the lookup must not reach it (a 500)."""
    api.raise_request_exception = False
    assert_error(api.get(f"{API}/accounts/users/a%00b/"), 404, "not_found")


# --- case-insensitive usernames -------------------------------------------------------------


def test_usernames_are_case_insensitive_ascii(api, make_user):
    assert register(api, "CaseUser").status_code == 201
    assert_error(register(api, "caseuser"), 400, "validation_error")
    assert_error(register(api, "CASEUSER"), 400, "validation_error")
    login = api.post(TOKEN, {"username": "CASEUSER", "password": PASSWORD}, format="json")
    assert login.status_code == 200, login.content
    profile = api.get(f"{API}/accounts/users/caseuser/")
    assert profile.status_code == 200 and profile.json()["username"] == "CaseUser"


def test_usernames_are_case_insensitive_non_ascii_register(api):
    """Usernames may be Unicode letters; 'Émile' and 'émile' are the same name."""
    assert register(api, "Émile").status_code == 201
    assert_error(register(api, "émile"), 400, "validation_error")


def test_usernames_are_case_insensitive_non_ascii_login(api):
    assert register(api, "Øyvind").status_code == 201
    login = api.post(TOKEN, {"username": "øyvind", "password": PASSWORD}, format="json")
    assert login.status_code == 200, login.content


def test_usernames_are_case_insensitive_non_ascii_profile(api):
    assert register(api, "Ödön").status_code == 201
    response = api.get(f"{API}/accounts/users/öDÖN/")
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "Ödön"


def test_opponent_and_player_filter_ignore_case(alice, bob, api):
    created = alice.create(length=1, opponent="BOB")
    assert created.status_code == 201, created.content
    assert created.json()["status"] == "invited"
    assert bob.user.username in (created.json()["white"], created.json()["black"])
    listed = api.get(f"{API}/matches/", {"player": "Bob"}).json()
    assert [m["id"] for m in listed["results"]] == [created.json()["id"]]
