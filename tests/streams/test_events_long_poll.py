"""GET matches/{id}/events/: a bounded page (limit, Link: next) and the long-poll ?wait=."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.test import AsyncClient

from games.models import Event, Match
from tests.streams.conftest import TIMEOUT, db, run
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
