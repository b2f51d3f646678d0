"""Limits on password checks, on every log-in path — the API's
``accounts/token/``, the play page's ``POST /play/session/`` and ``/admin/login/``:

- a username is locked per client address, so guessing at someone's name from one
  address never locks its owner (staff included) out from another;
- an address is limited across all usernames;
- the address is the throttles' identity (``NUM_PROXIES`` / ``X-Forwarded-For``);
- a refused attempt checks no password, and one beyond the process's hashing slots is
  refused at once (429) instead of queued.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import login_limit
from accounts.models import LoginCounter, User
from tests.support import assert_error

PASSWORD = "correct-horse-battery"
ATTACKER, OWNER = "203.0.113.5", "198.51.100.7"


def api_log_in(username: str, password: str = PASSWORD, address: str = OWNER, **extra: Any):
    return APIClient().post("/api/v1/accounts/token/",
                            {"username": username, "password": password}, format="json",
                            REMOTE_ADDR=address, **extra)


def web_log_in(username: str, password: str = PASSWORD, address: str = OWNER):
    return Client().post("/play/session/", {"username": username, "password": password},
                         content_type="application/json", REMOTE_ADDR=address)


def admin_log_in(username: str, password: str = PASSWORD, address: str = OWNER):
    return Client().post("/admin/login/?next=/admin/",
                         {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password actually checked against an account (thread-safe)."""
    seen: list[str] = []
    lock = threading.Lock()
    original = User.check_password

    def counting(self: User, raw_password: str | None) -> bool:
        with lock:
            seen.append(self.username)
        return original(self, raw_password)

    monkeypatch.setattr(User, "check_password", counting)
    return seen


@pytest.fixture
def limits(settings: Any) -> Any:
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 100
    return settings


def test_guessing_from_one_address_does_not_lock_the_owner_out_from_another(
        make_user, limits):
    make_user("chief", is_staff=True, is_superuser=True)
    for _ in range(3):
        assert_error(api_log_in("chief", "guess", ATTACKER), 401, "not_authenticated")
    # the attacker's address is locked for that name, even with the right password ...
    error = assert_error(api_log_in("chief", address=ATTACKER), 429, "throttled")
    assert "for this username" in error["message"] and error["details"]["retry_after"] > 0
    assert_error(web_log_in("chief", address=ATTACKER), 429, "throttled")
    assert "Too many failed log-ins" in admin_log_in("chief", address=ATTACKER).text
    # ... and its owner, elsewhere, logs in on every path
    assert api_log_in("chief").status_code == 200
    assert web_log_in("chief").json()["username"] == "chief"
    page = admin_log_in("chief")
    assert page.status_code == 302 and page["Location"] == "/admin/"


def test_the_web_login_is_limited_like_the_api(make_user, limits, checks):
    make_user("dora")
    for _ in range(3):
        assert_error(web_log_in("dora", "guess", ATTACKER), 401, "not_authenticated")
    refused = web_log_in("dora", address=ATTACKER)
    error = assert_error(refused, 429, "throttled")
    assert int(refused["Retry-After"]) == error["details"]["retry_after"] > 0
    assert checks == ["dora"] * 3  # the refused attempt checked no password
    assert_error(api_log_in("DORA", address=ATTACKER), 429, "throttled")  # one count


def test_an_address_is_limited_across_usernames(make_user, settings, checks):
    settings.LOGIN_FAILURE_LIMIT = 10
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    for name in ("ann", "ben", "cat", "dan", "eve"):
        make_user(name)
    for name in ("ann", "ben", "cat", "nobody"):
        assert_error(api_log_in(name, "guess", ATTACKER), 401, "not_authenticated")
    error = assert_error(api_log_in("eve", address=ATTACKER), 429, "throttled")
    assert "from your address" in error["message"]
    assert_error(web_log_in("eve", address=ATTACKER), 429, "throttled")
    assert "from your address" in admin_log_in("eve", address=ATTACKER).text
    assert len(checks) == 3  # "nobody" has no account: the dummy hash is not check_password
    assert api_log_in("eve", address=OWNER).status_code == 200


def test_a_success_does_not_count_against_the_address(make_user, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    make_user("fay")
    for _ in range(5):  # say, a school behind one address, logging in all day
        assert api_log_in("fay", address=ATTACKER).status_code == 200
    assert api_log_in("fay", address=ATTACKER).status_code == 200


def test_behind_a_proxy_the_address_is_the_forwarded_one(make_user, limits, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    make_user("gil")
    proxy = "10.0.0.1"

    def via_proxy(password: str, client: str):
        return api_log_in("gil", password, proxy, HTTP_X_FORWARDED_FOR=f"spoofed, {client}")

    for _ in range(3):
        assert_error(via_proxy("guess", ATTACKER), 401, "not_authenticated")
    assert_error(via_proxy(PASSWORD, ATTACKER), 429, "throttled")
    assert via_proxy(PASSWORD, OWNER).status_code == 200  # same proxy, another client
    assert login_limit.retry_after("gil", ATTACKER) is not None
    assert login_limit.retry_after("gil", proxy) is None


def test_a_success_clears_the_username_count_for_that_address(make_user, limits):
    make_user("hal")
    for _ in range(2):
        api_log_in("hal", "guess")
    assert api_log_in("hal").status_code == 200
    for _ in range(2):
        api_log_in("hal", "guess")
    assert api_log_in("hal").status_code == 200


def test_the_window_ends_the_lock(make_user, limits):
    make_user("ivy")
    for _ in range(3):
        api_log_in("ivy", "guess", ATTACKER)
    assert_error(api_log_in("ivy", address=ATTACKER), 429, "throttled")
    from django.utils import timezone

    LoginCounter.objects.update(expires=timezone.now())  # the window has passed
    assert api_log_in("ivy", address=ATTACKER).status_code == 200


def test_beyond_the_hashing_slots_a_log_in_is_refused_at_once(make_user, settings, checks):
    settings.LOGIN_CONCURRENT_CHECKS = 1
    make_user("jo")
    with login_limit.hashing():  # the process's one slot is taken
        for answer in (api_log_in("jo"), web_log_in("jo")):
            error = assert_error(answer, 429, "throttled")
            assert "too many passwords at once" in error["message"]
            assert answer["Retry-After"] == "1"
        assert "too many passwords at once" in admin_log_in("jo").text
        register = APIClient().post("/api/v1/accounts/register/", {
            "username": "newcomer", "password": "a-long-secret-42"}, format="json")
        assert_error(register, 429, "throttled")
    assert checks == []  # nothing was hashed, nothing queued
    assert not User.objects.filter(username="newcomer").exists()
    assert not LoginCounter.objects.filter(count__gt=0).exists()  # and nothing counted
    assert api_log_in("jo").status_code == 200  # the slot is free again


def test_the_slots_follow_the_setting(settings):
    settings.LOGIN_CONCURRENT_CHECKS = 2
    first, second = login_limit.hashing(), login_limit.hashing()
    first.__enter__()
    second.__enter__()
    try:
        with pytest.raises(login_limit.Busy), login_limit.hashing():
            pass
    finally:
        second.__exit__(None, None, None)
        first.__exit__(None, None, None)
    with login_limit.hashing():  # free again
        pass
