"""GET /metrics (not public), the request id, JSON logs, health/?ready."""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from nard_site.clients import ip_address
from tests.support import Seat, assert_error, start_match

pytestmark = pytest.mark.django_db


def scrape(client: Any, **extra: Any) -> str:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return response.content.decode()


def value(text: str, name: str, **labels: str) -> float:
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = rf"^{re.escape(name)}{{{re.escape(want)}}} (\S+)$" if want else \
        rf"^{re.escape(name)} (\S+)$"
    found = re.search(pattern, text, re.M)
    near = "\n".join(line for line in text.splitlines() if line.startswith(name))
    assert found, f"{name}{{{want}}} not in the metrics:\n{near}"
    return float(found.group(1))


def test_the_metrics_are_scraped(api: Any, alice: Seat, bob: Seat, scripted_dice: Any
                                 ) -> None:
    before = scrape(api)
    moves_before = value(before, "nard_moves_committed_total")
    state = start_match(alice, bob, script=scripted_dice, rolloff=(6, 1))
    match_id = state["id"]
    scripted_dice(6, 3)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}]})
    text = scrape(api)
    assert value(text, "nard_moves_committed_total") == moves_before + 1
    assert value(text, "nard_request_seconds_count", route="match-moves", method="POST") >= 1
    assert value(text, "nard_request_seconds_count", route="match-list", method="POST") >= 1
    assert value(text, "nard_open_streams") == 0
    assert value(text, "nard_redis_degraded") == 0
    assert value(text, "nard_task_queue_depth") >= 0
    assert "nard_computer_think_seconds_bucket" in text
    assert "nard_database_errors_total" in text or "nard_database_errors" in text


def test_queue_depth_and_oldest_job_age(api: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.create(
        status="READY", args_kwargs={"args": [], "kwargs": {}}, priority=0,
        task_path="games.tasks.bot_turn", queue_name="default", backend_name="default",
        run_after=timezone.now())
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(seconds=120))
    text = scrape(api)
    assert value(text, "nard_task_queue_depth") == 1
    assert value(text, "nard_task_queue_oldest_seconds") >= 120
    # ... and the readiness check says the queue lags (READY_QUEUE_LAG_SECONDS, 30).
    response = api.get("/api/v1/health/?ready")
    assert response.status_code == 503
    assert response.json()["ready"] is False
    assert response.json()["queue_lag_seconds"] >= 120
    assert api.get("/api/v1/health/").status_code == 200  # liveness is unchanged


def test_ready_when_everything_answers(api: Any) -> None:
    response = api.get("/api/v1/health/?ready")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "ready": True,
                               "queue_lag_seconds": 0.0, "review_lag_seconds": 0.0}


def waiting_job(queue: str, age: float) -> None:
    from django_tasks_db.models import DBTaskResult

    job = DBTaskResult.objects.create(
        status="READY", args_kwargs={"args": [], "kwargs": {}}, priority=0,
        task_path="reviews.tasks.analyse" if queue == "analysis" else "games.tasks.bot_turn",
        queue_name=queue, backend_name="default", run_after=timezone.now())
    DBTaskResult.objects.filter(pk=job.pk).update(
        enqueued_at=timezone.now() - timedelta(seconds=age))


def test_a_review_backlog_never_fails_readiness(api: Any) -> None:
    """Only the computer's queue counts for readiness; the reviews' lag is its own figure."""
    waiting_job("analysis", 600)
    response = api.get("/api/v1/health/?ready")
    assert response.status_code == 200, response.json()
    assert response.json()["ready"] is True
    assert response.json()["queue_lag_seconds"] == 0.0
    assert response.json()["review_lag_seconds"] >= 600
    text = scrape(api)
    assert value(text, "nard_task_queue_depth") == 0
    assert value(text, "nard_review_queue_depth") == 1
    assert value(text, "nard_review_queue_oldest_seconds") >= 600


def test_readiness_figures_only_to_the_metrics_networks(api: Any) -> None:
    waiting_job("default", 120)
    with override_settings(METRICS_ALLOWED=[]):
        response = api.get("/api/v1/health/?ready")
        assert response.status_code == 503
        assert response.json() == {"status": "not_ready", "database": "ok", "ready": False}
        with override_settings(METRICS_TOKEN="s3cret-token"):
            told = api.get("/api/v1/health/?ready", HTTP_AUTHORIZATION="Bearer s3cret-token")
            assert told.status_code == 503
            assert told.json()["queue_lag_seconds"] >= 120


def test_unknown_methods_share_one_label(api: Any) -> None:
    """A method label takes a fixed set of values: random methods are all ``other``."""
    for word in ("FOOA", "FOOB", "FOOC"):
        assert api.generic(word, "/api/v1/no-such-thing/").status_code == 404
    text = scrape(api)
    assert "FOO" not in text
    assert sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("nard_request_seconds_count{") and 'method="other"' in line) >= 3


def test_metrics_are_not_public(api: Any) -> None:
    with override_settings(METRICS_ALLOWED=[]):
        assert_error(api.get("/metrics"), 404, "not_found")
        with override_settings(METRICS_TOKEN="s3cret-token"):
            assert_error(api.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong"), 404,
                         "not_found")
            assert "nard_request_seconds" in scrape(
                api, HTTP_AUTHORIZATION="Bearer s3cret-token")
    # Behind the proxy the client's address counts, not the proxy's.
    from django.conf import settings
    with override_settings(METRICS_ALLOWED=[ipaddress.ip_network("127.0.0.1/32")]):
        assert api.get("/metrics").status_code == 200
        with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}):
            assert_error(api.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9"), 404,
                         "not_found")
            assert api.get("/metrics", HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 200


def test_request_id_is_carried_or_made(api: Any) -> None:
    given = "0123456789abcdef0123456789abcdef"
    assert api.get("/api/v1/health/", HTTP_X_REQUEST_ID=given)["X-Request-Id"] == given
    made = api.get("/api/v1/health/")["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    # A header that does not look like an id is not echoed (nor logged).
    odd = api.get("/api/v1/health/", HTTP_X_REQUEST_ID="bad id\r\n")["X-Request-Id"]
    assert odd != "bad id\r\n" and re.fullmatch(r"[0-9a-f]{32}", odd)


def test_json_log_lines_carry_the_request_id() -> None:
    from nard_site.metrics import JsonFormatter, request_id_var

    token = request_id_var.set("req-12345678")
    try:
        record = logging.LogRecord("games", logging.WARNING, __file__, 1, "moved %s", ("x",),
                                   None)
        line = json.loads(JsonFormatter().format(record))
    finally:
        request_id_var.reset(token)
    assert line["request_id"] == "req-12345678"
    assert line["message"] == "moved x" and line["level"] == "WARNING"


def test_a_column_of_addresses_gets_an_address_or_nothing(rf) -> None:
    """What the pool and the reviews store of a client (``nard_site.clients.ip_address``):
    the address when it is one, never a word an ``inet`` column refuses."""
    assert ip_address(rf.get("/", REMOTE_ADDR="10.0.3.1")) == "10.0.3.1"
    assert ip_address(rf.get("/", REMOTE_ADDR="::1")) == "::1"
    request = rf.get("/")
    del request.META["REMOTE_ADDR"]
    assert ip_address(request) is None
    assert ip_address(rf.get("/", REMOTE_ADDR="10.0.0.668")) is None
