"""A tournament's stream: its log as Server-Sent Events, then live.

tournaments sits below live/ in the layers, so it has its own small stream on
:mod:`nard_site.serving` rather than live's fan-out: each open stream asks the cache
every ``TOURNAMENT_STREAM_POLL_SECONDS`` for the tournament's last ``seq`` (set after
each commit that logs an event, :func:`tournaments.services._ring`) and reads the
database only when it has moved — a page followed by a thousand streams costs a
thousand cache reads a second and one database read per stream per event, not a
thousand queries a second. Ends after the ``finished`` event.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder

from nard_site.serving import db_call
from tournaments import selectors
from tournaments.services import seq_key


def frame(data: str, event: str, ident: int) -> bytes:
    return f"id: {ident}\nevent: {event}\ndata: {data}\n\n".encode()


async def tournament_stream(tournament_id: int, after: int, *,
                            once: bool = False) -> AsyncIterator[bytes]:
    """The log after ``after``, then live; ``once``: the log so far only (WSGI)."""
    yield f"retry: {settings.STREAM_RETRY_MS}\n\n".encode()
    loop = asyncio.get_running_loop()
    started = last_write = loop.time()
    last, known = after, -1
    while True:
        seq = await db_call(lambda: cache.get(seq_key(tournament_id)))
        if seq is None or seq != known:
            events = await db_call(functools.partial(selectors.event_list, tournament_id, last))
            for event in events:
                yield frame(json.dumps(event, cls=DjangoJSONEncoder, separators=(",", ":")),
                            event["type"], event["seq"])
                last = event["seq"]
                last_write = loop.time()
                if event["type"] == "finished":
                    return
            if len(events) < 200:
                if seq is None:  # not cached (evicted, or a restart): the log's end is
                    found = last  # what this read saw; a commit's ``set`` overrides it
                    await db_call(functools.partial(cache.add, seq_key(tournament_id), found, None))
                known = seq if seq is not None else last
        if once:
            return
        now = loop.time()
        if now - started >= settings.STREAM_MAX_SECONDS:
            yield b": stream lifetime over: reconnect with Last-Event-ID\n\n"
            return
        if now - last_write >= settings.STREAM_HEARTBEAT_SECONDS:
            yield b": keep-alive\n\n"
            last_write = now
        await asyncio.sleep(settings.TOURNAMENT_STREAM_POLL_SECONDS)
