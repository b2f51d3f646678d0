"""Blocking a player through HTTP: no chat, no invitation, no seek and no quick pairing
between the two, either way, until the block is lifted."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import Block
from tests.chat.conftest import say, texts
from tests.support import Seat, assert_error

pytestmark = pytest.mark.django_db

PAIRING = "/api/v1/pairing/"


def block(seat: Seat, name: str):
    return seat.client.post(f"/api/v1/accounts/users/{name}/block/")


def test_block_and_unblock(alice: Seat, bob: Seat) -> None:
    url = "/api/v1/accounts/users/bob/block/"
    assert alice.client.get(url).json() == {"username": "bob", "blocked": False}
    response = block(alice, "BOB")  # names in any case
    assert response.status_code == 200 and response.json() == {"username": "bob",
                                                               "blocked": True}
    assert block(alice, "bob").status_code == 200  # again: nothing changes
    assert Block.objects.count() == 1
    assert alice.client.delete(url).json() == {"username": "bob", "blocked": False}
    assert not Block.objects.exists()


def test_bad_blocks(alice: Seat, api) -> None:
    assert_error(block(alice, "alice"), 400, "validation_error")
    assert_error(block(alice, "nobody"), 404, "not_found")
    assert_error(api.post("/api/v1/accounts/users/alice/block/"), 401, "not_authenticated")


def test_a_blocked_player_lines_are_refused_both_ways(alice: Seat, bob: Seat,
                                                     active_match: int) -> None:
    assert say(bob, active_match, "before").status_code == 201
    block(alice, "bob")
    assert_error(say(bob, active_match, "hello?"), 403, "blocked")
    assert_error(say(alice, active_match, "bye"), 403, "blocked")
    assert texts(alice, active_match) == []  # nor does she read his lines any more


def test_a_blocked_player_lines_are_hidden_in_the_spectators_room(
        alice: Seat, seat: Callable[..., Seat], active_match: int) -> None:
    carol, dave = seat("carol"), seat("dave")
    assert say(dave, active_match, "hi all", "spectators").status_code == 201
    block(carol, "dave")
    assert texts(carol, active_match, "spectators") == []
    assert texts(dave, active_match, "spectators") == ["hi all"]


def test_invitations_and_seeks_are_refused(alice: Seat, bob: Seat) -> None:
    block(bob, "alice")
    assert_error(alice.create(opponent="bob"), 403, "blocked", opponent="bob")
    assert_error(bob.create(opponent="alice"), 403, "blocked", opponent="alice")
    seek = alice.create().json()["id"]
    assert_error(bob.post(seek, "join"), 403, "blocked")
    bob.client.delete("/api/v1/accounts/users/alice/block/")
    assert alice.create(opponent="bob").status_code == 201


def test_quick_pairing_skips_a_blocked_partner(alice: Seat, bob: Seat,
                                               seat: Callable[..., Seat]) -> None:
    block(alice, "bob")
    assert alice.client.post(PAIRING, {"length": 3}, format="json").status_code == 202
    waiting = bob.client.post(PAIRING, {"length": 3}, format="json")
    assert waiting.status_code == 202 and waiting.json()["state"] == "waiting"
    carol = seat("carol")
    paired = carol.client.post(PAIRING, {"length": 3}, format="json")
    assert paired.status_code == 201 and paired.json()["state"] == "paired"
