"""Fixtures for the Django-side suites.

Nothing here imports Django or DRF at module level, and nothing here does anything
without pytest-django: tests/engine runs with neither installed (tests/engine/
test_no_django.py proves it). The helpers themselves live in tests/support.py.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from rest_framework.test import APIClient

    from tests.support import Seat

_names = itertools.count(1)


def __getattr__(name: str) -> Any:
    """``from tests.conftest import assert_error`` still works (it lives in tests.support)."""
    if name == "assert_error":
        from tests.support import assert_error

        return assert_error
    raise AttributeError(name)


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("django"):
        return
    from django.conf import settings

    # Hashing passwords the production way costs ~0.3 s a user; tests make hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_unconfigure(config: pytest.Config) -> None:
    """SQLite: the test database file's WAL and shared-memory files go with it (Django
    removes the file only; a connection a thread still held leaves the other two)."""
    conf = sys.modules.get("django.conf")
    if conf is None or not conf.settings.configured:
        return
    from pathlib import Path

    db = conf.settings.DATABASES["default"]
    name = str((db.get("TEST") or {}).get("NAME") or "")
    if db["ENGINE"] != "django.db.backends.sqlite3" or not name or Path(name).exists():
        return
    for side in ("-wal", "-shm"):
        Path(name + side).unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Throttle counters live in the cache; every test starts from zero."""
    conf = sys.modules.get("django.conf")
    if conf is None or not conf.settings.configured:
        return  # no Django in this run (tests/engine): nothing to clear
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def chromium() -> str:
    """The path of Debian's chromium (tests.support.CHROMIUM) for Playwright."""
    import os

    from tests.support import CHROMIUM

    if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium); CI installs it")
    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: .ci/run installs it"
    return CHROMIUM


@pytest.fixture
def api() -> APIClient:
    from rest_framework.test import APIClient

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
    from rest_framework.test import APIClient

    from accounts.services import token_obtain

    def make(user: Any) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=user).key}")
        return client

    return make


@pytest.fixture
def seat(make_user: Callable[..., Any], client_for: Callable[[Any], APIClient]
         ) -> Callable[..., Seat]:
    """``seat("carol")``: a new player with a token client (tests.support.Seat)."""
    from tests.support import Seat

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
def scripted_dice() -> Iterator[Callable[..., list[int]]]:
    """``scripted_dice(6, 3, ...)`` queues the dice the server rolls next, in order.

    The one way the suites plan dice: ``tests.dice.planned`` over one queue for the test
    (production has no seam for it, docs/fairness.md).
    """
    from tests.dice import planned

    queue: list[int] = []

    def script(*values: int) -> list[int]:
        queue.extend(values)
        return queue

    with planned(queue):
        yield script
