"""How committed changes reach every open stream of every server process.

:func:`committed` is the after-commit listener (``games.notify``): it turns one committed
change into one :class:`live.reads.Message` — the match's events as the JSON of
``events/`` and each account's items (:mod:`live.kinds`) — and publishes it once:

- without ``REDIS_URL``, in process: to the :class:`Hub` of every event loop of this
  process, with ``loop.call_soon_threadsafe`` (the publisher is a request thread);
- with ``REDIS_URL``, to one Redis pub/sub channel. Each process reads it over **one**
  subscription per event loop, multiplexed to its streams by match and account. If the
  publish fails the message is still delivered in this process, and the streams of the
  others catch up from the database when their subscription comes back.

- without ``REDIS_URL``, also to the other processes using the database (the task queue's
  worker commits the computer's moves in a process of its own): on the ``events``
  doorbell (:mod:`nard_site.doorbell`: ``NOTIFY`` on PostgreSQL, Unix datagrams on
  SQLite), whose listener thread in each serving process hands the message to its hubs.
  A message too long for a ring arrives as an empty one: every stream of the process
  reads the database.

Streams never trust the fan-out alone: a match's events are numbered without gaps, so a
stream drops what it has sent (``seq`` ≤ the last sent) and fetches from the database what
it would otherwise skip (a gap), and while the subscription is down it polls the database.
What they read there is :mod:`live.reads`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings

from accounts.models import Notice
from games.models import Event, Match
from live.reads import Message, last_seqs, message, notice_message, page_after
from nard_site import doorbell
from nard_site.cache import breaker
from nard_site.serving import db_call

_log = logging.getLogger(__name__)


def committed(match: Match, events: Sequence[Event]) -> None:
    """The after-commit listener: publish the change to every stream that may want it."""
    if events:
        publish(message(match, events))


def noticed(notice: Notice) -> None:
    """The listener of new notices (``accounts.notices``): to the recipient's streams."""
    publish(notice_message(notice))


# --- publishing ---------------------------------------------------------------------------

_redis_lock = threading.Lock()
_redis_client: Any = None


def _redis() -> Any:
    global _redis_client
    with _redis_lock:
        if _redis_client is None:
            _redis_client = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
        return _redis_client


EVENTS_BELL = "events"
"""The doorbell that carries committed changes between processes without Redis."""


def publish(msg: Message) -> None:
    if not settings.REDIS_URL:
        deliver_locally(msg)
        doorbell.send(EVENTS_BELL, msg.dumps().decode())
        return
    # Don't wait on a dead or hung Redis in every request: the process's breaker of that
    # Redis (shared with the counters' cache) skips it until a probe answers.
    gate = breaker(settings.REDIS_URL)
    if gate.closed:
        try:
            _redis().publish(settings.STREAM_REDIS_CHANNEL, msg.dumps())
            return
        except Exception as exc:  # Redis away: the REST API goes on regardless
            gate.failed(lambda: _redis().ping(), exc)
            _log.warning("live: publish to Redis failed (%s); delivering in process only", exc)
    deliver_locally(msg)


def deliver_locally(msg: Message) -> None:
    for hub in list(_hubs.values()):
        if not hub.loop.is_closed():
            hub.loop.call_soon_threadsafe(hub.deliver, msg)


def _resync_locally() -> None:
    for hub in list(_hubs.values()):
        if not hub.loop.is_closed():
            hub.loop.call_soon_threadsafe(hub._resync_all)


_bell_lock = threading.Lock()
_bell_thread: threading.Thread | None = None
_bell_bound = threading.Event()  # the listener's bell is bound: rings from now on arrive


def _streaming() -> bool:
    return any(hub.count for hub in list(_hubs.values()))


def _hear_others() -> None:
    """Start this process's listener of the ``events`` doorbell, unless it runs. It runs
    while the process has streams (and ``STREAM_BELL_LINGER`` seconds after the last)."""
    global _bell_thread
    with _bell_lock:
        if _bell_thread is None or not _bell_thread.is_alive():
            _bell_thread = threading.Thread(target=_listen, name="live-doorbell", daemon=True)
            _bell_thread.start()


