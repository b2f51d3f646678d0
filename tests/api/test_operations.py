"""Production defaults, SQLite under concurrent writers, and the Idempotency-Key purge."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.utils import timezone

from nard_site.api.models import IdempotencyRecord

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "NUM_PROXIES")}
    base["DJANGO_SETTINGS_MODULE"] = "nard_site.settings"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120)


def test_debug_defaults_off_and_then_needs_a_secret_key():
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    refused = _python(code)
    assert refused.returncode != 0 and "SECRET_KEY must be set" in refused.stderr
    assert _python(code, SECRET_KEY="s" * 50).stdout.strip() == "False"
    assert _python(code, DEBUG="1").stdout.strip() == "True"


def test_without_debug_there_is_no_browsable_api_and_no_forwarded_proto(tmp_path):
    code = """
import django; django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.test import Client
r = Client().get("/api/v1/health/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8",
                 secure=True)
print(r.status_code, r["Content-Type"], settings.SECURE_PROXY_SSL_HEADER,
      settings.CACHES["default"]["BACKEND"])
"""
    result = _python(code, SECRET_KEY="s" * 50, DATABASE_URL=f"sqlite:///{tmp_path / 'db'}")
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["200", "application/json", "None",
                                     "nard_site.cache.CountersCache"]


CONCURRENT_WRITERS = """
import threading, time, django
django.setup()
from django.db import connection, transaction
with connection.cursor() as c:
    c.execute("CREATE TABLE t (n integer)")
errors = []
def writer():
    from django.db import connection
    try:
        with transaction.atomic():
            with connection.cursor() as c:
                c.execute("SELECT count(*) FROM t")  # a read, then a write, in one transaction
                time.sleep(0.3)
                c.execute("INSERT INTO t VALUES (1)")
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()
threads = [threading.Thread(target=writer) for _ in range(4)]
[t.start() for t in threads]; [t.join() for t in threads]
with connection.cursor() as c:
    c.execute("SELECT count(*) FROM t")
    print(c.fetchone()[0], errors)
"""


def test_sqlite_serialises_concurrent_writers_instead_of_failing(tmp_path):
    result = _python(CONCURRENT_WRITERS, DEBUG="1",
                     DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "4 []"


def test_purge_idempotency_keys_deletes_only_expired_records(make_user, settings):
    user = make_user()
    old = IdempotencyRecord.objects.create(user=user, key="old", fingerprint="x")
    IdempotencyRecord.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL + 60))
    IdempotencyRecord.objects.create(user=user, key="fresh", fingerprint="y")
    out = StringIO()
    call_command("purge_idempotency_keys", stdout=out)
    assert "deleted 1 expired Idempotency-Key record" in out.getvalue()
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["fresh"]
