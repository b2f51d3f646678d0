from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from nard_site.api.shapes import schema_serializer

from . import names, scopes
from .models import ApiToken, User
from .notices import NoticeItem
from .passwords import password_min_length
from .selectors import CHALLENGE_SETTINGS
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


class GuestOutputSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="The guest's name, e.g. `Guest-7f3a`.")
    token = serializers.CharField(help_text="Its API token (the page's session is logged "
                                            "in as the guest too).")
    is_guest = serializers.BooleanField()


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
        fields = ("username", "display_name", "is_bot", "is_guest", "date_joined", "stats")
        read_only_fields = fields

    @extend_schema_field(StatsSerializer)
    def get_stats(self, user: User) -> Stats:
        return stats_for(user)


class MeSerializer(PublicProfileSerializer):
    email = serializers.CharField(read_only=True, help_text="May be empty.")

    class Meta(PublicProfileSerializer.Meta):
        fields = ("username", "display_name", "is_bot", "is_guest",  # type: ignore[assignment]
                  "email", "date_joined", "is_staff", "challenges", "stats")
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
    challenges = serializers.ChoiceField(
        choices=CHALLENGE_SETTINGS, help_text="Who may invite you to a match: `everyone`, "
                                              "`following` (those you follow) or `nobody`.")

    def validate_display_name(self, value: str) -> str:
        user = self.context["user"]
        problem = names.display_name_problem(
            value, own_username=user.username,
            taken_by_staff=[] if user.is_staff else _staff_names())
        if problem:
            raise serializers.ValidationError(problem)
        return value


NoticeSerializer = schema_serializer(NoticeItem)
"""Documents a notice (built from :class:`accounts.notices.NoticeItem`)."""


class NoticeListQuerySerializer(serializers.Serializer):
    before = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False,
                                      help_text="Only notices older than this id (the next "
                                                "page: the last id of this one).")
    limit = serializers.IntegerField(min_value=1, max_value=100, default=50)
    unread = serializers.BooleanField(default=False, help_text="Only unread notices.")


class NoticeListSerializer(serializers.Serializer):
    unread = serializers.IntegerField(help_text="How many of the account's notices are "
                                                "unread (all of them, not this page's).")
    results = NoticeSerializer(many=True)


class NoticeMarkSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), max_length=500,
        required=False, help_text="The notices to mark read; left out: every unread one.")


class NoticeMarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many were unread and are read now.")
    unread = serializers.IntegerField()


class PersonalTokenInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="A reminder of what it is for.")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=list(scopes.SCOPES)), min_length=1,
        max_length=len(scopes.SCOPES),
        help_text="What the token may do: " + ", ".join(f"`{s}`" for s in scopes.SCOPES)
                  + " (docs/api.md, \"Tokens and scopes\").")


class PersonalTokenSerializer(serializers.ModelSerializer[ApiToken]):
    scopes = serializers.SerializerMethodField()

    class Meta:
        model = ApiToken
        fields = ("id", "name", "scopes", "created")
        read_only_fields = fields

    def get_scopes(self, token: ApiToken) -> list[str]:
        return scopes.parse(token.scopes)


class PersonalTokenCreatedSerializer(PersonalTokenSerializer):
    token = serializers.CharField(read_only=True, help_text="The key: shown this once.")

    class Meta(PersonalTokenSerializer.Meta):
        fields = ("id", "name", "scopes", "created", "token")  # type: ignore[assignment]
        read_only_fields = fields  # type: ignore[assignment]
