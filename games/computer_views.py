"""``GET computer/``: the computer's levels (games.opponents)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import opponents
from games.models import Rules


class LevelSerializer(serializers.Serializer):
    level = serializers.CharField(help_text="What `POST matches/` takes as `computer`.")
    description = serializers.CharField(help_text="How this level plays, in a sentence.")
    account = serializers.CharField(help_text="The account it plays as (`is_bot` on its "
                                              "public profile).")


class RulesLevelsSerializer(serializers.Serializer):
    rules = serializers.ChoiceField(choices=Rules.values)
    levels = LevelSerializer(many=True, help_text="Weakest first.")


class ComputerLevelsView(APIView):
    """The computer's levels for each rule set, with a sentence each (docs/computer.md)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RulesLevelsSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(opponents.levels_json())
