"""GET matches/{id}/stream/?snapshots=1: the match's full state on connecting and after
each change, so a client that follows the stream needs no GET; step events carry the
position after the step; the stream's refusals name the right field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.streams.conftest import db, open_stream, run, token_of
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def stream_url(match_id: int, query: str = "") -> str:
    return f"/api/v1/matches/{match_id}/stream/" + (f"?{query}" if query else "")


def without_presence(match: dict[str, Any]) -> dict[str, Any]:
    """A match answer without what changes by itself (who was seen lately)."""
    return {**match, "state": {k: v for k, v in match["state"].items() if k != "presence"}}


@pytest.fixture
def match_id(alice: Any, bob: Any, scripted_dice: Any) -> int:
    scripted_dice(6, 1, 3, 1)  # White wins the roll-off, then rolls 3-1
    return start_match(alice, bob, length=1)["id"]


def test_a_state_on_connecting_and_after_each_change(match_id: int, alice: Any) -> None:
    key = token_of(alice.user)
    log = alice.client.get(f"/api/v1/matches/{match_id}/events/").json()

    async def scenario() -> list[dict[str, str]]:
        reader = await open_stream(stream_url(match_id, "snapshots=1"),
                                   Authorization=f"Token {key}")
        got = [await reader.next() for _ in range(len(log) + 1)]
        await db(alice.ok)(match_id, "roll")
        got += [await reader.next() for _ in range(2)]
        first = json.loads(got[-1]["data"])["data"]["state"]["legal_steps"][0]
        await db(alice.move)(match_id, (first["from"], first["to"]))
        got += [await reader.next() for _ in range(2)]
        await reader.close()
        return got

    got = run(scenario)
    assert [e["event"] for e in got] == [
        *(e["type"] for e in log), "state", "roll", "state", "step", "state"]
    states = [e for e in got if e["event"] == "state"]
    assert all("id" not in e for e in states)  # not in the log: Last-Event-ID stays
    snapshot = json.loads(states[0]["data"])
    assert snapshot["type"] == "state" and snapshot["seq"] == log[-1]["seq"]
    rolled, moved = (json.loads(e["data"]) for e in states[1:])
    assert rolled["seq"] == int(got[-4]["id"]) and moved["seq"] == int(got[-2]["id"])
    assert rolled["data"]["state"]["phase"] == "move"
    assert rolled["data"]["state"]["dice"] == [3, 1]
    # The last snapshot is the match as the reader's GET answers it.
    now = alice.get(match_id)
    assert without_presence(moved["data"]) == without_presence(now)
    assert moved["data"]["state"]["version"] == now["state"]["version"]


def test_no_state_without_asking(match_id: int, alice: Any, bob: Any) -> None:
    log = alice.client.get(f"/api/v1/matches/{match_id}/events/").json()

    async def scenario() -> list[str]:
        reader = await open_stream(stream_url(match_id))
        got = [await reader.next() for _ in range(len(log))]
        await db(bob.ok)(match_id, "resign")
        got += await reader.rest()
        return [e["event"] for e in got]

    assert "state" not in run(scenario)


def test_a_finished_match_ends_with_its_state(match_id: int, alice: Any, bob: Any) -> None:
    bob.ok(match_id, "resign")

    async def scenario() -> list[dict[str, str]]:
        reader = await open_stream(stream_url(match_id, "snapshots=1&after=0"))
        return await reader.rest()

    got = run(scenario)
    assert [e["event"] for e in got][-3:] == ["game_over", "match_over", "state"]
    assert json.loads(got[-1]["data"])["data"]["status"] == "finished"


def test_step_events_carry_the_position_after_them(match_id: int, alice: Any) -> None:
    alice.ok(match_id, "roll")
    state = alice.get(match_id)["state"]
    steps = []
    while state["legal_steps"]:
        step = state["legal_steps"][0]
        answer = alice.move(match_id, (step["from"], step["to"]))
        steps.append(answer)
        state = answer["state"]
        if state["turn"] != "white":
            break
    events = [e for e in alice.client.get(f"/api/v1/matches/{match_id}/events/").json()
              if e["type"] == "step"]
    assert len(events) == len(steps) == 2
    for event, answer in zip(events, steps, strict=True):
        # The board after the step in the mover's (White's) numbering: the moves answer's.
        assert event["data"]["board"]["perspective"] == "white"
        if answer["state"]["turn"] == "white":
            assert event["data"]["board"] == answer["state"]["board"]
            assert event["data"]["position_id"] == answer["state"]["position_id"]
    assert events[0]["data"]["board"] != events[1]["data"]["board"]


def test_refusals_name_their_field(match_id: int, api: Any) -> None:
    url = stream_url(match_id)
    assert_error(api.get(url, HTTP_LAST_EVENT_ID="abc"), 400, "validation_error")
    assert "Last-Event-ID" in api.get(url, HTTP_LAST_EVENT_ID="abc").json()["error"]["details"]
    refused = api.get(url, {"format": "json"})
    assert_error(refused, 400, "validation_error")
    assert "format" in refused.json()["error"]["details"]
    assert_error(api.get(url, {"snapshots": "perhaps"}), 400, "validation_error")
    assert "snapshots" in api.get(url, {"snapshots": "perhaps"}).json()["error"]["details"]
    assert_error(api.get("/api/v1/stream/", {"format": "json"}), 401, "not_authenticated")
