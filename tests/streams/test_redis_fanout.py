"""With REDIS_URL: one subscription per process, and Redis going away and coming back.
Runs where Redis is up at 127.0.0.1:6379 (CI starts it)."""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import pytest

from live import transports
from tests.streams.conftest import TIMEOUT, db, open_stream, run, token_of
from tests.support import start_match

pytestmark = pytest.mark.django_db(transaction=True)
REDIS = "redis://127.0.0.1:6379/0"


def redis_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS, socket_connect_timeout=0.5).ping())
    except Exception:
        return False


@pytest.fixture
def channel(settings: Any) -> str:
    if not redis_up():
        pytest.skip("Redis is not running at 127.0.0.1:6379")
    settings.REDIS_URL = REDIS
    settings.STREAM_REDIS_CHANNEL = f"nard_site:test:{uuid.uuid4().hex}"
    transports._redis_client = None
    return settings.STREAM_REDIS_CHANNEL


def subscribers(channel: str) -> int:
    import redis

    return dict(redis.Redis.from_url(REDIS).pubsub_numsub(channel))[channel.encode()]


async def until(condition: Any) -> None:
    """Wait for a condition (checked every 10 ms), at most TIMEOUT."""
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.fixture
def match_id(alice: Any, bob: Any, scripted_dice: Any) -> int:
    return start_match(alice, bob, length=7, script=scripted_dice)["id"]


def test_one_subscription_for_all_the_streams_of_a_process(
        channel: str, match_id: int, alice: Any, bob: Any, monkeypatch: Any) -> None:
    count = bob.client.get(f"/api/v1/matches/{match_id}/events/").json()[-1]["seq"]
    key = token_of(alice.user)
    local: list[Any] = []
    monkeypatch.setattr(transports, "deliver_locally", local.append)  # only Redis delivers

    async def scenario() -> None:
        url = f"/api/v1/matches/{match_id}/stream/?after={count}"
        readers = [await open_stream(url), await open_stream(url),
                   await open_stream("/api/v1/stream/", Authorization=f"Token {key}")]
        assert await db(subscribers)(channel) == 1
        await readers[2].next()  # alice's turn to roll, on connect
        await db(bob.ok)(match_id, "resign")
        for reader in readers[:2]:
            assert (await reader.next())["id"] == str(count + 1)
        assert (await readers[2].next())["event"] == "game_over"  # through Redis too
        for reader in readers:
            await reader.close()
        await until(lambda: transports.hub().reader is None)

    run(scenario)
    assert subscribers(channel) == 0 and local == []


def test_the_subscription_comes_back_and_streams_catch_up(
        channel: str, match_id: int, bob: Any, monkeypatch: Any) -> None:
    import redis

    count = bob.client.get(f"/api/v1/matches/{match_id}/events/").json()[-1]["seq"]

    def ours() -> set[str]:  # this process's subscriber connections, by id
        return {client["id"] for client in redis.Redis.from_url(REDIS).client_list()
                if client.get("name") == f"nard-live-{os.getpid()}"}

    def cut() -> None:  # this process's subscriber connection, and no one else's
        admin = redis.Redis.from_url(REDIS)
        for ident in ours():
            admin.client_kill_filter(_id=ident)

    async def scenario() -> list[int]:
        reader = await open_stream(f"/api/v1/matches/{match_id}/stream/?after={count}")
        hub = transports.hub()
        before = await db(ours)()
        real = transports.publish
        monkeypatch.setattr(transports, "publish", lambda msg: None)  # lost in the outage
        await db(cut)()
        await db(bob.ok)(match_id, "resign")
        monkeypatch.setattr(transports, "publish", real)
        # Reconnected, with backoff: a new connection (made after the loss was seen), then
        # its subscription confirmed.
        async with asyncio.timeout(TIMEOUT):
            while not (await db(ours)() - before and hub.is_live):
                await asyncio.sleep(0.01)
        got = [await reader.next(), await reader.next()]  # from the database, on resync
        await db(bob.ok)(match_id, "resign")  # and live again
        got.append(await reader.next())
        await reader.close()
        return [int(e["id"]) for e in got]

    seqs = run(scenario)
    assert seqs[:2] == [count + 1, count + 2] and seqs[2] > seqs[1]
    assert seqs == sorted(set(seqs))


def test_without_redis_streams_poll_and_the_api_keeps_working(
        settings: Any, match_id: int, bob: Any, monkeypatch: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.STREAM_READY_TIMEOUT = 0.05
    settings.STREAM_POLL_SECONDS = 0.05
    transports._redis_client = None
    count = bob.client.get(f"/api/v1/matches/{match_id}/events/").json()[-1]["seq"]
    monkeypatch.setattr(transports, "deliver_locally", lambda msg: None)  # only the database

    async def scenario() -> list[str]:
        reader = await open_stream(f"/api/v1/matches/{match_id}/stream/?after={count}")
        await db(bob.ok)(match_id, "resign")  # publishing fails quietly: 200 all the same
        got = [await reader.next(), await reader.next()]
        await reader.close()
        return [e["id"] for e in got]

    assert run(scenario) == [str(count + 1), str(count + 2)]
    transports._redis_client = None


def test_a_review_that_ends_unannounced_ends_its_streams_at_a_heartbeat(
        channel: str, alice: Any, bob: Any, scripted_dice: Any, settings: Any) -> None:
    """With Redis the streams do not poll: one held open by a finished match's review reads
    the log at each heartbeat, so a review whose last event never came (its logging
    failed) ends the stream then, not after STREAM_MAX_SECONDS."""
    from reviews.models import Analysis

    settings.STREAM_HEARTBEAT_SECONDS = 0.2
    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    bob.ok(match_id, "resign")
    last = bob.client.get(f"/api/v1/matches/{match_id}/events/").json()[-1]["seq"]
    analysis = Analysis.objects.create(match_id=match_id, depth=0)

    async def scenario() -> list[dict[str, str]]:
        reader = await open_stream(f"/api/v1/matches/{match_id}/stream/?after={last}")
        assert transports.hub().is_live and not transports.hub().must_poll
        beat = await reader.next(comments=True)
        assert beat == {"comment": "keep-alive"}  # held open by the review
        analysis.state = Analysis.State.FAILED
        await db(analysis.save)()
        async with asyncio.timeout(TIMEOUT):  # keep-alives would go on for an hour
            return await reader.rest()  # ends by itself at the next heartbeat

    assert run(scenario) == []
