from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from nard_site.api.shapes import schema_serializer

from . import names
from .models import User
from .passwords import password_min_length
from .stats import Stats, stats_for


class UsernameField(serializers.CharField):
    """A username, normalised (NFKC) before any validator sees it, as it is stored."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", names.USERNAME_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        return names.normalize(super().to_internal_value(data))


def _staff_names() -> list[str]:
    return list(User.objects.filter(is_staff=True).values_list("username", flat=True))


class RegisterInputSerializer(serializers.Serializer):
    username = UsernameField(validators=[UnicodeUsernameValidator()])
    # min_length as the password validators require (the schema's minLength says it).
    password = serializers.CharField(write_only=True, max_length=128,
                                     min_length=password_min_length(),
                                     style={"input_type": "password"}, trim_whitespace=False)
    # 254: the longest address SMTP carries (RFC 5321), and the column's size. No default:
    # the schema's "" would not be an email (accounts.services.user_register's is "").
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254)

    def validate_username(self, value: str) -> str:
        problem = names.username_problem(value, taken_by_staff=_staff_names())
        if problem:
            raise serializers.ValidationError(problem)
        return value


class RegisterOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class TokenInputSerializer(serializers.Serializer):
    username = UsernameField()
    password = serializers.CharField(max_length=128, style={"input_type": "password"},
                                     trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


StatsSerializer = schema_serializer(Stats)
"""Documents ``stats`` (built from :class:`accounts.stats.Stats`, the shape itself)."""


class PublicProfileSerializer(serializers.ModelSerializer[User]):
    stats = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ("username", "display_name", "is_bot", "date_joined", "stats")
        read_only_fields = fields

    @extend_schema_field(StatsSerializer)
    def get_stats(self, user: User) -> Stats:
        return stats_for(user)


class MeSerializer(PublicProfileSerializer):
    email = serializers.CharField(read_only=True, help_text="May be empty.")

    class Meta(PublicProfileSerializer.Meta):
        fields = ("username", "display_name", "is_bot", "email",  # type: ignore[assignment]
                  "date_joined", "is_staff", "stats")
        read_only_fields = fields  # type: ignore[assignment]


class DisplayNameField(serializers.CharField):
    """A display name: the schema says the characters it may never hold (control and
    text-direction characters; ``names.display_name_problem`` checks the rest)."""

    schema_pattern = ("^[^\\u0000-\\u001f\\u007f-\\u009f"
                      + "".join(f"\\u{ord(c):04x}" for c in sorted(names.BIDI_CONTROLS))
                      + "]*$")


class MeUpdateSerializer(serializers.Serializer):
    """``context["user"]`` is the player whose profile changes."""

    display_name = DisplayNameField(max_length=64, allow_blank=True)

    def validate_display_name(self, value: str) -> str:
        user = self.context["user"]
        problem = names.display_name_problem(
            value, own_username=user.username,
            taken_by_staff=[] if user.is_staff else _staff_names())
        if problem:
            raise serializers.ValidationError(problem)
        return value
