"""A reader that does not read costs a bounded amount: the backlog is read and sent a page
at a time (``STREAM_BACKLOG_PAGE`` events, in chunks of at most ``STREAM_BUFFER_BYTES``),
and a stream's inbox of live changes is capped in bytes (``STREAM_BUFFER_BYTES``) as well as
in changes (``STREAM_QUEUE_MAX``). Before, a stream read the whole log at once (a long
match's 0.4 MB held per reader until nginx's send_timeout) and its inbox counted changes
only. The figures: bench/slow_readers.py, docs/benchmarks.md."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from live import reads
from live.reads import Message
from live.streams import chunks, frame
from live.transports import Subscription
from tests.streams.conftest import open_stream, run
from tests.support import AsgiServer, call, prepare_database, server_env, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def message(seq: int, size: int) -> Message:
    return Message(match=1, version=seq, over=False,
                   events=((seq, "roll", "x" * size),), accounts={})


class NoHub:
    def unsubscribe(self, sub: Subscription) -> None:
        pass


def test_an_inbox_is_capped_in_bytes(settings: Any) -> None:
    settings.STREAM_QUEUE_MAX = 256
    settings.STREAM_BUFFER_BYTES = 2500
    sub = Subscription(NoHub(), ("match", 1))  # type: ignore[arg-type]
    sub.push(message(1, 1000))
    sub.push(message(2, 1000))
    assert not sub.overflowed and sub.pop().version == 1
    sub.push(message(3, 1000))  # 2,000 bytes held: room
    assert not sub.overflowed
    sub.push(message(4, 1000))  # 3,000: over the cap, though only 3 changes
    assert sub.overflowed and not sub.items


def test_the_backlog_is_read_a_page_at_a_time(alice: Any, bob: Any, scripted_dice: Any,
                                              settings: Any, monkeypatch: Any) -> None:
    match_id = start_match(alice, bob, length=7, script=scripted_dice)["id"]
    total = len(alice.client.get(f"/api/v1/matches/{match_id}/events/").json())
    settings.STREAM_BACKLOG_PAGE = 2
    settings.STREAM_BUFFER_BYTES = 600
    read = reads.log_after
    pages: list[int] = []

    def counted(match: int, after: int) -> Any:
        found = read(match, after)
        pages.append(len(found[0]))
        return found

    monkeypatch.setattr(reads, "log_after", counted)

    async def scenario() -> list[int]:
        reader = await open_stream(f"/api/v1/matches/{match_id}/stream/")
        seqs = [int((await reader.next())["id"]) for _ in range(total)]  # type: ignore[index]
        await reader.close()
        return seqs

    assert run(scenario) == list(range(1, total + 1))
    assert total > 4 and max(pages) == 2 and sum(pages) == total, (total, pages)


def test_the_backlog_is_sent_in_bounded_chunks(settings: Any) -> None:
    settings.STREAM_BUFFER_BYTES = 300
    page = [(seq, "roll", "y" * 90) for seq in range(1, 11)]
    sent = list(chunks(page))
    assert b"".join(chunk for chunk, _ in sent) == b"".join(
        frame(data, type_, seq) for seq, type_, data in page)
    assert all(len(chunk) <= 300 for chunk, _ in sent) and len(sent) > 1
    assert sent[-1][1] == 10


def test_a_long_backlog_over_granian_arrives_whole_in_pages(tmp_path: Path) -> None:
    """The production server: a backlog of many pages and chunks, every event once, in
    order."""
    env = server_env(tmp_path / "pages.sqlite3", STREAM_BACKLOG_PAGE="1",
                     STREAM_BUFFER_BYTES="200")
    tokens = prepare_database(env, {"white": None, "black": None})
    server = AsgiServer(env, 1)
    try:
        port = server.port
        created = call(port, "POST", "/api/v1/matches/", tokens["white"],
                       {"length": 7, "opponent": "black", "color": "white"})
        assert created.status == 201, created.raw
        match_id = created.json["id"]
        assert call(port, "POST", f"/api/v1/matches/{match_id}/join/", tokens["black"],
                    {}).status == 200
        log = call(port, "GET", f"/api/v1/matches/{match_id}/events/").json
        assert len(log) >= 3
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"GET /api/v1/matches/{match_id}/stream/ HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            data = b""
            last = f"\nid: {log[-1]['seq']}\n".encode()
            while last not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        ids = [int(line[4:]) for line in data.decode().splitlines() if line.startswith("id: ")]
        assert ids == [event["seq"] for event in log]
    finally:
        server.stop()
