from django.db import connection
from drf_spectacular.renderers import OpenApiJsonRenderer, OpenApiJsonRenderer2
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class HealthView(APIView):
    """Liveness and database check: runs one real query."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        responses={
            200: inline_serializer(
                "Health",
                {"status": serializers.CharField(), "database": serializers.CharField()},
            ),
            503: inline_serializer(
                "HealthDown",
                {"status": serializers.CharField(), "database": serializers.CharField()},
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
        if ok:
            return Response({"status": "ok", "database": "ok"})
        return Response({"status": "error", "database": "unavailable"}, status=503)


class SchemaView(SpectacularJSONAPIView):
    """The OpenAPI 3 schema as ``application/json`` (``vnd.oai.openapi+json`` if asked)."""

    renderer_classes = [OpenApiJsonRenderer2, OpenApiJsonRenderer]
