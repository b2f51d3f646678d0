"""One ASGI server for the REST API and the streams: Django's WSGI handler in a thread
pool, and the streams' async bodies on the event loop.

Every request goes through Django's WSGI handler in a fixed pool of threads (as under a
WSGI server's blocking threads: each thread keeps its database connection, persistent as
``DB_CONN_MAX_AGE`` says). When the answer's body is an async iterator — a stream or a
long-poll — the thread is given back at once and the body is sent from the event loop,
one coroutine per open stream; its database reads run in the same pool
(:func:`db_call`). Why not Django's own ASGI handler: it starts a thread per request
(kept for a stream's whole life) and, with one connection object per request, needs a
connection pool instead of persistent connections; both cost the REST path more than
10 % here (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from rest_framework.request import Request

from nard_site.api.errors import error_body

T = TypeVar("T")
_log = logging.getLogger(__name__)
ASYNC_BODIES = "nard_site.async_bodies"  # in the environ: bodies may be async iterators



def is_asgi(request: Request) -> bool:
    """Whether an async body is sent from an event loop (served by :class:`Server`, or
    Django's ASGI handler); under a WSGI server it would hold a thread."""
    return bool(request.META.get(ASYNC_BODIES)) or isinstance(request._request, ASGIRequest)


_pool: contextvars.ContextVar[ThreadPoolExecutor | None] = contextvars.ContextVar(
    "live_pool", default=None)


def _fresh(fn: Callable[[], T]) -> T:
    close_old_connections()  # as at a request's start and end: no dead or stale connection
    try:
        return fn()
    finally:
        close_old_connections()


async def db_call(fn: Callable[[], T]) -> T:
    """Run ``fn`` (database work) off the event loop: in the server's pool when served by
    :class:`Server`, else through ``sync_to_async`` (Django's ASGI handler, tests)."""
    pool = _pool.get()
    if pool is None:
        return await sync_to_async(fn)()
    return await asyncio.get_running_loop().run_in_executor(pool, _fresh, fn)


async def _too_large(send: Any, limit: int) -> None:
    """413 in the error shape (as :class:`nard_site.api.middleware.BodySizeLimitMiddleware`
    answers), the connection closed: the unread rest of the body is not a request."""
    body = json.dumps(error_body("payload_too_large",
                                 f"The request body is larger than {limit} bytes.",
                                 {"limit": limit})).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class Server:
    """The ASGI application: ``Server(get_wsgi_application(), threads=4)``."""

    def __init__(self, wsgi: Callable[..., Any], threads: int) -> None:
        self.wsgi = wsgi
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="django")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    self.pool.shutdown(wait=False)
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        body = await self._body(scope, receive, send)
        if body is None:
            return
        environ = self.environ(scope, body)
        _pool.set(self.pool)
        loop = asyncio.get_running_loop()
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> None:
            started[:] = [status, headers]

        def run() -> tuple[Any, list[bytes] | None]:
            response = self.wsgi(environ, start_response)
            if getattr(response, "is_async", False):
                return response, None  # sent from the loop; closed when done
            try:
                return response, list(response)
            finally:
                close = getattr(response, "close", None)
                if close is not None:
                    close()

        response, chunks = await loop.run_in_executor(self.pool, run)
        status, headers = started
        await send({"type": "http.response.start", "status": int(status.split(" ", 1)[0]),
                    "headers": [(k.lower().encode("latin-1"), v.encode("latin-1"))
                                for k, v in headers]})
        if chunks is not None:
            await send({"type": "http.response.body", "body": b"".join(chunks)})
            return
        try:
            await self._stream(response, receive, send)
        finally:
            try:
                await loop.run_in_executor(self.pool, response.close)
            except RuntimeError:  # the pool is shut down (the server stopping): close here
                response.close()

    @staticmethod
    async def _body(scope: dict[str, Any], receive: Any, send: Any) -> bytes | None:
        """The request's body, or ``None`` when it is not to be served: the client went
        away, or the body is larger than ``MAX_BODY_BYTES`` (``DATA_UPLOAD_MAX_MEMORY_SIZE``)
        — then 413 is sent here, before the body is read (by its ``Content-Length``) or as
        soon as a chunked body passes the limit, so that no worker ever holds more than
        the limit of one request's body."""
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:
            for name, value in scope.get("headers", ()):
                if name.lower() == b"content-length":
                    try:
                        declared = int(value)
                    except ValueError:
                        declared = 0  # Django's parsers answer a bad one
                    if declared > limit:
                        await _too_large(send, limit)
                        return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            if chunk:
                size += len(chunk)
                if limit is not None and size > limit:
                    del chunks[:]
                    await _too_large(send, limit)
                    return None
                chunks.append(chunk)
            if not message.get("more_body"):
                break
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    @staticmethod
    async def _stream(response: Any, receive: Any, send: Any) -> None:
        """Send an async body until it ends or the client goes away (then it is closed,
        which runs its ``finally``: the stream unsubscribes)."""
        body = aiter(response)

        async def pump() -> None:
            try:
                async for chunk in body:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
            except Exception:  # a bug in a body: end the answer properly, not a cut socket
                _log.exception("live: an async body failed; its answer ends here")
            await send({"type": "http.response.body", "body": b""})

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        sender, watcher = asyncio.ensure_future(pump()), asyncio.ensure_future(gone())
        try:
            await asyncio.wait({sender, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sender, watcher):
                task.cancel()
            await asyncio.gather(sender, watcher, return_exceptions=True)
            aclose = getattr(body, "aclose", None)
            if aclose is not None:
                await aclose()

    @staticmethod
    def environ(scope: dict[str, Any], body: bytes) -> dict[str, Any]:
        server = scope.get("server") or ("localhost", 80)
        client = scope.get("client") or ("", 0)
        environ: dict[str, Any] = {
            "REQUEST_METHOD": scope["method"],
            "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
            "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
            "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
            "SERVER_NAME": str(server[0]), "SERVER_PORT": str(server[1]),
            "REMOTE_ADDR": client[0], "REMOTE_PORT": str(client[1]),
            "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
            "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"),
            "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
            "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
            ASYNC_BODIES: True,
        }
        for raw_name, raw_value in scope.get("headers", []):
            name = raw_name.decode("latin-1").upper().replace("-", "_")
            value = raw_value.decode("latin-1")
            if name == "CONTENT_TYPE" or name == "CONTENT_LENGTH":
                environ[name] = value
                continue
            key = f"HTTP_{name}"
            environ[key] = f"{environ[key]},{value}" if key in environ else value
        environ.setdefault("CONTENT_LENGTH", str(len(body)) if body else "")
        return environ
