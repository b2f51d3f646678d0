"""Inputs of ratings/ and the answers' schema serializers (built from ratings.shapes)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import MATCH_LENGTHS, MAX_TURN_SECONDS, MIN_TURN_SECONDS, Stakes
from games.serializers import RulesField
from nard_site.api.shapes import schema_serializer
from ratings import shapes

KNOWN = {"rules", "length", "stakes", "turn_seconds", "rated", "bots"}


class PairingInputSerializer(serializers.Serializer):
    schema_closed = True  # unknown options are refused (validate): the schema says so
    rules = RulesField()
    length = serializers.ChoiceField(choices=MATCH_LENGTHS)
    stakes = serializers.ChoiceField(choices=Stakes.values, required=False, default=Stakes.NONE)
    turn_seconds = serializers.IntegerField(required=False, allow_null=True, default=None,
                                            min_value=MIN_TURN_SECONDS,
                                            max_value=MAX_TURN_SECONDS)
    rated = serializers.BooleanField(required=False, default=True)
    bots = serializers.BooleanField(
        required=False, default=False,
        help_text="Accept a bot account as the opponent (bots never play rated: ask with "
                  "`rated: false` to meet one). Without it, quick pairing seats only people.")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - KNOWN) if isinstance(
            self.initial_data, dict) else []
        if unknown:
            raise serializers.ValidationError({k: ["Unknown option."] for k in unknown})
        return data


LeaderboardSerializer = schema_serializer(shapes.Leaderboard)
UserRatingsSerializer = schema_serializer(shapes.UserRatings)
PairingStateSerializer = schema_serializer(shapes.PairingState)
