"""Notices on the account stream (GET stream/): the unread ones when it connects, then
each new one — a challenge received, or any module's — as a ``notice`` item."""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.services import notice_create, notices_mark_read
from tests.streams.conftest import db, open_stream, run, token_of

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/stream/"


def test_a_challenge_is_heard_as_a_notice_and_an_invitation(alice: Any, bob: Any) -> None:
    key = token_of(bob.user)

    async def scenario() -> list[tuple[str, dict[str, Any]]]:
        reader = await open_stream(URL, Authorization=f"Token {key}")
        made = await db(alice.create)(length=1, opponent="bob", color="white")
        got = []
        for _ in range(2):
            event = await reader.next()
            assert event is not None
            got.append((event["event"], json.loads(event["data"])))
        await reader.close()
        got.append(("match", made.json()))
        return got

    got = run(scenario)
    match_id = got[-1][1]["id"]
    by_kind = dict(got[:2])
    assert set(by_kind) == {"invitation", "notice"}
    notice = by_kind["notice"]
    assert notice["kind"] == "challenge" and notice["read_at"] is None
    assert notice["type"] == "notice"
    assert notice["data"]["match"] == match_id and notice["data"]["by"] == "alice"


def test_unread_notices_wait_for_a_stream_then_new_ones_follow(alice: Any, settings: Any
                                                                ) -> None:
    settings.STREAM_POLL_SECONDS = 60  # no polling within the test: the push brings it
    read = notice_create(recipient=alice.user, kind="tournament_started", data={"t": 1})
    notices_mark_read(user=alice.user, ids=[read.pk])
    waiting = notice_create(recipient=alice.user, kind="moderation_decision", data={"r": 2})
    key = token_of(alice.user)

    async def scenario() -> list[dict[str, Any]]:
        reader = await open_stream(URL, Authorization=f"Token {key}")
        first = await reader.next()
        await db(notice_create)(recipient=alice.user, kind="review_finished",
                                data={"match": 5})
        second = await reader.next()
        await reader.close()
        assert first is not None and second is not None
        assert first["event"] == second["event"] == "notice"
        return [json.loads(first["data"]), json.loads(second["data"])]

    first, second = run(scenario)
    assert (first["id"], first["kind"], first["data"]) == (
        waiting.pk, "moderation_decision", {"r": 2})
    assert (second["kind"], second["data"]) == ("review_finished", {"match": 5})
    assert second["id"] > waiting.pk
    # Typed as every account item, the one waiting and the one pushed alike.
    assert first["type"] == second["type"] == "notice"
