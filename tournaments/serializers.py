"""Inputs of tournaments/ and the answers' schema serializers (built from
tournaments.shapes)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import MATCH_LENGTHS, MAX_TURN_SECONDS, MIN_TURN_SECONDS, Stakes
from games.serializers import RulesField
from nard_site.api.shapes import schema_serializer
from tournaments import shapes
from tournaments.models import Entry, System
from tournaments.services import MAX_PLAYERS


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know (400 ``validation_error`` naming them)."""

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - set(self.fields)) if isinstance(
            self.initial_data, dict) else []
        if unknown:
            raise serializers.ValidationError({k: ["Unknown field."] for k in unknown})
        return data


class TournamentCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=80)
    system = serializers.ChoiceField(choices=System.values)
    rules = RulesField()
    length = serializers.ChoiceField(choices=MATCH_LENGTHS)
    stakes = serializers.ChoiceField(choices=Stakes.values, required=False, default=Stakes.NONE)
    rated = serializers.BooleanField(required=False, default=True)
    turn_seconds = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        help_text="Each match's clock; `null`: the server's default "
                  "(TOURNAMENT_DEFAULT_TURN_SECONDS).")
    minutes = serializers.IntegerField(required=False, allow_null=True, default=None,
                                       min_value=1, max_value=24 * 60,
                                       help_text="Arena (required): its duration.")
    rounds = serializers.IntegerField(required=False, allow_null=True, default=None,
                                      min_value=1, max_value=30,
                                      help_text="Swiss (required): its number of rounds.")
    third_place = serializers.BooleanField(required=False, default=False,
                                           help_text="Knock-out: a third-place match.")
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                          help_text="`null`: the creator starts it.")
    max_players = serializers.IntegerField(required=False, default=64, min_value=2,
                                           max_value=MAX_PLAYERS)
    entry = serializers.ChoiceField(choices=Entry.values, required=False, default=Entry.OPEN,
                                    help_text="`open`: listed; `link`: joined with its code.")
    allow_computer = serializers.BooleanField(
        required=False, default=False,
        help_text="The creator may enter the computer's levels (labelled; never rated).")


class JoinSerializer(StrictSerializer):
    code = serializers.CharField(required=False, default="", allow_blank=True, max_length=40,
                                 help_text="Entry by link: its code.")
    computer = serializers.CharField(required=False, allow_null=True, default=None,
                                     max_length=32,
                                     help_text="The creator enters this computer level.")


class PauseSerializer(StrictSerializer):
    paused = serializers.BooleanField(required=False, default=True,
                                      help_text="`false`: resume.")


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False,
                                     default=0)


TournamentSerializer = schema_serializer(shapes.Tournament)
TournamentListSerializer = schema_serializer(shapes.TournamentList)
TournamentEventSerializer = schema_serializer(shapes.TournamentEvent)
