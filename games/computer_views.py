"""``GET computer/``: the computer's levels (games.opponents)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import opponents, shapes
from nard_site.api.shapes import schema_serializer

RulesLevelsSerializer = schema_serializer(shapes.RulesLevels)


class ComputerLevelsView(APIView):
    """The computer's levels for each rule set, with a sentence each (docs/computer.md)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RulesLevelsSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(opponents.levels_json())
