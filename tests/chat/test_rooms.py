"""The registry of kinds of rooms: a module above chat gives its places rooms through
``chat.rooms.register`` and chat's URL for them works; unregistered, 404. (The
tournaments register the real ``tournament`` kind: tests/tournaments/test_chat.py; here
a stand-in takes its place for a test and gives it back.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chat import rooms
from games.exceptions import PermissionDenied
from tests.support import Seat, assert_error

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/{}/chat/"


class Place:
    def __init__(self, pk: int, members: set[int]) -> None:
        self.pk, self.members, self.logged = pk, members, []


@pytest.fixture
def places(alice: Seat) -> Iterator[dict[int, Place]]:
    known = {7: Place(7, {alice.user.pk})}

    def may_write(user: Any, place: Place, room: str) -> None:
        if user.pk not in place.members:
            raise PermissionDenied("Only the tournament's players write here.")

    def log(place: Place, line: Any) -> int:
        place.logged.append(line.text)
        return len(place.logged)

    real = rooms.get("tournament")
    rooms.register("tournament", find=known.get, may_read=lambda viewer, place, room: True,
                   may_write=may_write, log=log)
    try:
        yield known
    finally:
        _restore("tournament", real)


def _restore(kind: str, real: rooms.RoomKind | None) -> None:
    rooms.unregister(kind)
    if real is not None:
        rooms.register(kind, rooms=real.rooms, find=real.find, may_read=real.may_read,
                       may_write=real.may_write, counterparts=real.counterparts, log=real.log)


def test_a_registered_kind_has_its_rooms(alice: Seat, bob: Seat,
                                         places: dict[int, Place]) -> None:
    said = alice.client.post(URL.format(7), {"text": "good luck all"}, format="json")
    assert said.status_code == 201 and said.json()["room"] == "main"
    assert places[7].logged == ["good luck all"]
    room = bob.client.get(URL.format(7)).json()
    assert (room["kind"], room["id"], room["room"]) == ("tournament", 7, "main")
    assert [line["text"] for line in room["lines"]] == ["good luck all"]
    assert_error(bob.client.post(URL.format(7), {"text": "hi"}, format="json"), 403,
                 "permission_denied")
    assert_error(alice.client.get(URL.format(8)), 404, "not_found")
    assert_error(alice.client.get(URL.format(7) + "?room=players"), 400, "validation_error")


def test_without_a_provider_tournament_rooms_are_404(alice: Seat) -> None:
    real = rooms.get("tournament")
    rooms.unregister("tournament")
    try:
        assert_error(alice.client.get(URL.format(7)), 404, "not_found")
    finally:
        _restore("tournament", real)
