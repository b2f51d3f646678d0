"""Cost per game action, in process (docs/scaling.md): CPU, SQL statements and Redis
messages per roll and per move, over the REST API without HTTP.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/nard_x python -m bench.costs [--matches 5]

The database must be migrated. Plays ``--matches`` hotseat matches of length 1 through
Django's test client (no sockets) and prints, per roll and per move: this process's CPU
time (time.process_time, mean), SQL statements (django's CaptureQueriesContext) and
messages published for the streams (live.transports.publish calls; one Redis PUBLISH each
when REDIS_URL is set).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("THROTTLE_USER", "100000000/min")
    import django

    django.setup()
    # the settings are chosen above and the apps set up first: Django's modules load only then
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from accounts.models import User
    from accounts.services import token_obtain
    from live import transports

    published = [0]
    real_publish = transports.publish

    def counting(msg: Any) -> None:
        published[0] += 1
        real_publish(msg)

    transports.publish = counting  # type: ignore[assignment]
    user, _ = User.objects.get_or_create(username="costs-bench")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=user).key}")
    figures: dict[str, list[tuple[float, int, int]]] = {"roll": [], "moves": []}
    for _ in range(args.matches):
        match = client.post("/api/v1/matches/", {"length": 1, "hotseat": True},
                            format="json").json()
        while match["status"] == "active":
            state = match["state"]
            if state["phase"] == "move" and state["legal_steps"]:
                action, body = "moves", {"steps": [state["legal_steps"][0]]}
            else:
                action, body = "roll", {}
            published[0] = 0
            cpu = time.process_time()
            with CaptureQueriesContext(connection) as queries:
                response = client.post(f"/api/v1/matches/{match['id']}/{action}/", body,
                                       format="json")
            figures[action].append((time.process_time() - cpu, len(queries), published[0]))
            assert response.status_code == 200, response.content
            match = response.json()
    for action, rows in figures.items():
        cpu = statistics.mean(r[0] for r in rows) * 1000
        sql = statistics.mean(r[1] for r in rows)
        pub = statistics.mean(r[2] for r in rows)
        print(f"{action}: {len(rows)} requests; CPU {cpu:.2f} ms mean (this process); "
              f"SQL statements {sql:.1f} mean (max {max(r[1] for r in rows)}); "
              f"stream messages {pub:.2f} mean")


if __name__ == "__main__":
    main()
