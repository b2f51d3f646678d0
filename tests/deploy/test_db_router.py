"""The read replica's router (nard_site/db_router.py).

The routing decisions are checked with a spy router over the real one (the queries still
run on the test database); the fallback with a ``replica`` alias that points at a port
nothing listens on. The real replica is exercised by bench/cluster.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import OperationalError, connections
from django.test import override_settings

from nard_site import db_router
from tests.support import Seat, free_port

pytestmark = pytest.mark.django_db

DECISIONS: list[tuple[str, str | None]] = []


class SpyRouter(db_router.ReplicaRouter):
    """Records the real router's choice, then reads the test database anyway."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        DECISIONS.append((model._meta.label, super().db_for_read(model, **hints)))
        return None


SPY = f"{__name__}.SpyRouter"


@pytest.fixture
def replica(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str | None]]]:
    """A configured, answering replica (decisions only)."""
    DECISIONS.clear()
    monkeypatch.setattr(db_router, "replica_enabled", lambda: True)
    monkeypatch.setattr(db_router, "_replica_usable", lambda: True)
    with override_settings(DATABASE_ROUTERS=[SPY]):
        yield DECISIONS


def replica_reads(decisions: list[tuple[str, str | None]]) -> set[str]:
    return {label for label, alias in decisions if alias == "replica"}


def test_match_list_of_a_reader_reads_the_replica(replica: Any, alice: Seat) -> None:
    response = alice.client.get("/api/v1/matches/")
    assert response.status_code == 200
    assert "games.Match" in replica_reads(replica)
    # The token that authenticated the request was read from the primary.
    assert not {label for label in replica_reads(replica) if label.startswith("accounts.")}


def test_match_detail_and_writes_read_the_primary(replica: Any, alice: Seat, bob: Seat
                                                  ) -> None:
    created = alice.create(length=1, opponent="bob", color="white")
    assert created.status_code == 201
    assert replica_reads(replica) == set()
    replica.clear()
    assert bob.client.get(f"/api/v1/matches/{created.json()['id']}/").status_code == 200
    assert replica_reads(replica) == set()


def test_a_player_who_just_wrote_reads_the_primary(replica: Any, alice: Seat, bob: Seat
                                                   ) -> None:
    """The rule: REPLICA_STICKY_SECONDS after any write of a credential, its reads go to
    the primary; another player's reads still go to the replica."""
    assert alice.create(length=1, opponent="bob", color="white").status_code == 201
    replica.clear()
    assert alice.client.get("/api/v1/matches/").status_code == 200
    assert replica_reads(replica) == set()
    replica.clear()
    assert bob.client.get("/api/v1/matches/").status_code == 200
    assert "games.Match" in replica_reads(replica)


def test_the_mark_expires(replica: Any, alice: Seat) -> None:
    with override_settings(REPLICA_STICKY_SECONDS=0):
        alice.client.post("/api/v1/matches/", {}, format="json")
        replica.clear()
        assert alice.client.get("/api/v1/matches/").status_code == 200
    assert "games.Match" in replica_reads(replica)


def test_a_client_without_credential_is_marked_by_a_signed_cookie(replica: Any, api: Any
                                                                   ) -> None:
    api.post("/api/v1/accounts/token/", {"username": "x", "password": "y"}, format="json")
    assert db_router.WROTE_COOKIE in api.cookies
    replica.clear()
    assert api.get("/api/v1/matches/").status_code == 200
    assert replica_reads(replica) == set()
    # A forged (unsigned) cookie does not count, nor does it break the request.
    api.cookies[db_router.WROTE_COOKIE] = "1"
    replica.clear()
    assert api.get("/api/v1/matches/").status_code == 200
    assert "games.Match" in replica_reads(replica)


@pytest.fixture
def dead_replica(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A ``replica`` alias on a port nothing listens on."""
    port = free_port()
    config = connections.configure_settings({"default": {}, "replica": {
        "ENGINE": "django.db.backends.postgresql", "NAME": "nard", "USER": "postgres",
        "HOST": "127.0.0.1", "PORT": str(port), "OPTIONS": {"connect_timeout": 2}}})
    connections.settings["replica"] = config["replica"]
    monkeypatch.setattr(db_router, "replica_enabled", lambda: True)
    monkeypatch.setattr(db_router, "_replica_down_until", 0.0)  # its breaker closed
    try:
        yield
    finally:
        connections["replica"].close()
        del connections["replica"]
        del connections.settings["replica"]


def test_reads_fall_back_to_the_primary_when_the_replica_is_down(
        dead_replica: None, alice: Seat, monkeypatch: pytest.MonkeyPatch) -> None:
    # The test case forbids connecting to an alias it was not set up with: the refusal
    # psycopg would give for the closed port, raised by the connection itself.
    tried: list[int] = []

    def refused() -> None:
        tried.append(1)
        port = connections["replica"].settings_dict["PORT"]
        raise OperationalError(f"connection to 127.0.0.1:{port} refused")

    monkeypatch.setattr(connections["replica"], "ensure_connection", refused)
    DECISIONS.clear()
    with override_settings(DATABASE_ROUTERS=[SPY]):
        response = alice.client.get("/api/v1/matches/")
    assert response.status_code == 200
    assert ("games.Match", "default") in DECISIONS
    assert replica_reads(DECISIONS) == set() and tried == [1]
    # The breaker is open: the next read does not try the replica again.
    DECISIONS.clear()
    with override_settings(DATABASE_ROUTERS=[SPY]):
        assert alice.client.get("/api/v1/matches/").status_code == 200
    assert tried == [1] and replica_reads(DECISIONS) == set()
    # After REPLICA_RETRY_SECONDS it is tried again.
    monkeypatch.setattr(db_router, "_replica_down_until", 0.0)
    with override_settings(DATABASE_ROUTERS=[SPY]):
        assert alice.client.get("/api/v1/matches/").status_code == 200
    assert tried == [1, 1]


def test_without_a_replica_nothing_changes(alice: Seat, api: Any) -> None:
    assert not db_router.replica_enabled()
    response = api.post("/api/v1/accounts/token/", {"username": "x", "password": "y"},
                        format="json")
    assert db_router.WROTE_COOKIE not in response.cookies
    assert alice.client.get("/api/v1/matches/").status_code == 200
    assert db_router.ReplicaRouter().db_for_read(type(alice.user)) is None


def test_writes_and_migrations_use_the_primary() -> None:
    router = db_router.ReplicaRouter()
    from games.models import Match
    assert router.db_for_write(Match) == "default"
    assert router.allow_migrate("replica", "games") is False
    assert router.allow_migrate("default", "games") is True
