from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games import dice
from tests.support import Seat

_names = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    # Hashing passwords the production way costs ~0.3 s a user; tests make hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Throttle counters live in the cache; every test starts from zero."""
    cache.clear()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from accounts.models import User

    def make(username: str | None = None, password: str = "correct-horse-battery", **extra: Any):
        name = username or f"player{next(_names)}"
        return User.objects.create_user(username=name, password=password, **extra)

    return make


@pytest.fixture
def client_for(make_user: Callable[..., Any]) -> Callable[[Any], APIClient]:
    """An API client authenticated with the given user's token."""
    from accounts.services import token_obtain

    def make(user: Any) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=user).key}")
        return client

    return make


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """Assert the one error shape and return its ``error`` object."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert set(error) == {"code", "message", "details"}, error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    return error


@pytest.fixture
def seat(make_user: Callable[..., Any], client_for: Callable[[Any], APIClient]):
    def make(username: str | None = None) -> Seat:
        user = make_user(username)
        return Seat(user, client_for(user))

    return make


@pytest.fixture
def alice(seat: Callable[..., Seat]) -> Seat:
    return seat("alice")


@pytest.fixture
def bob(seat: Callable[..., Seat]) -> Seat:
    return seat("bob")


@pytest.fixture
def scripted_dice(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[int]]:
    """``scripted_dice(6, 3, ...)`` queues the dice the server rolls next, in order."""
    queue: list[int] = []

    def next_die() -> int:
        if not queue:
            raise AssertionError("the scripted dice ran out")
        return queue.pop(0)

    monkeypatch.setattr(dice, "_source", next_die)

    def script(*values: int) -> list[int]:
        queue.extend(values)
        return queue

    return script
