"""Throttling and log-in limits against real servers (runserver subprocesses, production
settings: DEBUG off, the database cache, no Redis), with real forwarded headers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from tests.support import ROOT, free_port

PASSWORD = "long-nardy-2026"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (
        "DEBUG", "DATABASE_URL", "REDIS_URL", "NUM_PROXIES", "SECURE_SSL_REDIRECT")}
    return {**env, "DJANGO_SETTINGS_MODULE": "nard_site.settings", "DEBUG": "0",
            "SECRET_KEY": "live-throttling-" + "k" * 40, "LOG_LEVEL": "ERROR", **extra}


@pytest.fixture(scope="module")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("live") / "template.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT,
                   env=_env(DATABASE_URL=f"sqlite:///{path}"), check=True, timeout=300)
    return path


@pytest.fixture
def server(migrated_db: Path, tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``server(**env)`` starts a server on a copy of the migrated database; its base URL."""
    started: list[subprocess.Popen[bytes]] = []

    def start(**env: str) -> str:
        db = tmp_path / f"db{len(started)}.sqlite3"
        shutil.copy(migrated_db, db)
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT, env=_env(DATABASE_URL=f"sqlite:///{db}", **env),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                requests.get(f"{base}/api/v1/", timeout=2, allow_redirects=False)
                return base
            except requests.ConnectionError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


def _code(response: requests.Response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def test_a_rotating_x_forwarded_for_does_not_escape_the_read_limit(server):
    base = server(SECURE_SSL_REDIRECT="0", THROTTLE_ANON="5/min")
    answers = [requests.get(f"{base}/api/v1/health/", timeout=10,
                            headers={"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(7)]
    assert [r.status_code for r in answers] == [200] * 5 + [429, 429]
    assert _code(answers[5]) == "throttled" and int(answers[5].headers["Retry-After"]) > 0


def test_a_rotating_x_forwarded_for_does_not_escape_the_log_in_limit(server):
    base = server(SECURE_SSL_REDIRECT="0", THROTTLE_ANON="10000/min")
    created = requests.post(f"{base}/api/v1/accounts/register/", timeout=10,
                            json={"username": "target", "password": PASSWORD})
    assert created.status_code == 201, created.text
    token_url = f"{base}/api/v1/accounts/token/"
    for i in range(12):
        wrong = requests.post(token_url, timeout=10, json={"username": "target",
                                                           "password": f"guess-{i}"},
                              headers={"X-Forwarded-For": f"198.51.100.{i}"})
        assert wrong.status_code == (401 if i < 10 else 429), (i, wrong.text)
    right = requests.post(token_url, timeout=10, json={"username": "TARGET", "password": PASSWORD},
                          headers={"X-Forwarded-For": "192.0.2.77"})
    assert right.status_code == 429, right.text
    assert _code(right) == "throttled"
    assert "failed log-ins" in right.json()["error"]["message"]
    assert int(right.headers["Retry-After"]) > 0


def test_x_forwarded_proto_from_a_client_is_not_believed(server):
    base = server()  # DEBUG off: HTTPS redirect and HSTS on, no proxy configured
    response = requests.get(f"{base}/api/v1/health/", timeout=10, allow_redirects=False,
                            headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 301
    assert response.headers["Location"].startswith("https://")
    assert "Strict-Transport-Security" not in response.headers


def test_behind_a_proxy_counters_survive_hundreds_of_other_identities(server):
    base = server(NUM_PROXIES="1", THROTTLE_ANON="3/min")
    proxied = {"X-Forwarded-Proto": "https"}

    def read(client: str) -> requests.Response:
        return requests.get(f"{base}/api/v1/health/", timeout=10, allow_redirects=False,
                            headers={**proxied, "X-Forwarded-For": f"spoofed, {client}"})

    first = [read("203.0.113.9").status_code for _ in range(4)]
    assert first == [200, 200, 200, 429]
    assert "Strict-Transport-Security" in read("2001:db8::1").headers  # the proxy said https
    others = [read(f"2001:db8::{i:x}").status_code for i in range(2, 332)]
    assert others == [200] * 330  # each a client of its own (the proxy's last address)
    again = read("203.0.113.9")
    assert again.status_code == 429 and _code(again) == "throttled"
