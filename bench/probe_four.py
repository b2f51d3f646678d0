"""The round-four probe's figures, before and after its fixes: prints, asserts nothing.

    python -m bench.probe_four [--methods 5000] [--pumpers 8]

The production server (granian, ``nard_site.asgi``, one worker, a SQLite file of its own,
``METRICS_TOKEN`` set), and:

- **metrics**: ``--methods`` requests with random methods straight to granian, then one
  scrape: the series of ``nard_request_seconds``, the scrape's size, the worker's memory;
- **readiness**: one game review waiting 60 s in its queue (``analysis``): what
  ``health/?ready`` answers;
- **pumping**: ``--pumpers`` fresh accounts each lose a rated 7-point match to one account
  by resigning every game during its roll-off: that account's rating and rank in the default
  rules (Long Nardy).
"""

from __future__ import annotations

import argparse
import os
import random
import string
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

from nardy import DEFAULT_RULES  # noqa: E402
from tests.hardening.test_body_size import memory  # noqa: E402
from tests.support import ROOT, AsgiServer, call, prepare_database, server_env  # noqa: E402

TOKEN = "probe-four-metrics-token"
MB = 1024 * 1024


def part_metrics(server: AsgiServer, count: int) -> None:
    (worker,) = server.workers()
    before = memory(worker)["VmRSS"]
    rng = random.Random(4)
    for _ in range(count):
        word = "".join(rng.choice(string.ascii_uppercase) for _ in range(8))
        call(server.port, word, "/api/v1/no-such-thing/")
    text = call(server.port, "GET", "/metrics", Authorization=f"Bearer {TOKEN}").raw
    series = sum(1 for line in text.decode().splitlines()
                 if line.startswith("nard_request_seconds_count{"))
    print(f"metrics: {count} random methods: {series} request series, scrape "
          f"{len(text) / 1024:.0f} KB, worker RSS {before / MB:.0f} -> "
          f"{memory(worker)['VmRSS'] / MB:.0f} MB")


def part_readiness(server: AsgiServer, env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "shell", "-c", (
        "from datetime import timedelta\nfrom django.utils import timezone\n"
        "from django_tasks_db.models import DBTaskResult\n"
        "job = DBTaskResult.objects.create(status='READY', args_kwargs={'args': [0], "
        "'kwargs': {}}, priority=0, task_path='reviews.tasks.analyse', "
        "queue_name='analysis', backend_name='default', run_after=timezone.now())\n"
        "DBTaskResult.objects.filter(pk=job.pk).update(enqueued_at=timezone.now() - "
        "timedelta(seconds=60))\n")], cwd=ROOT, env=env, check=True)
    answer = call(server.port, "GET", "/api/v1/health/?ready",
                  Authorization=f"Bearer {TOKEN}")
    print(f"readiness with a review waiting 60 s: {answer.status} {answer.json}")


def part_pumping(server: AsgiServer, tokens: dict[str, str], pumpers: int) -> None:
    port = server.port
    answers = []
    for index in range(pumpers):
        mine = tokens[f"feeder{index}"]
        created = call(port, "POST", "/api/v1/matches/", mine,
                       {"length": 7, "opponent": "pumped", "color": "white"})
        match_id = created.json["id"]
        joined = call(port, "POST", f"/api/v1/matches/{match_id}/join/", tokens["pumped"])
        statuses = set()
        for _ in range(20):  # each resignation ends a game: again, until the match ends
            resigned = call(port, "POST", f"/api/v1/matches/{match_id}/resign/", mine)
            statuses.add(resigned.status)
            if resigned.json.get("status") != "active":
                break
        answers.append((created.status, joined.status, *sorted(statuses)))
    ratings = call(port, "GET", "/api/v1/accounts/users/pumped/ratings/").json
    rows = ratings.get("ratings", []) if isinstance(ratings, dict) else ratings
    shown = [{k: r.get(k) for k in ("rules", "rating", "deviation", "provisional", "matches",
                                    "rank")} for r in rows if r.get("rules") == DEFAULT_RULES]
    print(f"pumping: {pumpers} resignations during the roll-off {sorted(set(answers))}: "
          f"{shown}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--methods", type=int, default=5000)
    parser.add_argument("--pumpers", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = server_env(Path(tmp) / "probe.sqlite3", METRICS_TOKEN=TOKEN,
                         THROTTLE_ANON="1000000/min", THROTTLE_USER="1000000/min")
        users = {"pumped": None, **{f"feeder{i}": None for i in range(args.pumpers)}}
        tokens = prepare_database(env, users)
        server = AsgiServer(env, 1)
        try:
            part_metrics(server, args.methods)
            part_readiness(server, env)
            part_pumping(server, tokens, args.pumpers)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
