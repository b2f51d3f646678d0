"""A tournament's start reaches its players on their notices (and account streams)."""

from __future__ import annotations

import pytest

from tests.support import Seat

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/tournaments/"
NOTICES = "/api/v1/accounts/me/notifications/"


def test_each_player_hears_that_the_tournament_started(alice: Seat, bob: Seat,
                                                       seat) -> None:
    carol = seat("carol")
    made = alice.client.post(URL, {"name": "Spring cup", "rules": "long_nardy", "length": 1,
                                   "system": "swiss", "rounds": 1}, format="json")
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for player in (alice, bob):
        assert player.client.post(f"{URL}{tid}/join/", {}, format="json").status_code == 200
    assert not alice.client.get(NOTICES).json()["results"]
    started = alice.client.post(f"{URL}{tid}/start/", {}, format="json")
    assert started.status_code == 200, started.content
    for player in (alice, bob):
        notices = [n for n in player.client.get(NOTICES).json()["results"]
                   if n["kind"] == "tournament_started"]
        assert [n["data"] for n in notices] == [{"tournament": tid, "name": "Spring cup"}]
    assert not [n for n in carol.client.get(NOTICES).json()["results"]
                if n["kind"] == "tournament_started"]
