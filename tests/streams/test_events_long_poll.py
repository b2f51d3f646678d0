"""GET matches/{id}/events/: a bounded page (limit, Link: next) and the long-poll ?wait=."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.db import connection
from django.test import AsyncClient

from games.models import Event, Match
from tests.streams.conftest import TIMEOUT, db, run, token_of
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match_id(alice: Any, bob: Any, scripted_dice: Any) -> int:
    return start_match(alice, bob, length=7, script=scripted_dice)["id"]


def events_url(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/events/"


async def body_of(response: Any) -> list[dict[str, Any]]:
    chunks = [chunk async for chunk in response.streaming_content]
    return json.loads(b"".join(chunks))


def test_long_poll_answers_as_soon_as_an_event_exists(match_id: int, bob: Any,
                                                      api: Any) -> None:
    last = api.get(events_url(match_id)).json()[-1]["seq"]

    async def scenario() -> list[dict[str, Any]]:
        response = await AsyncClient().get(events_url(match_id), {"after": last, "wait": 30})
        assert response.status_code == 200 and response["Content-Type"] == "application/json"
        waiting = asyncio.ensure_future(body_of(response))
        await asyncio.sleep(0)  # the poll is waiting now
        assert not waiting.done()
        await db(bob.ok)(match_id, "resign")
        return await asyncio.wait_for(waiting, TIMEOUT)  # well before the 30 s

    got = run(scenario)
    assert [e["type"] for e in got][:2] == ["resign", "game_over"]
    assert got[0]["seq"] == last + 1


def test_long_poll_answers_empty_after_the_wait(match_id: int, api: Any) -> None:
    last = api.get(events_url(match_id)).json()[-1]["seq"]

    async def scenario() -> list[dict[str, Any]]:
        response = await AsyncClient().get(events_url(match_id), {"after": last, "wait": 1})
        return await asyncio.wait_for(body_of(response), TIMEOUT)

    assert run(scenario) == []


def test_long_poll_with_events_already_there_answers_at_once(match_id: int, api: Any) -> None:
    response = api.get(events_url(match_id), {"after": 1, "wait": 30})
    assert response.status_code == 200
    assert response.json()[0]["seq"] == 2


def test_wait_and_limit_are_bounded(match_id: int, api: Any, settings: Any) -> None:
    url = events_url(match_id)
    for query in ({"wait": 31}, {"wait": -1}, {"wait": "x"}, {"limit": 0},
                  {"limit": 9223372036854775808}, {"limit": settings.EVENTS_PAGE_SIZE + 1},
                  {"after": 2**64}):
        assert_error(api.get(url, query), 400, "validation_error")


def test_a_long_log_comes_a_page_at_a_time(match_id: int, api: Any, settings: Any) -> None:
    settings.EVENTS_PAGE_SIZE = 4
    url = events_url(match_id)
    whole = Event.objects.filter(match_id=match_id).count()
    assert whole > 4
    first = api.get(url)
    assert [e["seq"] for e in first.json()] == [1, 2, 3, 4]
    assert first["Link"].endswith(f'{url}?after=4>; rel="next"')
    seqs: list[int] = []
    link = f"{url}?after=0"
    while link:
        page = api.get(link)
        seqs += [e["seq"] for e in page.json()]
        link = page.get("Link", "").partition("<")[2].partition(">")[0].replace(
            "http://testserver", "")
    assert seqs == list(range(1, whole + 1))
    limited = api.get(url, {"limit": 2, "after": 1})
    assert [e["seq"] for e in limited.json()] == [2, 3] and "after=3" in limited["Link"]
    assert Match.objects.get(pk=match_id).last_event_seq == whole


# --- long-polls count as streams, and wake without a read each -----------------------------


async def waiting_polls(match_id: int, after: int, count: int, **headers: str) -> list[Any]:
    """``count`` long-polls of the match after ``after``, each waiting (its body begun)."""
    polls = []
    for _ in range(count):
        response = await AsyncClient().get(events_url(match_id), {"after": after, "wait": 30},
                                           headers=headers)
        assert response.status_code == 200, response
        polls.append(asyncio.ensure_future(body_of(response)))
    await asyncio.sleep(0.05)
    assert not any(poll.done() for poll in polls)
    return polls


def test_long_polls_count_in_the_per_address_limit(match_id: int, bob: Any, api: Any,
                                                    settings: Any) -> None:
    settings.STREAMS_PER_IP = 3
    last = api.get(events_url(match_id)).json()[-1]["seq"]

    async def scenario() -> None:
        polls = await waiting_polls(match_id, last, 3)
        refused = await AsyncClient().get(events_url(match_id), {"after": last, "wait": 30})
        assert_error(refused, 429, "throttled")
        # An answer at once (nothing to wait for) holds no slot: still served.
        assert (await AsyncClient().get(events_url(match_id))).status_code == 200
        await db(bob.ok)(match_id, "resign")
        await asyncio.wait_for(asyncio.gather(*polls), TIMEOUT)
        # Answered, the long-polls gave their slots back.
        again = await waiting_polls(match_id, last + 100, 3)
        for poll in again:
            poll.cancel()
        await asyncio.gather(*again, return_exceptions=True)

    run(scenario)


def test_long_polls_count_in_the_per_account_limit(match_id: int, alice: Any, api: Any,
                                                    settings: Any) -> None:
    settings.STREAMS_PER_ACCOUNT = 2
    last = api.get(events_url(match_id)).json()[-1]["seq"]
    headers = {"Authorization": f"Token {token_of(alice.user)}"}

    async def scenario() -> None:
        polls = await waiting_polls(match_id, last, 2, **headers)
        refused = await AsyncClient().get(events_url(match_id), {"after": last, "wait": 30},
                                          headers=headers)
        assert_error(refused, 429, "throttled")
        for poll in polls:
            poll.cancel()
        await asyncio.gather(*polls, return_exceptions=True)

    run(scenario)


def event_reads(count: int, match_id: int, bob: Any, last: int) -> tuple[int, list[Any]]:
    """How many queries read the event log from the move to the last long-poll's answer,
    with ``count`` long-polls waiting; and their answers."""
    reads, on = 0, False

    def counting(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal reads
        if on and sql.lstrip().upper().startswith("SELECT") and "games_event" in sql:
            reads += 1
        return execute(sql, params, many, context)

    async def scenario() -> list[Any]:
        nonlocal on
        polls = await waiting_polls(match_id, last, count)
        on = True
        await db(bob.ok)(match_id, "resign")
        return await asyncio.wait_for(asyncio.gather(*polls), TIMEOUT)

    # Every database call of the scenario runs on this thread, with its connection.
    with connection.execute_wrapper(counting):
        answers = run(scenario)
    return reads, answers


def test_a_move_wakes_many_long_polls_without_a_read_each(alice: Any, bob: Any, api: Any,
                                                           scripted_dice: Any) -> None:
    """The reads of the log after a move do not grow with the long-polls waiting on the
    match (one waiting or forty: the same count; before, one read per waiter)."""
    found = []
    for count in (1, 40):
        match_id = start_match(alice, bob, length=7, script=scripted_dice)["id"]
        last = api.get(events_url(match_id)).json()[-1]["seq"]
        reads, answers = event_reads(count, match_id, bob, last)
        assert len(answers) == count
        expected = api.get(events_url(match_id), {"after": last}).json()
        assert all(answer == expected for answer in answers)  # the log's own answer
        found.append(reads)
    assert found[0] == found[1], found
