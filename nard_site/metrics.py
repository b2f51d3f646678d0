"""Prometheus metrics, request ids and JSON logs of one app node.

``GET /metrics`` (prometheus_client's text format) answers only the addresses of
``METRICS_ALLOWED`` (CIDRs; the client address as the throttles see it, NUM_PROXIES-aware)
or a request with ``Authorization: Bearer <METRICS_TOKEN>``; anyone else gets 404, and
deploy/nginx.conf does not pass /metrics on: scrape each node on its own port.

Per process (granian with one worker per node here; with several workers per node scrape
each, or set up prometheus_client's multiprocess mode):

* ``nard_request_seconds{route,method}``: latency histogram by URL route name (the
  route's name or pattern, never the path; ``unmatched`` for a 404) and method (one of
  :data:`KNOWN_METHODS`, ``other`` for any other: a label's values are a fixed set, so a
  client sending random methods cannot grow the process's memory or the scrape);
* ``nard_moves_committed_total``: answered ``moves/`` actions;
* ``nard_open_streams``: live streams and long-polls open in this process (a gauge the
  streams' app registers with :func:`gauge`: this module imports none of the apps);
* ``nard_task_queue_depth``, ``nard_task_queue_oldest_seconds``: jobs waiting (READY) in
  the computer's queue (``default``, the one ``health/?ready`` measures) and the age of the
  oldest (read at scrape time from the queue's table); ``nard_review_queue_depth``,
  ``nard_review_queue_oldest_seconds``: the same of the game reviews' queue(s), apart, so
  a review backlog is seen without making a node "not ready";
* ``nard_computer_think_seconds``: run time of the computer's jobs finished in the last
  ``METRICS_THINK_WINDOW`` seconds (a histogram rebuilt at each scrape, from the table);
* ``nard_database_errors_total{alias}``: database errors answered as 5xx, and replica
  connection failures (``alias="replica"``); ``nard_redis_degraded``: 1 while the Redis
  breaker is open (nard_site/cache.py), and ``nard_redis_down_seconds``.

Logs: with ``LOG_FORMAT=json`` each record is one JSON object with ``request_id``: the
proxy's ``X-Request-Id`` (nginx's ``$request_id``) when it looks like one, else a new id;
the response echoes it in ``X-Request-Id``.
"""

from __future__ import annotations

import contextvars
import ipaddress
import json
import logging
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

from nard_site.api.errors import handler404
from nard_site.cache import redis_status
from nard_site.clients import client_address