def _listen() -> None:
    """The changes other processes commit, to this process's hubs; the bell made again
    after a failure (the streams poll the database meanwhile)."""
    global _bell_thread
    while True:
        try:
            with doorbell.Bell(EVENTS_BELL) as bell:
                _bell_bound.set()
                idle_since: float | None = None
                while True:
                    for ring in bell.wait(1.0):
                        if ring.origin == doorbell.origin():
                            continue  # delivered in process already
                        if ring.text:
                            deliver_locally(Message.loads(ring.text))
                        else:
                            _resync_locally()
                    if _streaming():
                        idle_since = None
                        continue
                    idle_since = idle_since or time.monotonic()
                    if time.monotonic() - idle_since >= settings.STREAM_BELL_LINGER:
                        with _bell_lock:
                            if not _streaming():
                                _bell_bound.clear()
                                _bell_thread = None
                                return
        except Exception as exc:
            _bell_bound.clear()
            _log.warning("live: the events doorbell failed (%r); streams poll meanwhile", exc)
            time.sleep(1.0)


# --- the hub: one per event loop, the streams of that loop ------------------------------

class Subscription:
    """One stream's inbox: bounded in changes (``STREAM_QUEUE_MAX``) and in bytes
    (``STREAM_BUFFER_BYTES``: a few large changes held for a reader that does not read
    cost as much as many); overflowing marks it for closing (the client resumes with
    ``Last-Event-ID``). Take from it with :meth:`pop`."""

    __slots__ = ("bytes", "hub", "items", "key", "overflowed", "resync", "wake")

    def __init__(self, hub: Hub, key: tuple[str, int]) -> None:
        self.hub, self.key = hub, key
        self.items: deque[Message] = deque()
        self.bytes = 0
        self.wake = asyncio.Event()
        self.overflowed = False
        self.resync = False  # the fan-out may have lost messages: read the database

    def push(self, msg: Message) -> None:
        if self.overflowed:
            return
        size = msg.size
        if (len(self.items) >= settings.STREAM_QUEUE_MAX
                or self.bytes + size > settings.STREAM_BUFFER_BYTES):
            self.overflowed = True
            self.items.clear()
            self.bytes = 0
        else:
            self.items.append(msg)
            self.bytes += size
        self.wake.set()

    def pop(self) -> Message:
        """The oldest message of the inbox (there must be one)."""
        msg = self.items.popleft()
        self.bytes = max(self.bytes - msg.size, 0)
        return msg

    def mark_resync(self) -> None:
        self.resync = True
        self.wake.set()

    async def wait(self, timeout: float) -> bool:
        """Until something is in the inbox (True) or ``timeout`` passed (False)."""
        if self.items or self.overflowed or self.resync:
            return True
        self.wake.clear()
        try:
            await asyncio.wait_for(self.wake.wait(), max(timeout, 0))
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Hub:
    """The streams of one event loop, by match and by account; with ``REDIS_URL``, the
    loop's one Redis subscription (started with the first stream, stopped a while after
    the last one ends)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.subs: dict[tuple[str, int], set[Subscription]] = {}
        self.count = 0
        self.redis = bool(settings.REDIS_URL)
        self.live = asyncio.Event()  # the fan-out is working (always, in process)
        if not self.redis:
            self.live.set()
        self.reader: asyncio.Task[None] | None = None
        self.idle_since: float | None = None
        # The last seq of every match streamed here, read for all of them in one query at
        # most once a second (the heartbeat's check for a lost last event).
        self._seqs: dict[int, int] = {}
        self._seqs_at = float("-inf")
        self._seqs_read: asyncio.Future[dict[int, int]] | None = None
        # The long-polls' page reads under way, shared by those asking the same (Hub.page).
        self._pages: dict[tuple[int, int, int], asyncio.Future[list[str]]] = {}

    @property
    def is_live(self) -> bool:
        return self.live.is_set()

    @property
    def must_poll(self) -> bool:
        """Streams read the database every ``STREAM_POLL_SECONDS``: while Redis is away,
        and always without Redis, since another process (the computer's worker, a second
        server) may commit events this process never hears of."""
        return not self.redis or not self.is_live

    def subscribe(self, kind: str, ident: int) -> Subscription:
        sub = Subscription(self, (kind, ident))
        self.subs.setdefault(sub.key, set()).add(sub)
        self.count += 1
        self.idle_since = None
        if self.redis and self.reader is None:
            self.reader = self.loop.create_task(self._read())
        if not self.redis:
            _hear_others()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        found = self.subs.get(sub.key)
        if found is None or sub not in found:
            return
        found.discard(sub)
        if not found:
            del self.subs[sub.key]
        self.count -= 1
        if self.count == 0:
            self.idle_since = self.loop.time()
            if self.reader is not None and settings.STREAM_REDIS_LINGER <= 0:
                self._stop_reader()

    def _stop_reader(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            self.reader = None
        self.live.clear()

    async def ready(self) -> None:
        """Until the fan-out delivers (its subscription confirmed), or a short while: a
        stream subscribes before it reads the database, so nothing falls in between.
        Without Redis: until the doorbell of other processes' changes is bound."""
        if not self.redis:
            if not _bell_bound.is_set():
                await asyncio.to_thread(_bell_bound.wait, settings.STREAM_READY_TIMEOUT)
            return
        if not self.is_live:  # if Redis is away, the stream polls the database meanwhile
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.live.wait(), settings.STREAM_READY_TIMEOUT)

    async def behind(self, match_id: int, last: int) -> bool:
        """Whether the match's log has events after ``last`` (a stream's heartbeat check):
        one query for every match streamed in this loop, shared by the streams asking
        within a second of it — not one query per stream per heartbeat. A match the last
        read did not cover answers True (the stream reads its log itself)."""
        if self.loop.time() - self._seqs_at >= 1.0:
            if self._seqs_read is None:
                ids = [ident for kind, ident in self.subs if kind == "match"]
                self._seqs_read = asyncio.ensure_future(db_call(lambda: last_seqs(ids)))
            read = self._seqs_read
            try:
                found = await asyncio.shield(read)
            finally:
                if self._seqs_read is read and read.done():
                    self._seqs_read = None
            if self._seqs_at < self.loop.time() - 1.0:
                self._seqs, self._seqs_at = found, self.loop.time()
        return self._seqs.get(match_id, last + 1) > last

    async def page(self, match_id: int, after: int, limit: int) -> list[str]:
        """The log after ``after`` (:func:`live.reads.page_after`), one read shared by
        every long-poll of this loop asking for the same page while it runs."""
        key = (match_id, after, limit)
        read = self._pages.get(key)
        if read is None:
            read = self._pages[key] = asyncio.ensure_future(
                db_call(lambda: page_after(match_id, after, limit)))
            read.add_done_callback(lambda done: self._pages.pop(key, None)
                                   if self._pages.get(key) is done else None)
        return await asyncio.shield(read)

    def deliver(self, msg: Message) -> None:
        for sub in list(self.subs.get(("match", msg.match), ())):
            sub.push(msg)
        for user_id in msg.accounts:
            for sub in list(self.subs.get(("user", user_id), ())):
                sub.push(msg)

    def _resync_all(self) -> None:
        for subs in self.subs.values():
            for sub in subs:
                sub.mark_resync()

    async def _read(self) -> None:
        backoff = settings.STREAM_REDIS_BACKOFF[0]
        connected_before = False
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2,
                                             health_check_interval=10,
                                             client_name=f"nard-live-{os.getpid()}")
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(settings.STREAM_REDIS_CHANNEL)
                # Redis's confirmation: from here on every publish reaches this process.
                confirmed = await pubsub.get_message(timeout=5)
                if confirmed is None or confirmed.get("type") != "subscribe":
                    raise ConnectionError(f"no confirmation of the subscription: {confirmed}")
                self.live.set()
                backoff = settings.STREAM_REDIS_BACKOFF[0]
                if connected_before:
                    _log.info("live: Redis subscription back; streams catch up")
                    self._resync_all()  # what was published while we were away
                connected_before = True
                while True:
                    if self.count == 0 and self.idle_since is not None and (
                            self.loop.time() - self.idle_since >= settings.STREAM_REDIS_LINGER):
                        self.reader = None
                        self.live.clear()
                        return
                    raw = await pubsub.get_message(timeout=1.0)
                    if raw is not None and raw.get("type") == "message":
                        self.deliver(Message.loads(raw["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.is_live:
                    _log.warning("live: Redis subscription lost (%s); streams poll the "
                                 "database until it is back", exc)
                    self.live.clear()
                    self._resync_all()  # wake the streams: they switch to polling
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, settings.STREAM_REDIS_BACKOFF[1])
            finally:
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:
                    pass


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(loop)
        if found is None:
            found = _hubs[loop] = Hub(loop)
        return found
