"""Slow stream readers: the worker's memory per stream that reads nothing, against one
that reads. Prints figures, asserts nothing.

    python -m bench.slow_readers [--streams 200] [--length 7]

The production server (granian, ``nard_site.asgi``, one worker, a SQLite file of its own);
one long hotseat match played at random through the services (its log: the backlog). Then
``--streams`` connections ask for its stream from the start (``?after=0``): first ones that
read nothing (a 4 KB receive buffer, never read), then ones that read everything and stay
open. For each kind, on a server of its own: the worker's resident memory before, once
the worker is idle again, and after the connections are closed; per stream.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

from tests.hardening.test_body_size import memory  # noqa: E402
from tests.support import ROOT, AsgiServer, prepare_database, server_env  # noqa: E402

KB = 1024
MB = KB * KB


def long_match(env: dict[str, str], length: int) -> tuple[int, int]:
    """A hotseat match of ``length`` points of the default rules (Long Nardy) played at
    random: its id and events."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", (
        "from accounts.models import User\nfrom nardy import DEFAULT_RULES\n"
        "from tests.games.test_record_round_trip import _play_randomly\n"
        "user = User.objects.get(username='reader')\n"
        f"match = _play_randomly(user, DEFAULT_RULES, 7, length={length})\n"
        "print('MATCH', match.pk, match.events.count())\n")],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("MATCH "))
    return int(line.split()[1]), int(line.split()[2])


def open_streams(port: int, match_id: int, count: int, *, read: bool) -> list[socket.socket]:
    socks = []
    head = (f"GET /api/v1/matches/{match_id}/stream/?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Accept: text/event-stream\r\n\r\n").encode()
    for _ in range(count):
        sock = socket.socket()
        if not read:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * KB)
        sock.connect(("127.0.0.1", port))
        sock.sendall(head)
        socks.append(sock)
    if read:
        for sock in socks:  # the whole backlog: until the first keep-alive or a pause
            sock.settimeout(1.0)
            try:
                while sock.recv(1 << 20):
                    pass
            except TimeoutError:
                pass
    return socks


def settle(pid: int, most: float = 120) -> None:
    """Until ``pid`` has used no CPU for a second (its streams have read what they will)."""
    def cpu() -> int:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    deadline, last = time.monotonic() + most, -1
    while time.monotonic() < deadline:
        now = cpu()
        if now == last:
            return
        last = now
        time.sleep(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--length", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "slow.sqlite3", STREAMS_PER_IP="100000",
                         STREAMS_PER_ACCOUNT="100000")
        prepare_database(env, {"reader": None})
        match_id, events = long_match(env, args.length)
        print(f"match {match_id}: {events} events")
        for read in (False, True):  # a fresh server each: no memory reused from the other
            server = AsgiServer(env, 1)
            try:
                (worker,) = server.workers()
                time.sleep(1)
                before = memory(worker)["VmRSS"]
                socks = open_streams(server.port, match_id, args.streams, read=read)
                settle(worker)
                during = memory(worker)["VmRSS"]
                for sock in socks:
                    sock.close()
                time.sleep(3)
                after = memory(worker)["VmRSS"]
                kind = "reading" if read else "not reading"
                print(f"{args.streams} streams {kind}: worker RSS {before / MB:.0f} -> "
                      f"{during / MB:.0f} MB ({(during - before) / args.streams / KB:.0f} KB a "
                      f"stream); {after / MB:.0f} MB after they closed")
            finally:
                server.stop()

if __name__ == "__main__":
    main()
