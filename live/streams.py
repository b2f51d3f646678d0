"""The streams themselves: async generators of Server-Sent Events, one coroutine each.

A match stream subscribes to the fan-out *before* it reads the database, then sends
the log after ``after`` from the database, then live events — dropping those it has sent
(``seq`` ≤ the last sent) and reading the database again when one would skip a number, the
fan-out says it may have lost messages (Redis reconnected), or, while it is down, every
``STREAM_POLL_SECONDS``. So every event after ``after`` is sent exactly once, in order,
whatever the fan-out does. Database reads run off the event loop
(:func:`nard_site.serving.db_call`).

The database out of reach (a lost or refused connection) does not end a stream: it sends
``: database unavailable`` and reads again every ``STREAM_DB_RETRY_SECONDS`` (keep-alives
meanwhile), from the last ``seq`` it sent — so nothing is lost or sent twice, and a browser's
EventSource (which gives up on a 503 when it reconnects) need not reconnect at all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError

from live import kinds, reads, transports
from live.reads import render
from live.transports import Subscription
from nard_site.serving import db_call

_log = logging.getLogger(__name__)
DB_DOWN = (OperationalError, InterfaceError)  # the connection lost or refused: retry


def db_retry_seconds() -> float:
    return float(getattr(settings, "STREAM_DB_RETRY_SECONDS", 1.0))


async def db_down(exc: BaseException) -> bytes:
    """Log, wait a little, and the comment that tells the client the stream goes on."""
    _log.warning("live: database unavailable (%r); the stream retries", exc)
    await asyncio.sleep(db_retry_seconds())
    return comment("database unavailable: retrying")


def frame(data: str, event: str | None = None, ident: int | None = None) -> bytes:
    """One SSE event; ``data`` is one line of JSON (the API's JSON never has a newline)."""
    head = "" if ident is None else f"id: {ident}\n"
    head += "" if event is None else f"event: {event}\n"
    return f"{head}data: {data}\n\n".encode()


def chunks(page: list[tuple[int, str, str]]) -> Iterator[tuple[bytes, int]]:
    """``page``'s frames joined into chunks of about ``STREAM_BUFFER_BYTES`` at most (one
    frame larger than that alone), each with the last ``seq`` it holds."""
    limit = settings.STREAM_BUFFER_BYTES
    parts: list[bytes] = []
    size = last = 0
    for seq, type_, data in page:
        one = frame(data, type_, seq)
        if parts and size + len(one) > limit:
            yield b"".join(parts), last
            parts, size = [], 0
        parts.append(one)
        size += len(one)
        last = seq
    if parts:
        yield b"".join(parts), last


def comment(text: str) -> bytes:
    return f": {text}\n\n".encode()


def retry_hint() -> bytes:
    return f"retry: {settings.STREAM_RETRY_MS}\n\n".encode()


async def events_after(match_id: int, after: int,
                       ) -> tuple[list[tuple[int, str, str]], bool, bool]:
    """A page of the log after ``after`` as ``(seq, type, json)``, whether the stream ends
    after it (the match over and no review of it to come; read first: if so, the page read
    after it holds the last events), and whether only a review of the finished match holds
    it open (``held``): :func:`live.reads.log_after`, off the event loop."""
    return await db_call(lambda: reads.log_after(match_id, after))


class Clock:
    """When the stream last wrote: a comment is due ``STREAM_HEARTBEAT_SECONDS`` later."""

    def __init__(self, sub: Subscription) -> None:
        self.loop = sub.hub.loop
        self.started = self.last = self.loop.time()

    def wrote(self) -> None:
        self.last = self.loop.time()

    def until_heartbeat(self) -> float:
        return self.last + settings.STREAM_HEARTBEAT_SECONDS - self.loop.time()

    def expired(self) -> bool:
        return self.loop.time() - self.started >= settings.STREAM_MAX_SECONDS


async def _wait(sub: Subscription, clock: Clock) -> tuple[bool, bool]:
    """Wait for news; answers (woken, heartbeat due). While the fan-out is down the wait
    is at most ``STREAM_POLL_SECONDS``: the caller then reads the database."""
    timeout = clock.until_heartbeat()
    if sub.hub.must_poll:
        timeout = min(timeout, settings.STREAM_POLL_SECONDS)
    woken = await sub.wait(timeout)
    return woken, clock.until_heartbeat() <= 0


QUIET_EVENTS = frozenset({"analysis", "deadline"})
"""Events that change nothing of the match's state: no ``state`` snapshot follows them."""


async def match_stream(match_id: int, after: int, *, once: bool = False,
                       snapshots: bool = False, viewer: Any = None) -> AsyncIterator[bytes]:
    """The match's log after ``after`` as SSE, then live; ends after the match's last event
    (the match over and no game review of it queued or running), after
    ``STREAM_MAX_SECONDS``, or when the client is too slow.
    ``once``: the log so far only (served over WSGI, where a stream would hold a thread).
    ``snapshots``: a ``state`` event (the match as ``viewer`` reads it, no ``id``) after
    the log read on connecting and after each change that moved the match on."""
    hub = transports.hub()
    sub = hub.subscribe("match", match_id)
    stale = snapshots  # the state changed since the last snapshot (or none was sent)

    async def snapshot() -> AsyncIterator[bytes]:
        nonlocal stale
        if not stale:
            return
        try:
            data = await db_call(lambda: reads.state_event(match_id, viewer))
        except DB_DOWN:
            return  # still stale: the next one is sent when the database answers
        stale = False
        if data is not None:
            yield frame(data, "state")

    try:
        await hub.ready()
        clock = Clock(sub)
        yield retry_hint()
        last, read_db, held = after, True, False
        while True:
            if read_db:
                read_db = False
                try:
                    while True:
                        # The backlog a page at a time: the next page is read once the
                        # last is handed to the server, whose send waits while the
                        # client's socket is full — a reader that does not read holds
                        # one page here, never the whole log.
                        page, over, held = await events_after(match_id, last)
                        full = len(page) >= settings.STREAM_BACKLOG_PAGE
                        for chunk, last_sent in chunks(page):
                            yield chunk
                            last = last_sent
                        if snapshots and any(type_ not in QUIET_EVENTS for _, type_, _ in page):
                            stale = True
                        if page:
                            clock.wrote()
                        del page
                        if not full:
                            break
                except DB_DOWN as exc:
                    if once:
                        return
                    yield await db_down(exc)
                    clock.wrote()
                    read_db = True  # from `last`: what was sent is not sent again
                    if clock.expired():
                        return
                    continue
                async for state in snapshot():
                    yield state
                if over or once:
                    return
            if sub.overflowed:
                yield comment("too far behind: reconnect with Last-Event-ID")
                return
            while sub.items and not read_db:
                msg = sub.pop()
                for seq, type_, data in msg.events:
                    if seq <= last:
                        continue  # sent already (from the database, or twice published)
                    if seq > last + 1:
                        read_db = True  # a gap: something did not reach us; the log has it
                        break
                    yield frame(data, type_, seq)
                    last = seq
                    stale = stale or (snapshots and type_ not in QUIET_EVENTS)
                    clock.wrote()
                else:
                    async for state in snapshot():
                        yield state
                    if msg.over and msg.events and msg.events[-1][0] == last:
                        return  # the last event, and no review to come (Message.over)
            if sub.resync:
                sub.resync, read_db = False, True
            if read_db:
                continue
            if clock.expired():
                yield comment("stream lifetime over: reconnect with Last-Event-ID")
                return
            woken, beat = await _wait(sub, clock)
            if beat:
                yield comment("keep-alive")
                clock.wrote()
                # A quiet stream checks the log too: a lost last event (a publish that
                # failed while the subscription stood) waits at most two heartbeats. One
                # query a second serves every stream of the process (Hub.behind). One held
                # open by a review reads it (the review may have ended unannounced).
                try:
                    read_db = held or await hub.behind(match_id, last)
                except DB_DOWN:
                    read_db = True  # the read says so, and retries
            if not woken and hub.must_poll:
                read_db = True  # no fan-out: poll
    finally:
        sub.close()


async def account_stream(user_id: int, *, once: bool = False) -> AsyncIterator[bytes]:
    """The account's items (:mod:`live.kinds`): first what waits for it now, then live.
    Items carry the match ``version``; one of a version already sent is not sent again
    (notices: one of an id already sent, :func:`live.kinds.stamp`)."""
    hub = transports.hub()
    sub = hub.subscribe("user", user_id)
    seen: dict[int, int] = {}  # match id (or kinds.NOTICES) -> the highest version (id) sent
    try:
        await hub.ready()
        clock = Clock(sub)
        yield retry_hint()
        read_db = True
        while True:
            if read_db:
                read_db = False
                try:
                    found = await db_call(lambda: kinds.pending(user_id))
                except DB_DOWN as exc:
                    if once:
                        return
                    yield await db_down(exc)
                    clock.wrote()
                    read_db = True
                    if clock.expired():
                        return
                    continue
                versions: dict[int, int] = {}
                for kind, data in found:
                    key, version = kinds.stamp(kind, data)
                    if version > seen.get(key, 0):
                        yield frame(render(data), kind)
                        clock.wrote()
                        versions[key] = max(version, versions.get(key, 0))
                seen.update(versions)
                if once:
                    return
            if sub.overflowed:
                yield comment("too far behind: reconnect")
                return
            while sub.items:
                msg = sub.pop()
                mine = msg.accounts.get(user_id, ())
                # A change of a version already seen is a repeat — but for the clock's
                # warning, which keeps the version (it is logged once per deadline).
                quiet = bool(mine) and all(kind == "deadline" for kind, _ in mine)
                if msg.version < seen.get(msg.match, 0) or (
                        msg.version == seen.get(msg.match, 0) and not quiet):
                    continue
                seen[msg.match] = msg.version
                for item_kind, item in mine:
                    yield frame(item, item_kind)
                    clock.wrote()
            if sub.resync:
                sub.resync, read_db = False, True
                continue
            if clock.expired():
                yield comment("stream lifetime over: reconnect")
                return
            woken, beat = await _wait(sub, clock)
            if beat:
                yield comment("keep-alive")
                clock.wrote()
            if not woken and hub.must_poll:
                read_db = True
    finally:
        sub.close()


async def wait_for_events(match_id: int, after: int, limit: int,
                          wait: float) -> AsyncIterator[bytes]:
    """The long-poll of ``events/?wait=``: one JSON list, as soon as an event after
    ``after`` exists, or ``[]`` after ``wait`` seconds.

    Woken by the fan-out, it answers from the change's own events (the same JSON as the
    log's) when they follow ``after`` without a gap — no database read. Otherwise (a gap,
    a resync, a poll while the fan-out cannot be trusted) it reads the database through
    the hub, which shares one read among the long-polls of a match asking the same page
    (:meth:`live.transports.Hub.page`) and first asks whether the log has moved at all
    (:meth:`live.transports.Hub.behind`, one query a second for every match of the loop):
    a thousand long-polls on one match cost one read per change, not a thousand."""
    hub = transports.hub()
    sub = hub.subscribe("match", match_id)
    try:
        await hub.ready()
        deadline = hub.loop.time() + wait
        read_db = True
        while True:
            if read_db:
                try:
                    page = await hub.page(match_id, after, limit)
                except DB_DOWN as exc:  # the answer has begun (200): an empty page, ask again
                    _log.warning("live: database unavailable (%r); long-poll answers []", exc)
                    yield b"[]"
                    return
                if page:
                    yield f"[{','.join(page)}]".encode()
                    return
            if hub.loop.time() >= deadline:
                yield b"[]"
                return
            timeout = deadline - hub.loop.time()
            if hub.must_poll:
                timeout = min(timeout, settings.STREAM_POLL_SECONDS)
            woken = await sub.wait(timeout)
            page, read_db = _followers(sub, after, limit)
            if page:
                yield f"[{','.join(page)}]".encode()
                return
            if sub.resync or sub.overflowed:
                sub.resync = sub.overflowed = False
                read_db = True
            if not woken and not read_db and hub.must_poll:
                try:
                    read_db = await hub.behind(match_id, after)
                except DB_DOWN:
                    read_db = True  # the read says so
    finally:
        sub.close()


def _followers(sub: Subscription, after: int, limit: int) -> tuple[list[str], bool]:
    """The events in ``sub``'s inbox that follow ``after`` without a gap (at most
    ``limit``), the inbox emptied; and whether one was missing (read the database)."""
    page: list[str] = []
    last, gap = after, False
    while sub.items:
        msg = sub.pop()
        for seq, _type, data in msg.events:
            if seq <= last or len(page) >= limit:
                continue
            if seq == last + 1:
                page.append(data)
                last = seq
            else:
                gap = True
    return page, gap and not page
