"""Every instant the API writes has one format: UTC, ISO 8601 with milliseconds and `Z`."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support import assert_error

pytestmark = pytest.mark.django_db

INSTANT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def test_answers_events_and_refusals_write_one_format(alice: Any, bob: Any,
                                                       scripted_dice: Any) -> None:
    created = alice.create(opponent=bob.user.username, color="white", turn_seconds=60)
    match_id = created.json()["id"]
    bob.ok(match_id, "join")
    scripted_dice(6, 1)
    alice.ok(match_id, "roll")
    match = bob.ok(match_id, "roll")
    assert INSTANT.match(match["created_at"]), match["created_at"]
    assert INSTANT.match(match["state"]["deadline"]), match["state"]["deadline"]
    for event in alice.client.get(alice.url(match_id, "events")).json():
        assert INSTANT.match(event["at"]), event
    # Black waits for White, whose deadline has not passed: the refusal says when it does.
    refused = assert_error(bob.post(match_id, "claim"), 409, "wrong_phase")
    assert refused["details"]["reason"] == "not_late"
    assert refused["details"]["deadline"] == match["state"]["deadline"]
    profile = alice.client.get("/api/v1/accounts/me/").json()
    assert INSTANT.match(profile["date_joined"]), profile["date_joined"]

