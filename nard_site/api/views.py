from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from drf_spectacular.renderers import OpenApiJsonRenderer, OpenApiJsonRenderer2
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nard_site.cache import redis_status
from nard_site.metrics import COMPUTER_QUEUE, may_read_metrics

REDIS_FIELDS: dict[str, serializers.Field] = {
    "redis": serializers.CharField(required=False, help_text=(
        "With `REDIS_URL`: `ok`, or `degraded` while Redis does not answer (the throttle and "
        "log-in counters are in the database meanwhile; it is probed in the background).")),
    "redis_down_seconds": serializers.FloatField(required=False, help_text=(
        "While `degraded`: seconds since Redis stopped answering.")),
}


READY_FIELDS: dict[str, serializers.Field] = {
    "ready": serializers.BooleanField(required=False, help_text=(
        "With `?ready`: the node may take traffic — PostgreSQL answers, Redis (with "
        "`REDIS_URL`) is in use, and the oldest waiting job of the computer's queue "
        "(`default`) is younger than `READY_QUEUE_LAG_SECONDS` (else 503). The game "
        "reviews' queue never fails readiness.")),
    "queue_lag_seconds": serializers.FloatField(required=False, help_text=(
        "With `?ready`, to the metrics' networks only (`METRICS_ALLOWED` or "
        "`METRICS_TOKEN`): age of the oldest job waiting in the computer's queue (0: "
        "none).")),
    "review_lag_seconds": serializers.FloatField(required=False, help_text=(
        "With `?ready`, to the metrics' networks only: age of the oldest game review "
        "waiting in its queue (`analysis`; 0: none). A figure, never a reason for 503.")),
}


def queue_lag(*, computer: bool) -> float:
    """Seconds the oldest waiting job has waited: in the computer's queue (``default``,
    the one a node's readiness depends on), or in every other one (the game reviews')."""
    waiting = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
    waiting = (waiting.filter(queue_name=COMPUTER_QUEUE) if computer
               else waiting.exclude(queue_name=COMPUTER_QUEUE))
    oldest = waiting.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    return 0.0 if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())


class HealthView(APIView):
    """Liveness and database check: runs one real query; with `REDIS_URL`, says whether
    Redis is in use (`redis`: `ok`) or the counters are in the database while it does not
    answer (`degraded`, and `redis_down_seconds`). `?ready`: the readiness check of a node
    behind the balancer (`ready`; 503 when not ready): the figures (`queue_lag_seconds`,
    `review_lag_seconds`, `redis_down_seconds`) only to the metrics' networks
    (`METRICS_ALLOWED`, or `METRICS_TOKEN`); anyone else learns up or down."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        responses={
            200: inline_serializer(
                "Health",
                {"status": serializers.CharField(), "database": serializers.CharField(),
                 **REDIS_FIELDS, **READY_FIELDS},
            ),
            503: inline_serializer(
                "HealthDown",
                {"status": serializers.CharField(), "database": serializers.CharField(),
                 **REDIS_FIELDS, **READY_FIELDS},
            ),
        },
        parameters=[OpenApiParameter(
            "ready", str, required=False,
            description="Present: also check Redis and the task queue's lag (readiness).")],
    )
    def get(self, request: Request) -> Response:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                ok = cursor.fetchone() == (1,)
        except Exception:
            ok = False
        if ok and "ready" in request.query_params and settings.REDIS_URL:
            cache.get("nard:ready-probe")  # a real round trip: a failure opens the breaker
        redis = redis_status() or {}  # "degraded": counters in the database meanwhile
        if ok and "ready" in request.query_params:
            try:
                lag, review_lag = queue_lag(computer=True), queue_lag(computer=False)
            except Exception:
                lag, review_lag, ok = 0.0, 0.0, False
            ready = (ok and redis.get("redis") != "degraded"
                     and lag <= settings.READY_QUEUE_LAG_SECONDS)
            body: dict[str, object] = {"status": "ok" if ready else "not_ready",
                                       "database": "ok", "ready": ready}
            if may_read_metrics(request):
                body.update(redis, queue_lag_seconds=round(lag, 3),
                            review_lag_seconds=round(review_lag, 3))
            elif "redis" in redis:
                body["redis"] = redis["redis"]
            return Response(body, status=200 if ready else 503)
        if ok:
            return Response({"status": "ok", "database": "ok", **redis})
        return Response({"status": "error", "database": "unavailable", **redis}, status=503)


class SchemaView(SpectacularJSONAPIView):
    """The OpenAPI 3 schema as ``application/json`` (``vnd.oai.openapi+json`` if asked)."""

    renderer_classes = [OpenApiJsonRenderer2, OpenApiJsonRenderer]
