"""Streams benchmark: N idle match streams open while 32 clients play closed-loop.

    python -m bench.streams [--streams 1000] [--clients 32] [--seconds 20] [--workers 2]
                            [--threads 2] [--redis URL | --no-redis]

The production server as README.md runs it (granian's ASGI interface, ``nard_site.asgi``,
``REDIS_URL`` set so every worker's streams hear every worker's moves) on a fresh
PostgreSQL database (``BENCH_DATABASE_URL``, as :mod:`bench.load`). Then, over loopback:

1. **without**: the clients play hotseat matches (bench.load's players) for ``--seconds``;
   each client's current match is watched by one stream (the delivery probes);
2. N idle match streams are opened (on matches nobody plays) and held; the server's RSS
   (every process of it) is read before and after: the delta / N is the memory per stream;
3. **with**: the same play for ``--seconds`` with the N streams open.

Commit-to-delivery latency: for each change a client makes (its 2xx, timestamped when the
answer arrives), the arrival of that change's first event on the stream watching the
match (events of one change share their ``at``; a change delivered before its answer
counts 0). It prints memory per stream, latency p50/p99 of both phases, move rates with
and without the streams, and which targets are met (p99 < 100 ms, < 50 KB per stream,
rate with >= 0.8 x without) with the load average. Raw asyncio sockets, no client library.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from bench.load import (
    DEFAULT_DB,
    ROOT,
    Connection,
    Stats,
    django_env,
    make_tokens,
    percentile,
    prepare_database,
    wait_for,
)

HOST = "127.0.0.1"
DEFAULT_REDIS = "redis://127.0.0.1:6379/3"  # its own database number; its own channel


# --- streams ------------------------------------------------------------------------------

async def open_stream(port: int, match_id: int) -> tuple[asyncio.StreamReader,
                                                         asyncio.StreamWriter]:
    """GET a match stream; answers once the headers and the first chunk (the retry hint,
    sent once the stream has subscribed) have arrived."""
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write((f"GET /api/v1/matches/{match_id}/stream/ HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    status = await reader.readline()
    if b" 200 " not in status:
        writer.close()
        raise ConnectionError(f"stream: {status!r}")
    while await reader.readline() not in (b"\r\n", b"\n", b""):
        pass
    while not (await reader.readline()).startswith(b"retry:"):
        pass
    return reader, writer


@dataclass
class Delivery:
    """Per match: when each change's first event arrived (by its ``at``), and when each
    change was answered, in order (the creation first)."""

    arrived: dict[str, float] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    ok: bool = True  # a failed request breaks the pairing of answers and changes


async def watch(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                delivery: Delivery) -> None:
    """Read SSE lines (chunk-size lines never start with ``data:``) until the end."""
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                at = json.loads(line[6:])["at"]
                if at not in delivery.arrived:
                    delivery.arrived[at] = time.perf_counter()
                    delivery.order.append(at)
    except (ConnectionError, asyncio.IncompleteReadError, OSError):
        return
    finally:
        writer.close()


# --- players ------------------------------------------------------------------------------

@dataclass
class Phase:
    stats: Stats = field(default_factory=Stats)
    deliveries: list[Delivery] = field(default_factory=list)
    watchers: list[asyncio.Task[None]] = field(default_factory=list)

    def latencies(self) -> list[float]:
        found = []
        for d in self.deliveries:
            if not d.ok:
                continue
            # Change k (after the creation, which the stream read from the database) is
            # the k-th answer; only changes whose first event has arrived are counted.
            for at, answered in zip(d.order[1:], d.answered[1:], strict=False):
                found.append(d.arrived[at] - answered)
        return found

    def delivery(self) -> tuple[list[float], float]:
        """The latencies (a change delivered before its answer counts 0), and the share
        of changes delivered before their answer arrived."""
        raw = self.latencies()
        early = sum(1 for x in raw if x <= 0) / len(raw) if raw else float("nan")
        return [max(0.0, x) for x in raw], early


async def player(port: int, token: str, deadline: float, phase: Phase) -> None:
    """bench.load's closed-loop player, with a stream watching each match it plays."""
    conn = Connection(HOST, port, token)
    stats = phase.stats
    base = "/api/v1/matches/"
    while time.perf_counter() < deadline:
        status, match = await conn.request("POST", base, {"length": 1, "hotseat": True})
        if status != 201:
            stats.errors.append(f"create: {status} {match}")
            return
        delivery = Delivery(answered=[time.perf_counter()])
        phase.deliveries.append(delivery)
        reader, writer = await open_stream(port, match["id"])
        phase.watchers.append(asyncio.ensure_future(watch(reader, writer, delivery)))
        url = f"{base}{match['id']}/"
        while match["status"] == "active" and time.perf_counter() < deadline:
            state = match["state"]
            if state["phase"] == "move" and state["legal_steps"]:
                path, body = url + "moves/", {"steps": [state["legal_steps"][0]],
                                              "expected_version": match["version"]}
            else:
                path, body = url + "roll/", {"expected_version": match["version"]}
            started = time.perf_counter()
            try:
                status, answer = await conn.request("POST", path, body)
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as exc:
                await conn.close()
                stats.errors.append(f"POST {path}: {exc!r}")
                delivery.ok = False
                return
            done = time.perf_counter()
            stats.latencies.append(done - started)
            if status >= 400:
                stats.errors.append(f"POST {path}: {status} {str(answer)[:200]}")
                delivery.ok = False
                return
            delivery.answered.append(done)
            match = answer
        if match["status"] == "finished":
            stats.matches += 1
    await conn.close()


