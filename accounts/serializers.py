from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import User
from .stats import STAT_FIELDS, stats_for


class RegisterInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(write_only=True, max_length=128,
                                     style={"input_type": "password"}, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class RegisterOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"},
                                     trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class StatsSerializer(serializers.Serializer):
    matches_played = serializers.IntegerField()
    matches_won = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    mars_won = serializers.IntegerField()
    mars_lost = serializers.IntegerField()


assert tuple(StatsSerializer().fields) == STAT_FIELDS


class PublicProfileSerializer(serializers.ModelSerializer[User]):
    stats = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ("username", "display_name", "date_joined", "stats")
        read_only_fields = fields

    @extend_schema_field(StatsSerializer)
    def get_stats(self, user: User) -> dict[str, Any]:
        return stats_for(user)


class MeSerializer(PublicProfileSerializer):
    email = serializers.CharField(read_only=True, help_text="May be empty.")

    class Meta(PublicProfileSerializer.Meta):
        fields = ("username", "display_name", "email", "date_joined", "is_staff", "stats")
        read_only_fields = fields


class MeUpdateSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=64, allow_blank=True)
