"""A tournament's chat room through HTTP: the tournaments give their places a room among
chat's kinds, each line is also a ``chat`` event of the tournament's log, and a finished
tournament's room is closed; chat's own rules (guests kept out of public rooms) apply."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.support import Seat, assert_error
from tournaments.models import Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/"


def chat(tid: int) -> str:
    return f"{URL}{tid}/chat/"


def made(seat: Seat, **body: Any) -> int:
    response = seat.client.post(URL, {"name": "Cup", "rules": "long_nardy", "length": 1,
                                      "system": "swiss", "rounds": 1, **body}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_a_tournament_room_logs_its_lines_as_tournament_events(alice: Seat, bob: Seat,
                                                               api: APIClient) -> None:
    tid = made(alice)
    said = bob.client.post(chat(tid), {"text": "good luck all"}, format="json")
    assert said.status_code == 201, said.content
    assert said.json()["room"] == "main"
    room = api.get(chat(tid))
    assert room.status_code == 200
    assert [line["text"] for line in room.json()["lines"]] == ["good luck all"]
    logged = TournamentEvent.objects.get(tournament_id=tid, type="chat")
    assert logged.data == {"line": said.json()["id"], "by": "bob", "text": "good luck all",
                           "plain_links": said.json()["plain_links"]}
    assert Tournament.objects.get(pk=tid).last_event_seq == logged.seq
    assert_error(bob.client.post(chat(tid) + "?room=players", {"text": "x"}, format="json"),
                 400, "validation_error")
    assert_error(bob.client.get(chat(tid + 1000)), 404, "not_found")


def test_a_finished_tournament_room_is_closed(alice: Seat) -> None:
    tid = made(alice)
    Tournament.objects.filter(pk=tid).update(status="finished")
    assert_error(alice.client.post(chat(tid), {"text": "gg"}, format="json"), 409,
                 "chat_closed")


def test_guests_are_kept_out_of_a_tournament_room(alice: Seat, api: APIClient) -> None:
    tid = made(alice)
    guest = api.post("/api/v1/accounts/guest/", {}, format="json")
    assert guest.status_code == 201, guest.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {guest.json()['token']}")
    assert_error(client.post(chat(tid), {"text": "hi"}, format="json"), 403, "chat_guest")
