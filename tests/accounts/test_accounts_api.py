from __future__ import annotations

import pytest

from accounts.models import User
from tests.support import assert_error

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/accounts/register/"
TOKEN = "/api/v1/accounts/token/"
ME = "/api/v1/accounts/me/"
STATS = {"matches_played", "matches_won", "games_won", "games_lost", "mars_won", "mars_lost",
         "points_won", "points_lost"}


def register(api, username="alice", password="a-long-secret-42", **extra):
    return api.post(REGISTER, {"username": username, "password": password, **extra},
                    format="json")


def test_register_happy_path_returns_a_working_token(api):
    response = register(api, email="alice@example.com")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "alice"
    assert len(body["token"]) >= 20
    user = User.objects.get(username="alice")
    assert user.check_password("a-long-secret-42") and user.email == "alice@example.com"
    api.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api.get(ME).json()["username"] == "alice"


def test_register_duplicate_username_in_another_case_is_refused(api):
    assert register(api, "Alice").status_code == 201
    error = assert_error(register(api, "aLICE"), 400, "validation_error")
    assert "username" in error["details"]
    assert User.objects.count() == 1


@pytest.mark.parametrize("password", ["short", "password123", "12345678901"])
def test_register_weak_password_is_refused_by_django_validators(api, password):
    error = assert_error(register(api, "bob", password), 400, "validation_error")
    assert error["details"]["password"]
    assert not User.objects.exists()


def test_register_password_too_similar_to_username_is_refused(api):
    error = assert_error(register(api, "carolina", "carolina1"), 400, "validation_error")
    assert "password" in error["details"]


@pytest.mark.parametrize("missing", ["username", "password"])
def test_register_missing_field(api, missing):
    body = {"username": "dave", "password": "a-long-secret-42"}
    del body[missing]
    error = assert_error(api.post(REGISTER, body, format="json"), 400, "validation_error")
    assert list(error["details"]) == [missing]


def test_register_wrong_types_and_bad_username(api):
    error = assert_error(api.post(REGISTER, {"username": ["x"], "password": 5}, format="json"),
                         400, "validation_error")
    assert "username" in error["details"]
    assert_error(register(api, "bad name!"), 400, "validation_error")
    assert_error(register(api, "eve", email="not-an-email"), 400, "validation_error")


def test_token_obtain_with_right_password_case_insensitive_username(api, make_user):
    make_user("Frank", password="a-long-secret-42")
    response = api.post(TOKEN, {"username": "frank", "password": "a-long-secret-42"},
                        format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    again = api.post(TOKEN, {"username": "Frank", "password": "a-long-secret-42"}, format="json")
    assert again.json()["token"] != token  # each log-in its own token
    for key in (token, again.json()["token"]):
        assert api.get(ME, HTTP_AUTHORIZATION=f"Token {key}").json()["username"] == "Frank"


def test_token_obtain_with_wrong_password(api, make_user):
    make_user("grace", password="a-long-secret-42")
    response = api.post(TOKEN, {"username": "grace", "password": "nope"}, format="json")
    assert_error(response, 401, "not_authenticated")
    assert_error(api.post(TOKEN, {"username": "grace"}, format="json"), 400, "validation_error")


def test_token_revoke_makes_the_old_token_fail(api, make_user):
    make_user("heidi", password="a-long-secret-42")
    token = api.post(TOKEN, {"username": "heidi", "password": "a-long-secret-42"},
                     format="json").json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get(ME).status_code == 200
    assert api.delete(TOKEN).status_code == 204
    assert_error(api.get(ME), 401, "not_authenticated")
    api.credentials()
    fresh = api.post(TOKEN, {"username": "heidi", "password": "a-long-secret-42"},
                     format="json").json()["token"]
    assert fresh != token


def test_token_revoke_needs_auth(api):
    assert_error(api.delete(TOKEN), 401, "not_authenticated")


def test_me_needs_auth(api):
    assert_error(api.get(ME), 401, "not_authenticated")
    assert_error(api.patch(ME, {"display_name": "x"}, format="json"), 401, "not_authenticated")


def test_me_get_and_patch_display_name(make_user, client_for):
    client = client_for(make_user("ivan"))
    body = client.get(ME).json()
    assert body["username"] == "ivan" and body["display_name"] == ""
    assert set(body["stats"]) == {*STATS, "by_rules"} and body["stats"]["by_rules"] == {}
    assert {v for k, v in body["stats"].items() if k != "by_rules"} == {0}
    response = client.patch(ME, {"display_name": "Ivan the Bold"}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == "Ivan the Bold"
    assert User.objects.get(username="ivan").display_name == "Ivan the Bold"


@pytest.mark.parametrize("value", ["x" * 65, None, ["a"], {"a": 1}])
def test_me_patch_validation(make_user, client_for, value):
    client = client_for(make_user("judy", display_name="Judy"))
    error = assert_error(client.patch(ME, {"display_name": value}, format="json"),
                         400, "validation_error")
    assert "display_name" in error["details"]
    assert User.objects.get(username="judy").display_name == "Judy"


def test_public_profile_by_username(api, make_user):
    make_user("Karl", display_name="Karl K")
    body = api.get("/api/v1/accounts/users/karl/").json()
    assert body["username"] == "Karl" and body["display_name"] == "Karl K"
    assert set(body["stats"]) == {*STATS, "by_rules"}
    assert "email" not in body
    assert_error(api.get("/api/v1/accounts/users/nobody/"), 404, "not_found")


def test_admin_refuses_a_username_that_differs_only_in_case(make_user, client):
    make_user("Émile")
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    response = client.post("/admin/accounts/user/add/", {
        "username": "éMILE", "password1": "a-long-secret-42", "password2": "a-long-secret-42",
        "usable_password": "true"})
    assert response.status_code == 200  # the form again, with the error
    assert "already exists" in response.content.decode()
    assert User.objects.named("emile").count() == 0 and User.objects.named("émile").count() == 1
