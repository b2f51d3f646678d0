from django.db import connection
from drf_spectacular.renderers import OpenApiJsonRenderer, OpenApiJsonRenderer2
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nard_site.cache import redis_status

REDIS_FIELDS: dict[str, serializers.Field] = {
    "redis": serializers.CharField(required=False, help_text=(
        "With `REDIS_URL`: `ok`, or `degraded` while Redis does not answer (the throttle and "
        "log-in counters are in the database meanwhile; it is probed in the background).")),
    "redis_down_seconds": serializers.FloatField(required=False, help_text=(
        "While `degraded`: seconds since Redis stopped answering.")),
}


class HealthView(APIView):
    """Liveness and database check: runs one real query; with `REDIS_URL`, says whether
    Redis is in use (`redis`: `ok`) or the counters are in the database while it does not
    answer (`degraded`, and `redis_down_seconds`)."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        responses={
            200: inline_serializer(
                "Health",
                {"status": serializers.CharField(), "database": serializers.CharField(),
                 **REDIS_FIELDS},
            ),
            503: inline_serializer(
                "HealthDown",
                {"status": serializers.CharField(), "database": serializers.CharField(),
                 **REDIS_FIELDS},
            ),
        }
    )
    def get(self, request: Request) -> Response:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                ok = cursor.fetchone() == (1,)
        except Exception:
            ok = False
        redis = redis_status() or {}  # "degraded": counters in the database meanwhile
        if ok:
            return Response({"status": "ok", "database": "ok", **redis})
        return Response({"status": "error", "database": "unavailable", **redis}, status=503)


class SchemaView(SpectacularJSONAPIView):
    """The OpenAPI 3 schema as ``application/json`` (``vnd.oai.openapi+json`` if asked)."""

    renderer_classes = [OpenApiJsonRenderer2, OpenApiJsonRenderer]
