"""The chat suites' helpers: a match under way between two players, and a spectator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support import Seat


def chat_url(match_id: int, room: str | None = None) -> str:
    return f"/api/v1/matches/{match_id}/chat/" + (f"?room={room}" if room else "")


def say(seat: Seat, match_id: int, text: Any, room: str | None = None) -> Any:
    return seat.client.post(chat_url(match_id, room), {"text": text}, format="json")


def read(seat: Seat, match_id: int, room: str | None = None) -> Any:
    return seat.client.get(chat_url(match_id, room))


def texts(seat: Seat, match_id: int, room: str | None = None) -> list[str]:
    response = read(seat, match_id, room)
    assert response.status_code == 200, response.content
    return [line["text"] for line in response.json()["lines"]]


@pytest.fixture
def active_match(alice: Seat, bob: Seat) -> int:
    """An active match, alice White, bob Black (invited and joined)."""
    created = alice.create(opponent="bob", color="white")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    bob.ok(match_id, "join")
    return match_id


@pytest.fixture
def staff(seat: Callable[..., Seat]) -> Seat:
    moderator = seat("mod")
    moderator.user.is_staff = True
    moderator.user.save(update_fields=["is_staff"])
    return moderator
