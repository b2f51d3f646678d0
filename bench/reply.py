"""The computer's reply delay, on command 1's set-up.

    python -m bench.reply [--replies 40] [--level heuristic] [--rules NAME]
                          [--interval 2] [--database sqlite|postgres]

Command 1's processes (scripts/run.sh) on a fresh database in a temporary directory
(SQLite, as command 1 without ``DATABASE_URL``; ``--database postgres`` uses
``BENCH_DATABASE_URL``): the ASGI server (granian, one worker, no ``REDIS_URL``) and
the task queue's worker beside it (``manage.py db_worker --interval 2``). One player
(an API token) plays matches against the computer while one match stream
(``GET matches/{id}/stream/``, what the play page follows) watches them.

A *reply* is measured from the arrival of the player's ``moves/`` answer (its last step
committed) to the arrival, on the stream, of the computer's move (its first ``step``
event, or its ``pass``) — the page draws from that event. The computer's think time
beside it is the ``at`` of its move's event minus the ``at`` of its roll's (its decision
and its commit). It prints p50/p95/max of both over ``--replies`` replies and the target:
p95 of the delay <= p95 of the think time + 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.load import ROOT, Connection, percentile, prepare_database, wait_for
from bench.streams import open_stream
from nardy import DEFAULT_RULES

HOST = "127.0.0.1"


def env_for(url: str) -> dict[str, str]:
    """Command 1's environment (DEBUG on, no Redis), quiet, with room for the bench."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    return {**env, "DATABASE_URL": url, "DEBUG": "1", "LOG_LEVEL": "WARNING",
            "THROTTLE_ANON": "100000000/min", "THROTTLE_USER": "100000000/min",
            "COMPUTER_MATCHES_PER_ACCOUNT": "1000"}


def token_for(env: dict[str, str]) -> str:
    script = ("from accounts.models import User\n"
              "from accounts.services import token_obtain\n"
              "u, _ = User.objects.get_or_create(username='bench-reply')\n"
              "print('TOKEN', token_obtain(user=u).key)\n")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                         env=env, check=True, capture_output=True, text=True).stdout
    return next(line.split()[1] for line in out.splitlines() if line.startswith("TOKEN "))


def a_play(tree: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """A random complete legal play: a path of ``state.legal_tree`` from stop 0."""
    steps: list[dict[str, Any]] = []
    stop = tree[0]
    while stop["steps"]:
        step = rng.choice(stop["steps"])
        steps.append({"from": step["from"], "to": step["to"], "die": step["die"]})
        stop = tree[step["next"]]
    return steps


def at(event: dict[str, Any]) -> float:
    return datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()


async def measure(port: int, token: str, args: argparse.Namespace
                  ) -> tuple[list[float], list[float]]:
    conn = Connection(HOST, port, token)
    rng = random.Random(args.seed)
    delays: list[float] = []
    thinks: list[float] = []
    while len(delays) < args.replies:
        status, match = await conn.request("POST", "/api/v1/matches/", {
            "length": 7, "computer": args.level, "rules": args.rules, "color": "white"})
        if status != 201:
            raise SystemExit(f"create: {status} {match}")
        url = f"/api/v1/matches/{match['id']}/"
        reader, writer = await open_stream(port, match["id"])
        events: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()

        async def read(reader: asyncio.StreamReader = reader,
                       events: asyncio.Queue[tuple[float, dict[str, Any]]] = events) -> None:
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    events.put_nowait((time.perf_counter(), json.loads(line[6:])))

        reading = asyncio.create_task(read())
        try:
            while match["status"] == "active" and len(delays) < args.replies:
                state = match["state"]
                mine = (state["turn"] == "white" if state["phase"] != "roll-off"
                        else state["roll_off"]["white"] is None)
                if not mine:
                    # Wait for the computer: each event on the stream, then read again.
                    await asyncio.wait_for(events.get(), 30)
                    while not events.empty():
                        events.get_nowait()
                    _, match = await conn.request("GET", url)
                    continue
                if state["phase"] == "move":
                    steps = a_play(state["legal_tree"], rng)
                    status, match = await conn.request("POST", url + "moves/", {
                        "steps": steps, "expected_version": match["version"]})
                    answered = time.perf_counter()
                    if status != 200:
                        raise SystemExit(f"moves: {status} {match}")
                    if match["status"] != "active" or match["state"]["turn"] == "white":
                        continue  # the game ended, or no reply to wait for
                    roll_at = None
                    while True:
                        arrived, event = await asyncio.wait_for(events.get(), 30)
                        side = event["data"].get("side")
                        if side != "black":
                            continue
                        if event["type"] == "roll":
                            roll_at = at(event)
                        if event["type"] in ("step", "pass"):
                            delays.append(max(0.0, arrived - answered))
                            if roll_at is not None:
                                thinks.append(max(0.0, at(event) - roll_at))
                            break
                    while not events.empty():
                        events.get_nowait()
                    _, match = await conn.request("GET", url)
                else:
                    # A roll-off die goes without expected_version, as the page sends it
                    # (docs/api.md "Versions": both sides roll at once).
                    guard = ({} if state["phase"] == "roll-off"
                             else {"expected_version": match["version"]})
                    status, match = await conn.request("POST", url + "roll/", guard)
                    if status != 200:
                        raise SystemExit(f"roll: {status} {match}")
        finally:
            reading.cancel()
            writer.close()
            if isinstance(match, dict) and match.get("status") == "active":
                await conn.request("POST", url + "resign/", {})
    await conn.close()
    return delays, thinks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.reply",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=40)
    parser.add_argument("--level", default="heuristic")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--interval", type=float, default=2.0,
                        help="the worker's --interval (command 1: 2, a fallback poll)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-reply-") as tmp:
        if args.database == "sqlite":
            url = f"sqlite:///{Path(tmp) / 'db.sqlite3'}"
        else:
            url = os.environ.get("BENCH_DATABASE_URL",
                                 "postgres://postgres@127.0.0.1:5432/nard_bench")
            prepare_database(url)
        env = env_for(url)
        for command in (["migrate", "--no-input", "-v", "0"], ["createcachetable"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                           check=True)
        token = token_for(env)
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--interval", str(args.interval),
             "-v", "0", "--no-reload"], cwd=ROOT, env=env, start_new_session=True)
        server = subprocess.Popen(
            [sys.executable, "-m", "granian", "--interface", "asgi",
             "nard_site.asgi:application", "--host", HOST, "--port", str(args.port),
             "--workers", "1", "--log-level", "warning"],
            cwd=ROOT, env=env, start_new_session=True)
        try:
            wait_for(args.port)
            delays, thinks = asyncio.run(measure(args.port, token, args))
        finally:
            for process in (server, worker):
                os.killpg(process.pid, signal.SIGTERM)
            for process in (server, worker):
                process.wait(timeout=30)

    def figures(values: list[float]) -> str:
        return (f"p50 {1000 * percentile(values, .5):7.1f} ms  p95 "
                f"{1000 * percentile(values, .95):7.1f} ms  max {1000 * max(values):7.1f} ms")

    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}; {args.database}, granian ASGI 1 worker, no Redis, db_worker "
          f"--interval {args.interval}; {args.rules}, level {args.level}")
    print(f"reply delay ({len(delays)} replies): {figures(delays)}")
    print(f"think time  ({len(thinks)} turns):   {figures(thinks)}")
    target = percentile(thinks, .95) + 0.3
    verdict = "met" if percentile(delays, .95) <= target else "NOT met"
    print(f"target p95 <= think p95 + 300 ms = {1000 * target:.1f} ms: {verdict}")


if __name__ == "__main__":
    main()
