"""The settings PgBouncer in transaction mode needs (docs/scaling.md).

PgBouncer 1.18 (Debian 12) hands a server connection to another client after each
transaction: no prepared statements (DB_PREPARE_THRESHOLD=0), no server-side cursors
(DB_DISABLE_SERVER_SIDE_CURSORS=1). deploy/cluster.sh sets both; bench/cluster.py runs
whole matches through the real PgBouncer with them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = ("import json; from django.conf import settings as s; "
        "print(json.dumps({a: {'options': d.get('OPTIONS', {}), "
        "'no_cursors': d.get('DISABLE_SERVER_SIDE_CURSORS', False), "
        "'max_age': d['CONN_MAX_AGE'], 'test': d.get('TEST', {})} "
        "for a, d in s.DATABASES.items()} | {'routers': s.DATABASE_ROUTERS}))")


def databases(**env: str) -> dict:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("DATABASE", "DB_", "DJANGO_SETTINGS"))}
    out = subprocess.run(
        [sys.executable, "-c", "import django, os; "
         "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'nard_site.settings'); "
         "django.setup(); " + SHOW],
        cwd=ROOT, env={**base, "DEBUG": "1", **env}, capture_output=True, text=True,
        check=True, timeout=60)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_behind_pgbouncer_transaction_mode() -> None:
    dbs = databases(DATABASE_URL="postgres://postgres@127.0.0.1:7410/nard",
                    DB_PREPARE_THRESHOLD="0", DB_DISABLE_SERVER_SIDE_CURSORS="1")
    assert "prepare_threshold" not in dbs["default"]["options"]
    assert dbs["default"]["no_cursors"] is True
    assert dbs["default"]["max_age"] == 60  # persistent connections to PgBouncer are fine
    assert "replica" not in dbs and dbs["routers"] == []


def test_direct_postgresql_keeps_prepared_statements() -> None:
    dbs = databases(DATABASE_URL="postgres://postgres@127.0.0.1:5432/nard")
    assert dbs["default"]["options"]["prepare_threshold"] == 5
    assert dbs["default"]["no_cursors"] is False


def test_replica_url_adds_the_alias_and_router() -> None:
    dbs = databases(DATABASE_URL="postgres://postgres@127.0.0.1:7410/nard",
                    DATABASE_REPLICA_URL="postgres://postgres@127.0.0.1:7412/nard")
    assert dbs["routers"] == ["nard_site.db_router.ReplicaRouter"]
    assert dbs["replica"]["test"]["MIRROR"] == "default"
    assert dbs["replica"]["options"]["connect_timeout"] == 2


def test_the_clusters_doorbell_listens_past_pgbouncer_on_the_primary() -> None:
    """A LISTEN through PgBouncer in transaction mode hears nothing (measured with the
    cluster: 3 rings sent, 0 heard; with DOORBELL_DATABASE_URL, 3 of 3): the cluster's
    nodes and workers send the doorbell's LISTEN to the primary itself."""
    out = subprocess.run(["bash", str(ROOT / "deploy" / "cluster.sh"), "env"], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60).stdout
    env = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    pooler = env["DATABASE_URL"].rsplit(":", 1)[1].split("/")[0]
    listen = env["DOORBELL_DATABASE_URL"].rsplit(":", 1)[1].split("/")[0]
    assert (pooler, listen) == ("7410", "7411")  # docs/scaling.md: PgBouncer, the primary
    assert env["DOORBELL_DATABASE_URL"].rsplit("/", 1)[1] == env["DATABASE_URL"].rsplit("/", 1)[1]
