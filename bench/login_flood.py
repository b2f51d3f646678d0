"""Password guessing from one address against the production server.

    python -m bench.login_flood [--seconds 20] [--guessers 6] [--no-limits] [--set NAME=VALUE]

Starts granian (``nard_site.asgi``, one worker, 2 threads) on a fresh SQLite file with
the production password hasher, then for ``--seconds`` has ``--guessers`` threads post
wrong passwords to ``accounts/token/`` (``/play/session/`` and the admin go through the
same backend) for rotating usernames from one address, while one more thread reads
``health/`` as another user would. Prints the guesses the server checked (401), those
it refused unchecked (429), and the health latency (p50/p95/max). ``--no-limits`` sets
the limits out of reach (what the server did before them) for comparison.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")  # tests.support needs it
os.environ.setdefault("DEBUG", "1")
django.setup()

from tests.support import AsgiServer, call, prepare_database, server_env  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--guessers", type=int, default=6)
    parser.add_argument("--no-limits", action="store_true")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for the server, e.g. LOGIN_ADDRESS_FAILURE_LIMIT=10")
    args = parser.parse_args()
    extra = dict(item.split("=", 1) for item in args.set)
    off = {"LOGIN_FAILURE_LIMIT": "1000000", "LOGIN_ADDRESS_FAILURE_LIMIT": "1000000",
           "LOGIN_CONCURRENT_CHECKS": "1000", "THROTTLE_AUTH": "1000000/min"}
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "db.sqlite3", ASGI_THREADS="2",
                         **(off if args.no_limits else {"THROTTLE_AUTH": "1000000/min"}),
                         **extra)
        prepare_database(env, {f"user{i}": "a-long-secret-42" for i in range(20)})
        server = AsgiServer(env, 1)
        try:
            outcome: Counter[int] = Counter()
            latencies: list[float] = []
            stop = time.monotonic() + args.seconds
            lock = threading.Lock()

            def guess(index: int) -> None:
                n = 0
                while time.monotonic() < stop:
                    n += 1
                    answer = call(server.port, "POST", "/api/v1/accounts/token/", body={
                        "username": f"user{(index + n) % 20}", "password": f"guess-{n}"})
                    with lock:
                        outcome[answer.status] += 1

            def watch() -> None:
                while time.monotonic() < stop:
                    began = time.perf_counter()
                    call(server.port, "GET", "/api/v1/health/")
                    latencies.append((time.perf_counter() - began) * 1000)
                    time.sleep(0.05)

            threads = [threading.Thread(target=guess, args=(i,)) for i in range(args.guessers)]
            threads.append(threading.Thread(target=watch))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            server.stop()
    latencies.sort()
    print(f"limits {'off' if args.no_limits else 'on'}: {args.guessers} guessers, "
          f"{args.seconds:.0f} s from one address")
    print(f"  checked (401): {outcome[401]}  refused unchecked (429): {outcome[429]}  "
          f"other: {sum(v for k, v in outcome.items() if k not in (401, 429))}")
    print(f"  health latency ms: p50 {statistics.median(latencies):.1f}  "
          f"p95 {latencies[int(len(latencies) * 0.95)]:.1f}  max {latencies[-1]:.1f}  "
          f"({len(latencies)} reads)")


if __name__ == "__main__":
    main()