async def play(port: int, tokens: list[str], seconds: float) -> tuple[Phase, float]:
    phase = Phase()
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    await asyncio.gather(*(player(port, token, deadline, phase) for token in tokens))
    elapsed = time.perf_counter() - started
    await asyncio.sleep(0.5)  # the last changes' events reach their streams
    for task in phase.watchers:
        task.cancel()
    await asyncio.gather(*phase.watchers, return_exceptions=True)
    return phase, elapsed


# --- the server -----------------------------------------------------------------------------

def rss_kb(root: int) -> int:
    """The resident memory of a process and its descendants (kB, /proc)."""
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{pid}/task/{pid}/children") as children:
                todo.extend(int(p) for p in children.read().split())
    return total


def redis_up(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except Exception:
        return False


async def create_matches(port: int, token: str, count: int) -> list[int]:
    conn = Connection(HOST, port, token)
    found = []
    for _ in range(count):
        status, match = await conn.request("POST", "/api/v1/matches/",
                                           {"length": 1, "hotseat": True})
        assert status == 201, (status, match)
        found.append(match["id"])
    await conn.close()
    return found


async def open_idle(port: int, matches: list[int], count: int,
                    parallel: int = 50) -> list[asyncio.StreamWriter]:
    gate = asyncio.Semaphore(parallel)

    async def one(i: int) -> asyncio.StreamWriter:
        async with gate:
            return (await open_stream(port, matches[i % len(matches)]))[1]

    return list(await asyncio.gather(*(one(i) for i in range(count))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000, help="idle match streams")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0, help="each play phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2, help="ASGI_THREADS per worker")
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--no-redis", action="store_true",
                        help="in-process fan-out (then one worker: streams of a second one "
                             "would hear the other's moves only by polling)")
    parser.add_argument("--port", type=int, default=8798)
    args = parser.parse_args()

    redis_url = "" if args.no_redis else args.redis
    if redis_url and not redis_up(redis_url):
        raise SystemExit(f"Redis is not answering at {redis_url} (or pass --no-redis)")
    workers = args.workers if redis_url else 1
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    prepare_database(url)
    env = {**django_env(url), "REDIS_URL": redis_url, "ASGI_THREADS": str(args.threads),
           "STREAM_REDIS_CHANNEL": f"nard_site:bench:{uuid.uuid4().hex}",
           "STREAMS_PER_IP": str(args.streams + 10 * args.clients + 100),
           "STREAMS_PER_ACCOUNT": "100000"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    tokens = make_tokens(env, args.clients)
    # granian holds at most --backpressure requests a worker at once (default backlog /
    # workers = 512): an open stream is one. Room for all the streams and the players.
    room = str(args.streams + 4 * args.clients + 256)
    command = [sys.executable, "-m", "granian", "--interface", "asgi",
               "nard_site.asgi:application", "--host", HOST, "--port", str(args.port),
               "--workers", str(workers), "--log-level", "warning",
               "--backlog", room, "--backpressure", room]
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_for(args.port)
        port = args.port

        async def scenario() -> dict[str, Any]:
            await play(port, tokens, 2.0)  # warm-up: every worker's threads and imports
            without, t_without = await play(port, tokens, args.seconds)
            idle = await create_matches(port, tokens[0], max(1, min(50, args.streams)))
            before = rss_kb(server.pid)
            opened = time.perf_counter()
            writers = await open_idle(port, idle, args.streams)
            open_seconds = time.perf_counter() - opened
            await asyncio.sleep(1.0)
            after = rss_kb(server.pid)
            with_, t_with = await play(port, tokens, args.seconds)
            still = rss_kb(server.pid)
            for writer in writers:
                writer.close()
            return {"without": (without, t_without), "with": (with_, t_with),
                    "before": before, "after": after, "still": still,
                    "open_seconds": open_seconds}

        result = asyncio.run(scenario())
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    without, t_without = result["without"]
    with_, t_with = result["with"]
    rate_without = len(without.stats.latencies) / t_without
    rate_with = len(with_.stats.latencies) / t_with
    per_stream = (result["after"] - result["before"]) / max(args.streams, 1)
    ms = 1000
    load = os.getloadavg()
    fanout = f"Redis fan-out ({redis_url})" if redis_url else "in-process fan-out"
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}; granian ASGI {workers} workers x {args.threads} Django threads; "
          f"{fanout}; PostgreSQL; {args.clients} closed-loop clients, {args.streams} idle "
          f"match streams")
    print(f"memory:    {per_stream:8.1f} KB per idle stream (server RSS "
          f"{result['before'] / 1024:.0f} -> {result['after'] / 1024:.0f} MB; "
          f"{result['still'] / 1024:.0f} MB after the loaded phase); opened in "
          f"{result['open_seconds']:.1f} s")
    for name, (phase, rate) in (("without", (without, rate_without)),
                                ("with", (with_, rate_with))):
        lat, early = phase.delivery()
        print(f"{name + ':':9} {rate:8.0f} roll+move/s  request p50 "
              f"{percentile(phase.stats.latencies, .5) * ms:6.1f} ms  p99 "
              f"{percentile(phase.stats.latencies, .99) * ms:6.1f} ms  |  delivery p50 "
              f"{percentile(lat, .5) * ms:6.1f} ms  p99 {percentile(lat, .99) * ms:6.1f} ms "
              f"over {len(lat)} live changes ({early:.0%} before the answer)  "
              f"errors {len(phase.stats.errors)}")
    ratio = rate_with / rate_without if rate_without else float("nan")
    print(f"ratio:     move rate with the streams / without = {ratio:.2f}")
    for error in (without.stats.errors + with_.stats.errors)[:5]:
        print("error:", error)
    lat, _ = with_.delivery()
    checks = {"p99 delivery < 100 ms": percentile(lat, .99) < 0.1,
              "< 50 KB per idle stream": per_stream < 50,
              "rate with >= 0.8 x without": ratio >= 0.8,
              "0 errors": not without.stats.errors and not with_.stats.errors}
    for name, ok in checks.items():
        print(f"target:    {name}: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
