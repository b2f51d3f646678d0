"""Streams under test: Django's AsyncClient driven from sync tests (``run``), so every
database call of the stream lands on the test's own thread and connection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from accounts.services import token_obtain

TIMEOUT = 10.0  # generous: a failure shows as a timeout, never a wrong answer


@pytest.fixture(autouse=True)
def _stream_settings(settings: Any) -> None:
    settings.STREAM_REDIS_LINGER = 0  # the subscription ends with the test's last stream
    settings.REDIS_URL = ""


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    return async_to_sync(scenario)()


def token_of(user: Any) -> str:
    return token_obtain(user=user).key


class Reader:
    """Reads a streaming answer as SSE: events (dicts of the fields) and comments."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.body: AsyncIterator[bytes] = aiter(response.streaming_content)
        self.buffer = ""
        self.ignore: set[str] = set()  # event kinds next() passes over

    async def _block(self) -> str | None:
        while "\n\n" not in self.buffer:
            try:
                chunk = await asyncio.wait_for(anext(self.body), TIMEOUT)
            except StopAsyncIteration:
                return None
            self.buffer += chunk.decode()
        block, self.buffer = self.buffer.split("\n\n", 1)
        return block

    async def next(self, *, comments: bool = False) -> dict[str, str] | None:
        """The next event (``None`` at the end); comments and ``retry:`` are skipped
        unless ``comments``, which answers them as ``{"comment": text}``."""
        while True:
            block = await self._block()
            if block is None:
                return None
            fields: dict[str, str] = {}
            for line in block.split("\n"):
                name, _, value = line.partition(":")
                fields[name or "comment"] = value[1:] if value.startswith(" ") else value
            if fields.get("event") in self.ignore:
                continue
            if "data" in fields or (comments and "comment" in fields):
                return fields

    async def rest(self) -> list[dict[str, str]]:
        found = []
        while (event := await self.next()) is not None:
            found.append(event)
        return found

    async def close(self) -> None:
        """The client goes away: the stream's generator is closed, then the response (as
        the server does; the test client's wrapper does both)."""
        await self.body.aclose()  # type: ignore[attr-defined]
        await self.response._iterator.aclose()


async def open_stream(path: str, client: AsyncClient | None = None, **headers: str) -> Reader:
    """Open ``path`` (headers by name: ``open_stream(url, **{"Last-Event-ID": "3"})``)."""
    response = await (client or AsyncClient()).get(path, headers=headers)
    assert response.status_code == 200, (response.status_code, getattr(response, "content", ""))
    assert response["Content-Type"].startswith("text/event-stream")
    reader = Reader(response)
    # The first chunk, the retry hint, comes once the stream has subscribed: what is
    # committed from here on reaches it (as soon as a server sends the headers).
    first = await asyncio.wait_for(anext(reader.body), TIMEOUT)
    assert first.startswith(b"retry: "), first
    return reader


def db(fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A sync helper (services, the test client) callable from the scenario."""
    return sync_to_async(fn)