REQUEST_SECONDS = Histogram(
    "nard_request_seconds", "Request latency by route (until the response starts).",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
MOVES = Counter("nard_moves_committed", "Moves answered 200 (committed) by this process.")
DB_ERRORS = Counter("nard_database_errors", "Database errors by alias.", ["alias"])
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods labelled by name (deploy/nginx.conf answers 405 to any other)."""


def method_label(method: str | None) -> str:
    """``method`` when it is one of :data:`KNOWN_METHODS`, else ``other``."""
    return method if method in KNOWN_METHODS else "other"


COMPUTER_QUEUE = "default"
"""The task queue of the computer's turns (django-tasks' default queue): a node's
readiness depends on its lag; the other queues (the game reviews') are reported apart."""

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar(
    "nard_request_id", default="-")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def count_db_error(alias: str) -> None:
    DB_ERRORS.labels(alias=alias).inc()


def _on_exception(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    exc = sys.exc_info()[1]
    if isinstance(exc, DatabaseError):
        count_db_error("default")


got_request_exception.connect(_on_exception, dispatch_uid="nard_metrics_db_errors")


class QueueCollector(Collector):
    """The task queue and the computer's think time, read at scrape time."""

    def collect(self) -> Iterator[Any]:
        try:
            # Here, not at the top: this module is loaded with the logging configuration
            # (JsonFormatter), before the apps' models are.
            from django_tasks.base import TaskResultStatus
            from django_tasks_db.models import DBTaskResult
            now = timezone.now()
            ready = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
            queues = []
            for waiting in (ready.filter(queue_name=COMPUTER_QUEUE),
                            ready.exclude(queue_name=COMPUTER_QUEUE)):
                oldest = (waiting.order_by("enqueued_at")
                          .values_list("enqueued_at", flat=True).first())
                queues.append((waiting.count(),
                               (now - oldest).total_seconds() if oldest else 0.0))
            window = now - timedelta(seconds=settings.METRICS_THINK_WINDOW)
            runs = list(DBTaskResult.objects.filter(
                status=TaskResultStatus.SUCCESSFUL, finished_at__gte=window,
                task_path__endswith=".bot_turn").values_list("started_at", "finished_at"))
        except DatabaseError:
            count_db_error("default")
            return
        (depth, age), (review_depth, review_age) = queues
        yield GaugeMetricFamily("nard_task_queue_depth",
                                "Jobs waiting to run in the computer's queue.", value=depth)
        yield GaugeMetricFamily("nard_task_queue_oldest_seconds",
                                "Age of the computer's oldest waiting job (0: none).",
                                value=age)
        yield GaugeMetricFamily("nard_review_queue_depth",
                                "Game reviews waiting to run.", value=review_depth)
        yield GaugeMetricFamily("nard_review_queue_oldest_seconds",
                                "Age of the oldest waiting game review (0: none).",
                                value=review_age)
        seconds = [(f - s).total_seconds() for s, f in runs if s and f]
        counts = [sum(1 for x in seconds if x <= b) for b in THINK_BUCKETS]
        buckets = [(str(b), c) for b, c in zip(THINK_BUCKETS, counts, strict=True)]
        buckets.append(("+Inf", len(seconds)))
        yield HistogramMetricFamily(
            "nard_computer_think_seconds",
            "Run time of the computer's jobs finished in the last METRICS_THINK_WINDOW s.",
            buckets=buckets, sum_value=sum(seconds))


_gauges: dict[str, tuple[str, Callable[[], float]]] = {}


def gauge(name: str, documentation: str, read: Callable[[], float]) -> None:
    """A gauge of this process read at scrape time by ``read``: how an app above this
    plumbing (the streams' open count) puts its state on ``/metrics``, registered at its
    ``AppConfig.ready``. Registering a name again replaces it."""
    _gauges[name] = (documentation, read)


class StateCollector(Collector):
    """The gauges registered with :func:`gauge` and the Redis breaker of this process."""

    def collect(self) -> Iterator[Any]:
        for name, (documentation, read) in list(_gauges.items()):
            yield GaugeMetricFamily(name, documentation, value=read())
        status = redis_status() or {}
        yield GaugeMetricFamily("nard_redis_degraded", "1 while Redis is not answering.",
                                value=1.0 if status.get("redis") == "degraded" else 0.0)
        yield GaugeMetricFamily("nard_redis_down_seconds", "Seconds Redis has been away.",
                                value=float(status.get("redis_down_seconds") or 0.0))


_collectors_registered = False


def register_collectors() -> None:
    global _collectors_registered
    if not _collectors_registered:
        REGISTRY.register(QueueCollector())
        REGISTRY.register(StateCollector())
        _collectors_registered = True


def may_read_metrics(request: HttpRequest) -> bool:
    """Whether ``request`` comes from the metrics' networks (``METRICS_ALLOWED``) or
    carries ``METRICS_TOKEN``: who may read this node's figures (here and in
    ``health/?ready``)."""
    token = settings.METRICS_TOKEN
    if token and request.META.get("HTTP_AUTHORIZATION", "") == f"Bearer {token}":
        return True
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(address in net for net in settings.METRICS_ALLOWED)


def metrics_view(request: HttpRequest) -> HttpResponse:
    """The node's metrics, for the addresses of METRICS_ALLOWED (else a 404)."""
    if not may_read_metrics(request):
        return handler404(request, None)
    register_collectors()
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)


class RequestMetricsMiddleware:
    """Request id (from X-Request-Id or new, echoed), latency by route, moves counted."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        rid = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        token = request_id_var.set(rid)
        request.request_id = rid  # type: ignore[attr-defined]
        started = time.perf_counter()
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        match = request.resolver_match
        route = match.url_name or match.route if match is not None else "unmatched"
        REQUEST_SECONDS.labels(route=route or "unnamed",
                               method=method_label(request.method)).observe(
            time.perf_counter() - started)
        if route == "match-moves" and response.status_code == 200:
            MOVES.inc()
        response["X-Request-Id"] = rid
        return response


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, request_id (+ exc)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
                 "level": record.levelname, "logger": record.name,
                 "message": record.getMessage(), "request_id": request_id_var.get()}
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
