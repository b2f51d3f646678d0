"""Load benchmark: the production server on PostgreSQL, 32 clients playing whole matches.

    python -m bench.load [--clients 32] [--seconds 20] [--server granian|gunicorn]
                         [--interface wsgi|asgi] [--workers 2] [--threads 2]

Creates a fresh PostgreSQL database (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/nard_bench``), migrates it, starts the server
(granian by default, or gunicorn with gthread workers; ``--interface asgi`` serves
``nard_site.asgi``, REST and streams in one server) on 127.0.0.1 with production
settings, and then, over loopback HTTP/1.1 keep-alive:

1. measures the health endpoint with the same number of concurrent clients (the
   stack's ceiling: routing, one query, JSON), then
2. has every client play hotseat matches (roll, then one step per request from
   ``state.legal_steps``) until the time is up or it has finished ``--matches``.

It prints roll+move requests per second, p50/p95/p99 latency, errors, and the
health rate.  Bounded in time and count; stops the server itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/nard_bench"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    matches: int = 0


class Connection:
    """A minimal HTTP/1.1 keep-alive client (the load generator must stay cheap)."""

    def __init__(self, host: str, port: int, token: str | None = None) -> None:
        self.host, self.port, self.token = host, port, token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                "Accept: application/json", f"Content-Length: {len(payload)}"]
        if payload:
            head.append("Content-Type: application/json")
        if self.token:
            head.append(f"Authorization: Token {self.token}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        assert self.reader is not None
        status_line = await self.reader.readline()
        if not status_line:
            await self.close()
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        length, close = 0, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "connection" and value.strip().lower() == "close":
                close = True
        data = await self.reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def timed(conn: Connection, stats: Stats, method: str, path: str,
                body: Any = None) -> tuple[int, Any]:
    started = time.perf_counter()
    try:
        status, data = await conn.request(method, path, body)
    except (ConnectionError, asyncio.IncompleteReadError, OSError) as exc:
        await conn.close()
        stats.errors.append(f"{method} {path}: {exc!r}")
        return 599, None
    stats.latencies.append(time.perf_counter() - started)
    if status >= 400:
        stats.errors.append(f"{method} {path}: {status} {str(data)[:200]}")
    return status, data


async def health_client(host: str, port: int, deadline: float, stats: Stats) -> None:
    conn = Connection(host, port)
    while time.perf_counter() < deadline:
        await timed(conn, stats, "GET", "/api/v1/health/")
    await conn.close()


async def player_client(host: str, port: int, token: str, deadline: float, max_matches: int,
                        stats: Stats) -> None:
    conn = Connection(host, port, token)
    base = "/api/v1/matches/"
    while time.perf_counter() < deadline and stats.matches < max_matches:
        status, match = await conn.request("POST", base, {"length": 1, "hotseat": True})
        if status != 201:
            stats.errors.append(f"create: {status} {match}")
            return
        url = f"{base}{match['id']}/"
        while match["status"] == "active" and time.perf_counter() < deadline:
            state = match["state"]
            if state["phase"] == "move" and state["legal_steps"]:
                step = state["legal_steps"][0]
                status, body = await timed(conn, stats, "POST", url + "moves/",
                                           {"steps": [step], "expected_version": match["version"]})
            else:  # roll-off or roll
                status, body = await timed(conn, stats, "POST", url + "roll/",
                                           {"expected_version": match["version"]})
            if status >= 400:
                return
            match = body
        if match["status"] == "finished":
            stats.matches += 1
    await conn.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1]


def prepare_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def django_env(url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "bench-" + "x9!Q" * 16,
            "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0", "THROTTLE_ANON": "100000000/min",
            "THROTTLE_USER": "100000000/min", "LOG_LEVEL": "WARNING"}


def make_tokens(env: dict[str, str], count: int) -> list[str]:
    script = (
        "from accounts.models import User\n"
        "from accounts.services import token_obtain\n"
        f"for i in range({count}):\n"
        "    u, _ = User.objects.get_or_create(username=f'bench{i}')\n"
        "    print('TOKEN', token_obtain(user=u).key)\n"
    )
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=env,
                         check=True, capture_output=True, text=True).stdout
    return [line.split()[1] for line in out.splitlines() if line.startswith("TOKEN ")]


def wait_for(port: int, timeout: float = 30) -> None:
    import socket

    end = time.time() + timeout
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


async def run_phase(coros: list[Any]) -> float:
    started = time.perf_counter()
    await asyncio.gather(*coros)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the play phase")
    parser.add_argument("--health-seconds", type=float, default=8.0)
    parser.add_argument("--matches", type=int, default=10_000, help="stop after this many")
    parser.add_argument("--server", choices=("granian", "gunicorn"), default="granian")
    parser.add_argument("--interface", choices=("wsgi", "asgi"), default="wsgi",
                        help="granian only: asgi serves nard_site.asgi (REST and streams; "
                             "--threads is then its ASGI_THREADS)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2,
                        help="per worker: granian's blocking threads, gunicorn's threads")
    parser.add_argument("--worker-class", default="gthread", help="gunicorn only")
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    prepare_database(url)
    env = django_env(url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    tokens = make_tokens(env, args.clients)
    if args.server == "granian" and args.interface == "asgi":
        env = {**env, "ASGI_THREADS": str(args.threads)}  # Django's threads per worker
        command = [sys.executable, "-m", "granian", "--interface", "asgi",
                   "nard_site.asgi:application", "--host", "127.0.0.1", "--port", str(args.port),
                   "--workers", str(args.workers), "--log-level", "warning"]
    elif args.server == "granian":
        command = [sys.executable, "-m", "granian", "--interface", "wsgi",
                   "nard_site.wsgi:application", "--host", "127.0.0.1", "--port", str(args.port),
                   "--workers", str(args.workers), "--blocking-threads", str(args.threads),
                   "--log-level", "warning"]
    else:
        command = [sys.executable, "-m", "gunicorn", "nard_site.wsgi",
                   "-b", f"127.0.0.1:{args.port}", "-w", str(args.workers),
                   "-k", args.worker_class, "--threads", str(args.threads),
                   "--keep-alive", "30", "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_for(args.port)
        host, port = "127.0.0.1", args.port
        warm = Stats()
        asyncio.run(run_phase([health_client(host, port, time.perf_counter() + 1, warm)]))
        health = Stats()
        deadline = time.perf_counter() + args.health_seconds
        health_time = asyncio.run(run_phase(
            [health_client(host, port, deadline, health) for _ in range(args.clients)]))
        play = Stats()
        deadline = time.perf_counter() + args.seconds
        play_time = asyncio.run(run_phase(
            [player_client(host, port, token, deadline, args.matches, play)
             for token in tokens]))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    health_rate = len(health.latencies) / health_time
    play_rate = len(play.latencies) / play_time
    ms = 1000
    if args.server == "granian" and args.interface == "asgi":
        served = f"granian ASGI {args.workers} workers x {args.threads} Django threads"
    else:
        kind = ("blocking threads" if args.server == "granian"
                else f"threads ({args.worker_class})")
        served = f"{args.server} {args.workers} workers x {args.threads} {kind}"
    print(f"machine: {os.cpu_count()} cores; {served}; PostgreSQL; "
          f"{args.clients} concurrent clients")
    print(f"health:    {health_rate:8.0f} req/s  p50 {percentile(health.latencies, .5)*ms:6.1f} ms"
          f"  p99 {percentile(health.latencies, .99)*ms:6.1f} ms  errors {len(health.errors)}")
    print(f"roll+move: {play_rate:8.0f} req/s  p50 {percentile(play.latencies, .5)*ms:6.1f} ms"
          f"  p95 {percentile(play.latencies, .95)*ms:6.1f} ms"
          f"  p99 {percentile(play.latencies, .99)*ms:6.1f} ms  errors {len(play.errors)}")
    print(f"requests:  {len(play.latencies)} roll+move in {play_time:.1f} s; "
          f"{play.matches} whole matches finished")
    print(f"ratio:     roll+move / health = {play_rate / health_rate:.2f}")
    for error in play.errors[:5] + health.errors[:5]:
        print("error:", error)
    ok = (not play.errors and not health.errors and percentile(play.latencies, .99) < 0.1
          and play_rate >= health_rate / 2)
    print("targets (0 errors, p99 < 100 ms, roll+move >= health / 2):", "met" if ok else "NOT met")


if __name__ == "__main__":
    main()
