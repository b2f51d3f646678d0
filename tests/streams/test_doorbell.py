"""The doorbell (nard_site/doorbell.py): a ring reaches every bell of its
channel at once, with its text and sender; and a change another process commits reaches
this process's streams through the ``events`` bell, without a database read."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from django.db import connection

from live import reads, transports
from nard_site import doorbell
from tests.support import doorbell_listener_runs

pytestmark = pytest.mark.django_db(transaction=True)


def send_from_a_thread(text: str, sender: str | None = None) -> None:
    """Another thread's ring (its database connection closed after: PostgreSQL)."""
    from django.db import connections

    try:
        doorbell.send(transports.EVENTS_BELL, text, sender=sender)
    finally:
        connections.close_all()
BOUND = 10.0  # seconds: a failure is a timeout, never a wrong answer


@pytest.fixture(autouse=True)
def _listener_ends() -> Any:
    yield
    deadline = time.monotonic() + BOUND  # it ends with the last stream (STREAM_BELL_LINGER 0)
    while doorbell_listener_runs():
        assert time.monotonic() < deadline, "the doorbell's listener outlived its streams"
        time.sleep(0.05)


def test_a_ring_wakes_every_bell_of_its_channel_with_its_text_and_sender() -> None:
    with doorbell.Bell("t1") as one, doorbell.Bell("t1") as two, doorbell.Bell("t2") as other:
        doorbell.send("t1", "hello")
        for bell in (one, two):
            rings = bell.wait(BOUND)
            assert [(r.origin, r.text) for r in rings] == [(doorbell.origin(), "hello")]
        assert other.wait(0.05) == []  # another channel hears nothing
        assert one.wait(0.05) == []    # a ring is heard once


def test_a_ring_before_the_wait_is_kept_and_a_quiet_wait_ends_empty() -> None:
    with doorbell.Bell("t3") as bell:
        doorbell.send("t3", "early", sender="4242.other")
        doorbell.send("t3")
        rings = bell.wait(BOUND)
        deadline = time.monotonic() + BOUND
        while len(rings) < 2 and time.monotonic() < deadline:
            rings += bell.wait(0.2)
        assert [(r.origin, r.text) for r in rings] == [("4242.other", "early"),
                                                      (doorbell.origin(), "")]
        assert bell.wait(0.01) == []


def test_a_text_too_long_for_a_ring_arrives_as_an_empty_ring() -> None:
    with doorbell.Bell("t4") as bell:
        doorbell.send("t4", "x" * (doorbell.MAX_TEXT + 1))
        assert [r.text for r in bell.wait(BOUND)] == [""]


def _database_url() -> str:
    """The test database's own URL (PostgreSQL), as DOORBELL_DATABASE_URL would give it."""
    from urllib.parse import quote

    conf = connection.settings_dict
    auth = quote(conf["USER"] or "postgres") + (f":{quote(conf['PASSWORD'])}"
                                                if conf["PASSWORD"] else "")
    return (f"postgres://{auth}@{conf['HOST'] or '127.0.0.1'}:{conf['PORT'] or 5432}"
            f"/{conf['NAME']}")


needs_postgres = pytest.mark.skipif(connection.vendor != "postgresql",
                                    reason="LISTEN is PostgreSQL's (CI runs the suite on it)")


@needs_postgres
def test_with_a_doorbell_url_the_bell_listens_there(settings: Any) -> None:
    """Behind PgBouncer the LISTEN goes past it (DOORBELL_DATABASE_URL, the primary);
    the ring is still sent on the default connection."""
    import psycopg

    from tests.support import free_port

    settings.DOORBELL_DATABASE_URL = _database_url()
    with doorbell.Bell("t5") as bell:
        doorbell.send("t5", "past the pooler")
        assert [r.text for r in bell.wait(BOUND)] == ["past the pooler"]
    settings.DOORBELL_DATABASE_URL = f"postgres://postgres@127.0.0.1:{free_port()}/nowhere"
    with pytest.raises(psycopg.OperationalError):  # the URL is what it connects to
        doorbell.Bell("t5")


def test_ring_waits_for_the_commit() -> None:
    from django.db import transaction

    with doorbell.Bell("t5") as bell:
        with transaction.atomic():
            doorbell.ring("t5", "after")
            assert bell.wait(0.05) == []  # not yet: the transaction is open
        assert [r.text for r in bell.wait(BOUND)] == ["after"]


def test_a_change_committed_by_another_process_reaches_this_processs_streams(
        settings: Any) -> None:
    settings.REDIS_URL = ""
    msg = reads.Message(match=987654, version=3, over=False,
                         events=((5, "roll", '{"seq":5}'),), accounts={})

    async def scenario() -> reads.Message:
        hub = transports.hub()  # starts the process's listener of the events bell
        sub = hub.subscribe("match", msg.match)
        try:
            deadline = hub.loop.time() + BOUND
            while not sub.items:  # the listener binds its bell at its own pace: ring again
                assert hub.loop.time() < deadline, "the ring never arrived"
                await asyncio.to_thread(send_from_a_thread, msg.dumps().decode(),
                                        "1.another-process")
                await sub.wait(0.2)
            return sub.items.popleft()
        finally:
            sub.close()

    assert asyncio.run(scenario()) == msg


def test_a_ring_of_this_processs_own_is_not_delivered_twice(settings: Any) -> None:
    settings.REDIS_URL = ""
    own = reads.Message(match=987655, version=1, over=False, events=((1, "roll", "{}"),),
                         accounts={})
    other = reads.Message(match=987655, version=2, over=False, events=((2, "roll", "{}"),),
                           accounts={})

    async def scenario() -> list[reads.Message]:
        hub = transports.hub()
        sub = hub.subscribe("match", own.match)
        try:
            deadline = hub.loop.time() + BOUND
            while not any(m == other for m in sub.items):
                assert hub.loop.time() < deadline, "the ring never arrived"
                await asyncio.to_thread(send_from_a_thread, own.dumps().decode())
                await asyncio.to_thread(send_from_a_thread, other.dumps().decode(),
                                        "1.another-process")
                await sub.wait(0.2)
            return list(sub.items)
        finally:
            sub.close()

    assert own not in asyncio.run(scenario())
