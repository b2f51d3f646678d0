"""A request body larger than ``MAX_BODY_BYTES`` is refused before it is
read — by its ``Content-Length`` at once, a chunked one as soon as it passes the limit —
against the production server (granian, nard_site.asgi): 413 in the error shape, and the
worker's memory does not grow with the body (it grew by ~785 MB under a 400 MB body before).

The worker's peak resident memory is reset (``/proc/<pid>/clear_refs``) before each upload
and read after it (``VmHWM``): buffering the body would raise it by the body's size; the
bound asserted (30 MB) is wide, far below the sizes sent (400 MB, 200 MB)."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import AsgiServer, prepare_database, server_env

MB = 1024 * 1024
GROWTH_BOUND = 30 * MB


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[AsgiServer]:
    env = server_env(Path(tmp_path_factory.mktemp("body")) / "body.sqlite3")
    prepare_database(env, {})
    server = AsgiServer(env, 1)
    try:
        yield server
    finally:
        server.stop()


def memory(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` (the peak) of ``pid``, in bytes."""
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                found[name] = int(value.split()[0]) * 1024
    return found


def reset_peak(pid: int) -> None:
    with open(f"/proc/{pid}/clear_refs", "w") as clear:
        clear.write("5")  # the peak RSS (VmHWM) starts again from the current RSS


def upload(port: int, head: bytes, chunks: Iterator[bytes]) -> tuple[int, bytes, int]:
    """Send ``head`` and then ``chunks`` until the server answers (or the chunks end):
    the status, the answer's body, and how many bytes of body were sent."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sent = 0
    try:
        sock.sendall(head)
        for chunk in chunks:
            if select.select([sock], [], [], 0)[0]:
                break  # the answer has come
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        raw = b""
        deadline = time.monotonic() + 30
        while b"\r\n\r\n" not in raw or len(raw.split(b"\r\n\r\n", 1)[1]) < _length(raw):
            assert time.monotonic() < deadline, raw[:300]
            try:
                part = sock.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            raw += part
    finally:
        sock.close()
    head_part, _, body = raw.partition(b"\r\n\r\n")
    return int(head_part.split()[1]), body, sent


def _length(raw: bytes) -> int:
    for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def blocks(total: int, size: int = 256 * 1024, chunked: bool = False) -> Iterator[bytes]:
    block = b"x" * size
    for _ in range(total // size):
        yield (f"{size:x}\r\n".encode() + block + b"\r\n") if chunked else block


def assert_413(status: int, body: bytes) -> None:
    assert status == 413, (status, body[:300])
    error = json.loads(body)["error"]
    assert error["code"] == "payload_too_large" and error["details"]["limit"] == 256 * 1024


def test_a_400_mb_content_length_is_refused_unread(server: AsgiServer) -> None:
    (worker,) = server.workers()
    reset_peak(worker)
    before = memory(worker)["VmRSS"]
    head = (f"POST /api/v1/matches/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {400 * MB}\r\n\r\n").encode()
    status, body, sent = upload(server.port, head, blocks(400 * MB))
    assert_413(status, body)
    assert memory(worker)["VmHWM"] - before < GROWTH_BOUND, (memory(worker), before, sent)


def test_a_large_chunked_body_is_cut_at_the_limit(server: AsgiServer) -> None:
    (worker,) = server.workers()
    reset_peak(worker)
    before = memory(worker)["VmRSS"]
    head = (b"POST /api/v1/matches/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    status, body, sent = upload(server.port, head, blocks(200 * MB, chunked=True))
    assert_413(status, body)
    assert sent < 200 * MB  # the server answered before the client was done
    assert memory(worker)["VmHWM"] - before < GROWTH_BOUND, (memory(worker), before, sent)


def test_a_body_within_the_limit_is_still_served(server: AsgiServer) -> None:
    """A chunked body under the limit reaches the view (401: no token, not 413)."""
    payload = json.dumps({"length": 1}).encode()
    head = (b"POST /api/v1/matches/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    status, body, _ = upload(server.port, head, iter(
        [f"{len(payload):x}\r\n".encode() + payload + b"\r\n", b"0\r\n\r\n"]))
    assert status == 401, (status, body[:300])
