"""Wake-ups across processes when something is committed.

A *bell* is a named channel: :func:`ring` (after the current transaction commits) or
:func:`send` (now) wakes every :class:`Bell` listening on it, in any process that uses the
same database, with an optional short text. Two uses: the task queue's worker sleeps on
``tasks`` until a computer turn is queued (``games.tasks.enqueue``) instead of polling, and
the live streams' fan-out without Redis hears on ``events`` the changes other processes
commit (the worker's moves), instead of reading the database every
``STREAM_POLL_SECONDS``. A bell is only a wake-up: whoever listens keeps a slower poll as
the fallback, so a lost ring costs time, never correctness.

- **PostgreSQL**: ``NOTIFY`` (``pg_notify(channel, text)``, sent on the connection that
  committed) and ``LISTEN`` on a connection of the bell's own (psycopg 3,
  ``Connection.notifies(timeout=…)``), to ``DOORBELL_DATABASE_URL`` when it is set (the
  primary itself when ``DATABASE_URL`` is a PgBouncer in transaction mode, where a
  session's ``LISTEN`` does not stay on one server connection; it must name the same
  database, or the bell hears nothing). Every listener of the database hears it, on any
  machine. A text over ``MAX_TEXT`` bytes is not sent (listeners get an empty ring).
- **SQLite** (command 1, one machine): Unix datagram sockets in a directory per database
  and channel, ``<tempdir>/nard-bell-<hash of the database path>/<channel>/`` (or under
  ``DOORBELL_DIR``; an in-memory database, the tests', is one process's: its hash takes
  the process id). Each bell binds one socket file there (``<pid>-<random>.sock``);
  sending is one ``sendto`` per socket file, without waiting; a file nobody binds any more
  (a process that died) is removed by the next sender. Nothing to configure, and nothing
  leaves the machine.

Each ring carries its sender's ``origin`` (process id and a random nonce), so a listener
may ignore what its own process sent (the fan-out delivers that in process already).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import select
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections, transaction
from django.utils.crypto import get_random_string
from psycopg import sql

_log = logging.getLogger(__name__)

MAX_TEXT = 7000
"""The longest text a ring carries (PostgreSQL's ``NOTIFY`` takes under 8000 bytes)."""

_NONCE = get_random_string(8)


def origin() -> str:
    """This process's mark on what it sends (a fork gets a new process id)."""
    return f"{os.getpid()}.{_NONCE}"


@dataclass(frozen=True)
class Ring:
    origin: str
    text: str


def _postgres(alias: str = "default") -> bool:
    return connections[alias].vendor == "postgresql"


def _channel_name(channel: str) -> str:
    return f"nard_bell_{channel}"


def _directory(channel: str, alias: str = "default") -> Path:
    base = getattr(settings, "DOORBELL_DIR", "") or tempfile.gettempdir()
    name = str(settings.DATABASES[alias]["NAME"])
    if "mode=memory" in name or name == ":memory:":
        name += f"#{os.getpid()}"  # an in-memory database is this process's alone
    digest = hashlib.sha256(name.encode()).hexdigest()[:12]
    return Path(base) / f"nard-bell-{digest}" / channel


def _encode(text: str, sender: str | None = None) -> str:
    return f"{sender or origin()} {text}"


def _decode(raw: str) -> Ring:
    head, _, text = raw.partition(" ")
    return Ring(head, text)


def ring(channel: str, text: str = "") -> None:
    """Wake ``channel``'s bells once the current transaction commits (at once outside
    one). Never raises: a bell that cannot ring leaves its listeners to their poll."""
    transaction.on_commit(lambda: send(channel, text))


def send(channel: str, text: str = "", *, sender: str | None = None) -> None:
    """Wake ``channel``'s bells now (call it after the commit). ``sender``: the origin
    written on the ring (default :func:`origin`; a test plays another process)."""
    if len(text.encode()) > MAX_TEXT:
        text = ""
    try:
        if _postgres():
            with connections["default"].cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, %s)",
                               [_channel_name(channel), _encode(text, sender)])
        else:
            _send_datagrams(channel, _encode(text, sender).encode())
    except Exception:  # the listeners poll anyway
        _log.warning("doorbell: ringing %s failed", channel, exc_info=True)


def _send_datagrams(channel: str, data: bytes) -> None:
    directory = _directory(channel)
    try:
        paths = [entry.path for entry in os.scandir(directory) if entry.name.endswith(".sock")]
    except FileNotFoundError:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
        out.setblocking(False)
        for path in paths:
            try:
                out.sendto(data, path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):  # nobody binds it any more
                    os.unlink(path)
            except OSError:  # its buffer is full: that listener is awake already
                continue


class Bell:
    """One listener of ``channel``. Bind it *before* looking for work, then ``wait`` after
    finding none: a ring in between is not lost. Not thread-safe; close it when done."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self._conn: Any = None
        self._sock: socket.socket | None = None
        self._path: str | None = None
        if _postgres():
            self._listen()
        else:
            self._bind()

    # PostgreSQL
    def _listen(self) -> None:
        url = settings.DOORBELL_DATABASE_URL
        if url:  # past the pooler (module docstring)
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
        else:
            params = connections["default"].get_connection_params()
            for key in ("cursor_factory", "context", "prepare_threshold",
                        "server_side_binding"):
                params.pop(key, None)
            self._conn = psycopg.connect(**params, autocommit=True)
        self._conn.execute(sql.SQL("LISTEN {}").format(
            sql.Identifier(_channel_name(self.channel))))

    # SQLite: a datagram socket in the channel's directory
    def _bind(self) -> None:
        directory = _directory(self.channel)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{os.getpid()}-{get_random_string(8)}.sock"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(path))
        sock.setblocking(False)
        self._sock, self._path = sock, str(path)

    def wait(self, timeout: float) -> list[Ring]:
        """The rings heard within ``timeout`` seconds: as soon as one comes (with any
        others already waiting), or ``[]`` after the timeout."""
        if self._conn is not None:
            heard = [n.payload for n in self._conn.notifies(timeout=timeout, stop_after=1)]
            if heard:  # and whatever else is waiting, without blocking
                heard += [n.payload for n in self._conn.notifies(timeout=0.001)]
            return [_decode(raw) for raw in heard]
        assert self._sock is not None
        ready, _, _ = select.select([self._sock], [], [], max(timeout, 0))
        rings = []
        while ready:
            try:
                rings.append(_decode(self._sock.recv(65536).decode()))
            except BlockingIOError:
                break
        return rings

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
            with contextlib.suppress(OSError):
                os.unlink(str(self._path))

    def __enter__(self) -> Bell:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["MAX_TEXT", "Bell", "Ring", "origin", "ring", "send"]
