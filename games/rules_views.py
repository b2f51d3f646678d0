"""``GET rules/`` and ``GET rules/{name}/``: the rule sets' facts (games.rule_sets).

Public and cacheable: ``Cache-Control: public, max-age=…`` and a strong ``ETag``; a
request whose ``If-None-Match`` names the current ETag gets ``304`` with no body.
"""

from __future__ import annotations

from typing import Any

from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import rule_sets, shapes
from nard_site.api.shapes import schema_serializer

RuleSetSerializer = schema_serializer(shapes.RuleSet)

MAX_AGE = 3600
"""Seconds a client may keep the answer without asking (rule sets change with a deploy)."""


def _cached(request: Request, body: Any) -> Response:
    tag = rule_sets.etag(body)
    asked = request.headers.get("If-None-Match", "")
    if tag in (t.strip().removeprefix("W/") for t in asked.split(",")) or asked.strip() == "*":
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = Response(body)
    response["ETag"] = tag
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response


class RuleSetsView(APIView):
    """Every rule set the server plays, with its facts (docs/api.md "Rule sets")."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RuleSetSerializer(many=True),
                              304: OpenApiResponse(description="Not modified (`If-None-Match`).")})
    def get(self, request: Request) -> Response:
        return _cached(request, rule_sets.rule_sets_json())


class RuleSetView(APIView):
    """One rule set's facts; `404 not_found` for a name the server does not play."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RuleSetSerializer,
                              304: OpenApiResponse(description="Not modified (`If-None-Match`)."),
                              404: OpenApiResponse(description="No such rule set.")})
    def get(self, request: Request, name: str) -> Response:
        return _cached(request, rule_sets.rule_set_detail(name))
