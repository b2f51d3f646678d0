"""The serving layer under abuse: prints figures, asserts nothing.

    python -m bench.serving [--only upload,slow,redis]

Each part starts the production server (granian, ``nard_site.asgi``, one worker, on a
SQLite file of its own) and prints what it measured:

- **upload**: the worker's resident memory before, and its peak (``VmHWM``, reset first)
  after, a ``Content-Length: 400 MB`` POST and a 600 MB chunked POST;
- **slow**: ``health/`` latency (p50, max, failures, every 0.2 s for 8 s) while 1,100
  connections from one address trickle their headers a line every 2 s — straight to
  granian with its defaults, to granian with README's options, and through nginx
  (deploy/nginx.conf) in front of it;
- **redis**: the time of 20 ``health/`` requests (each uses the throttle's counter in the
  cache) with a throwaway ``redis-server`` stopped (SIGSTOP), and how long until the
  server uses Redis again after SIGCONT.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

from tests.hardening.test_body_size import MB, blocks, memory, reset_peak, upload  # noqa: E402
from tests.hardening.test_proxy import GRANIAN_PRODUCTION, Proxy, slow_clients  # noqa: E402
from tests.support import AsgiServer, call, free_port, prepare_database, server_env  # noqa: E402


def fresh_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = server_env(tmp / f"bench-{time.monotonic_ns()}.sqlite3", **extra)
    prepare_database(env, {})
    return env


def part_upload(tmp: Path) -> None:
    server = AsgiServer(fresh_env(tmp), 1)
    try:
        (worker,) = server.workers()
        for name, head, body in (
                ("Content-Length 400 MB",
                 f"POST /api/v1/matches/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                 f"\r\nContent-Length: {400 * MB}\r\n\r\n".encode(), blocks(400 * MB)),
                ("chunked 600 MB",
                 b"POST /api/v1/matches/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                 b"\r\nTransfer-Encoding: chunked\r\n\r\n", blocks(600 * MB, chunked=True))):
            reset_peak(worker)
            before = memory(worker)["VmRSS"]
            status, _, sent = upload(server.port, head, body)
            print(f"upload {name}: {status}; worker RSS {before // MB} MB before, peak "
                  f"{memory(worker)['VmHWM'] // MB} MB after; {sent // 1024} KB sent")
    finally:
        server.stop()


def health_latency(port: int, seconds: float) -> str:
    times, failures = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            ok = call(port, "GET", "/api/v1/health/").status == 200
        except OSError:
            ok = False
        if ok:
            times.append(time.monotonic() - started)
        else:
            failures += 1
        time.sleep(0.2)
    if not times:
        return f"no answer ({failures} failed)"
    return (f"p50 {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.0f} ms, "
            f"{len(times)} answered, {failures} failed or timed out (15 s)")


def slowloris(port: int, count: int = 1100, seconds: float = 8) -> str:
    socks = []
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET /api/v1/health/ HTTP/1.1\r\nHost: x\r\n")
            socks.append(sock)
        except OSError:
            break
    with slow_clients(socks):
        return f"{len(socks)} slow connections: health {health_latency(port, seconds)}"


def part_slow(tmp: Path) -> None:
    for name, extra in (("granian, default options", ()),
                        ("granian, README's options", GRANIAN_PRODUCTION)):
        server = AsgiServer(fresh_env(tmp), 1, *extra)
        try:
            print(f"slow {name}: idle health {health_latency(server.port, 1)}")
            print(f"slow {name}: {slowloris(server.port)}")
        finally:
            server.stop()
    if shutil.which("nginx") or os.path.exists("/usr/sbin/nginx"):
        server = AsgiServer(fresh_env(tmp, NUM_PROXIES="1"), 1, *GRANIAN_PRODUCTION)
        try:
            proxy = Proxy(server.port, tmp / f"nginx-{time.monotonic_ns()}")
            try:
                print(f"slow nginx + granian: idle health {health_latency(proxy.port, 1)}")
                print(f"slow nginx + granian: {slowloris(proxy.port)}")
            finally:
                proxy.stop()
        finally:
            server.stop()


def part_redis(tmp: Path) -> None:
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        print("redis: no redis-server")
        return
    port = free_port()
    redis = subprocess.Popen([redis_server, "--port", str(port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", str(tmp)],
                             stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    server = AsgiServer(fresh_env(tmp, REDIS_URL=f"redis://127.0.0.1:{port}/0"), 1)
    try:
        started = time.monotonic()
        for _ in range(20):
            call(server.port, "GET", "/api/v1/health/")
        print(f"redis running: 20 health requests in {time.monotonic() - started:.2f} s")
        redis.send_signal(signal.SIGSTOP)
        started = time.monotonic()
        last = None
        for _ in range(20):
            last = call(server.port, "GET", "/api/v1/health/")
        print(f"redis stopped: 20 health requests in {time.monotonic() - started:.2f} s; "
              f"the last answered {last.json if last else None}")
        redis.send_signal(signal.SIGCONT)
        started = time.monotonic()
        while time.monotonic() - started < 30:
            answer = call(server.port, "GET", "/api/v1/health/").json
            if answer.get("redis", "ok") == "ok":
                break
            time.sleep(0.1)
        print(f"redis continued: in use again after {time.monotonic() - started:.2f} s")
    finally:
        server.stop()
        redis.send_signal(signal.SIGCONT)
        redis.kill()
        redis.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="upload,slow,redis")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        for part in args.only.split(","):
            {"upload": part_upload, "slow": part_slow, "redis": part_redis}[part](tmp)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
