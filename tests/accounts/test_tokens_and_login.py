"""Tokens: which scheme, what is never a key, a stale header at log-in, revocation on a
password change or reset, and the per-username limit on failed log-ins."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.test import APIClient

from accounts import login_limit
from accounts.services import token_obtain
from tests.support import assert_error

API = "/api/v1"
PASSWORD = "correct-horse-battery"


def _log_in(client, username, password=PASSWORD):
    return client.post(f"{API}/accounts/token/", {"username": username, "password": password},
                       format="json")


def test_a_bearer_header_is_told_the_scheme_the_api_expects(api, make_user):
    key = token_obtain(user=make_user()).key
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    error = assert_error(api.get(f"{API}/accounts/me/"), 401, "not_authenticated")
    assert "Authorization: Token <key>" in error["message"] and "Bearer" in error["message"]


def test_an_empty_token_header_says_what_is_missing(api, db):
    api.credentials(HTTP_AUTHORIZATION="Token ")
    error = assert_error(api.get(f"{API}/matches/"), 401, "not_authenticated")
    assert "gives no key" in error["message"]


@pytest.mark.parametrize("key", ["abc\x00def", "a" * 41, "ключ", "abc-def"])
def test_a_string_that_can_never_be_a_key_is_refused_not_a_500(api, db, key):
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    error = assert_error(api.get(f"{API}/accounts/me/"), 401, "not_authenticated")
    assert error["message"] == "Invalid token."


def test_logging_in_works_with_a_stale_token_still_sent(api, make_user):
    user = make_user("stale")
    api.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = _log_in(api, "stale")
    assert response.status_code == 200, response.content
    api.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert api.get(f"{API}/accounts/me/").json()["username"] == user.username


def test_a_password_change_revokes_the_tokens(api, make_user):
    user = make_user("changer")
    key = token_obtain(user=user).key
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(f"{API}/accounts/me/").status_code == 200
    user.set_password("another-long-secret-7")
    user.save()
    assert_error(api.get(f"{API}/accounts/me/"), 401, "not_authenticated")
    fresh = _log_in(APIClient(), "changer", "another-long-secret-7").json()["token"]
    assert fresh != key


def test_a_password_reset_revokes_the_tokens(api, make_user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = make_user("forgetful", email="f@example.org")
    key = token_obtain(user=user).key
    client = Client()
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    from django.contrib.auth.forms import SetPasswordForm

    form = SetPasswordForm(user, {"new_password1": "brand-new-secret-9",
                                  "new_password2": "brand-new-secret-9"})
    assert form.is_valid(), form.errors
    form.save()  # what the reset confirmation view does
    assert uid and token and client is not None and not mail.outbox
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert_error(api.get(f"{API}/accounts/me/"), 401, "not_authenticated")


def test_the_admin_password_change_revokes_the_tokens(api, make_user, client):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    user = make_user("victim")
    key = token_obtain(user=user).key
    client.force_login(boss)
    response = client.post(f"/admin/accounts/user/{user.pk}/password/", {
        "password1": "fresh-long-secret-3", "password2": "fresh-long-secret-3",
        "usable_password": "true"})
    assert response.status_code == 302, response.content[:2000]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert_error(api.get(f"{API}/accounts/me/"), 401, "not_authenticated")


def test_wrong_passwords_lock_the_username_on_the_api(make_user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    make_user("target")
    for _ in range(3):
        assert_error(_log_in(APIClient(), "target", "wrong-guess"), 401, "not_authenticated")
    for name in ("target", "TARGET"):  # the right password too, in any case
        error = assert_error(_log_in(APIClient(), name), 429, "throttled")
        assert error["details"]["retry_after"] > 0
    assert "failed log-ins" in error["message"]


def test_a_success_clears_the_count(make_user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    make_user("careless")
    for _ in range(2):
        _log_in(APIClient(), "careless", "wrong-guess")
    assert _log_in(APIClient(), "careless").status_code == 200
    for _ in range(2):
        _log_in(APIClient(), "careless", "wrong-guess")
    assert _log_in(APIClient(), "careless").status_code == 200


def test_the_admin_login_is_limited_per_username_and_address(make_user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    make_user("chief", is_staff=True, is_superuser=True)
    for _ in range(3):
        page = Client().post("/admin/login/", {"username": "chief", "password": "nope"})
        assert page.status_code == 200 and "correct username and password" in page.text
    page = Client().post("/admin/login/?next=/admin/", {"username": "chief",
                                                         "password": PASSWORD})
    assert page.status_code == 200, page.status_code  # the form again, not the redirect in
    assert re.search(r"Too many failed log-ins for this username: try again in "
                     r"(1 minute|\d+ minutes)\.", page.text)   # in the right number
    assert login_limit.retry_after("chief", "127.0.0.1") is not None
    # the API shares the count (the same address: the test client's)
    assert_error(_log_in(APIClient(), "chief"), 429, "throttled")
