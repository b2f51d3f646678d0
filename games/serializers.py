"""I/O shapes of the games API: inputs are validated here; the outputs' serializers are
built from the answers' own types (:mod:`games.shapes`) and only document the schema."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games import event_shapes, fairness, shapes
from games.models import (
    MATCH_LENGTHS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    MatchStatus,
    Progression,
    Stakes,
    rules_names,
)
from games.start import MatchOptions
from nard_site.api.shapes import schema_serializer
from nardy import SIDE_NAMES, AskedStep, ruleset

_POINT_KEY = re.compile(r"[0-9]{1,2}")


# --- shared shapes ----------------------------------------------------------------------


class RulesField(serializers.ChoiceField):
    """A rule set's name: one of the rule sets registered *now* (``nardy.RULESETS``, read
    on every use, so a rule set added at run time is accepted without a restart)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "The rule set (`GET rules/` describes each).")
        super().__init__(choices=rules_names(), required=False, default=MatchOptions.rules,
                         **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        self.choices = rules_names()
        return super().to_internal_value(data)


class StepSerializer(serializers.Serializer):
    """``{"from": 24, "to": 18, "die": 6}`` in the mover's numbering; ``to: 0`` bears off."""

    vars()["from"] = serializers.IntegerField(min_value=1, max_value=25,
                                              help_text="25: enter from the bar (H9).")
    to = serializers.IntegerField(min_value=0, max_value=24)
    die = serializers.IntegerField(min_value=1, max_value=6, required=False, allow_null=True,
                                   help_text="Optional when only one die fits.")
    # A well-formed step the rules refuse (backwards, R4; wrong die; ...) is left to the
    # engine, so that it is answered as `illegal_move` with the rule's reason.


OffSerializer = schema_serializer(shapes.Off)
BarSerializer = schema_serializer(shapes.Bar)
"""The answers' ``off`` and ``bar``, and the analysis input's (``OffRequest``, ``BarRequest``)."""


class BoardSerializer(serializers.Serializer):
    """A board in one side's own numbering: positive counts are the perspective's checkers."""

    perspective = serializers.ChoiceField(choices=SIDE_NAMES)
    points = serializers.DictField(
        child=serializers.IntegerField(min_value=-15, max_value=15),
        help_text='Point number (as a string, "1".."24") → signed count; empty points omitted.')
    off = OffSerializer()
    bar = BarSerializer(required=False, help_text="Checkers on the bar (hitting games); "
                                                  "zeros when omitted.")

    def validate_points(self, points: dict[str, int]) -> dict[int, int]:
        parsed: dict[int, int] = {}
        for key, count in points.items():
            if not (isinstance(key, str) and _POINT_KEY.fullmatch(key) and 1 <= int(key) <= 24):
                raise serializers.ValidationError(f"{key!r} is not a point 1..24.")
            if int(key) in parsed:
                raise serializers.ValidationError(f"Point {int(key)} is listed twice.")
            parsed[int(key)] = count
        return parsed


# --- inputs -----------------------------------------------------------------------------


def _is_int(value: Any, low: int, high: int | None = None) -> bool:
    return type(value) is int and value >= low and (high is None or value <= high)


def _plain_version(data: dict[str, Any]) -> bool:
    version = data.get("expected_version")
    return version is None or _is_int(version, 0)


class VersionInputSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(
        min_value=0, required=False, allow_null=True,
        help_text="If given and stale, the call gets 409 `version_conflict` and changes nothing.")

    @staticmethod
    def plainly_valid(data: Any) -> dict[str, Any] | None:
        """The validated data of a body that is plainly valid (exactly what ``is_valid``
        would give), without building the serializer; ``None`` means: ask it."""
        if type(data) is dict and data.keys() <= {"expected_version"} and _plain_version(data):
            return dict(data)
        return None


@extend_schema_field({"type": "string", "minLength": 1,
                      "maxLength": fairness.MAX_PLAYER_SEED,
                      # no control characters (Cc) nor lone surrogates (Cs): fairness's check
                      "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f\\ud800-\\udfff]*$"})
class AnyJSONField(serializers.Field):
    """Any JSON value, passed on as it is: the service checks it (a player's seed must
    be refused with its own reason, never coerced to text). Documented as the text it
    must be."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


_SEED_HELP = ("Your own seed for this game's dice (text, 1 to 128 characters; "
              "docs/fairness.md): only before the game's first die.")


class SeededVersionInputSerializer(VersionInputSerializer):
    """``join`` and ``roll``: ``expected_version`` and, optionally, your seed."""

    seed = AnyJSONField(required=False, allow_null=True, help_text=_SEED_HELP)

    @staticmethod
    def plainly_valid(data: Any) -> dict[str, Any] | None:
        if (type(data) is dict and data.keys() <= {"expected_version", "seed"}
                and _plain_version(data)):
            return dict(data)
        return None


class SeedInputSerializer(VersionInputSerializer):
    """``seed``: your own seed for the current game's dice."""

    seed = AnyJSONField(help_text=_SEED_HELP)
    side = serializers.ChoiceField(choices=SIDE_NAMES, required=False, allow_null=True,
                                   help_text="Hotseat only: whose seed (default: the side "
                                             "to roll; White in the roll-off).")


COLOR_CHOICES = (*SIDE_NAMES, "random")
"""The colours one may ask for: a side, or ``random`` (the schema's ``ColorChoiceEnum``)."""


class MatchCreateInputSerializer(serializers.Serializer):
    length = serializers.ChoiceField(choices=MATCH_LENGTHS)
    rules = RulesField(help_text="The rule set (`GET rules/` describes each).")
    opponent = serializers.CharField(required=False, allow_null=True, allow_blank=True,
                                     max_length=150, help_text="Invite this username.")
    hotseat = serializers.BooleanField(required=False, default=MatchOptions.hotseat,
                                       help_text="Play both sides from this account.")
    color = serializers.ChoiceField(choices=COLOR_CHOICES, required=False,
                                    default="random", help_text="Your colour.")
    computer = serializers.CharField(required=False, allow_null=True, max_length=32,
                                     help_text="Play the computer at this level (`GET "
                                               "computer/`) instead of `opponent` or "
                                               "`hotseat`: the match is active at once.")
    stakes = serializers.ChoiceField(choices=Stakes.values, required=False,
                                     default=MatchOptions.stakes,
                                     help_text="Raising the stake (RULES-FAMILY S1-S7): "
                                               "`none`, `cube` (backgammon's doubling cube) "
                                               "or `dave`.")
    progression = serializers.ChoiceField(choices=Progression.values, required=False,
                                          default=MatchOptions.progression,
                                          help_text="The stake's values (S4): `geometric` "
                                                    "1, 2, 4, 8 …; `arithmetic` 1, 2, 3, 4 … "
                                                    "(`dave` only).")

    rated = serializers.BooleanField(
        required=False, allow_null=True, default=None,
        help_text="The result changes both ratings. Default: rated between two "
                  "people; hotseat, computer and imported matches are never rated.")
    turn_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=MIN_TURN_SECONDS, max_value=MAX_TURN_SECONDS,
        help_text="The clock: seconds the side to act has for each action, 30 to "
                  "86,400 (a day: correspondence); `null` or absent: no clock.")


class MovesInputSerializer(VersionInputSerializer):
    steps = StepSerializer(many=True, allow_empty=False, max_length=4)  # type: ignore[call-arg]

    @staticmethod
    def plainly_valid(data: Any) -> dict[str, Any] | None:
        if not (type(data) is dict and data.keys() <= {"steps", "expected_version"}
                and _plain_version(data)):
            return None
        steps = data.get("steps")
        if not (type(steps) is list and 1 <= len(steps) <= 4):
            return None
        for step in steps:
            if not (type(step) is dict and step.keys() <= {"from", "to", "die"}
                    and _is_int(step.get("from"), 1, 25) and _is_int(step.get("to"), 0, 24)
                    and (step.get("die") is None or _is_int(step["die"], 1, 6))):
                return None
        return {**data, "steps": [dict(step) for step in steps]}


def asked_steps(steps: Iterable[Mapping[str, Any]]) -> list[AskedStep]:
    """The validated moves input's ``steps`` as the engine's asked steps, for
    :func:`games.services.match_move` (a well-formed step the rules refuse, R4, is
    theirs to answer: :class:`~nardy.AskedStep`)."""
    return [AskedStep(step["from"], step["to"], step.get("die")) for step in steps]


class ResignInputSerializer(VersionInputSerializer):
    side = serializers.ChoiceField(choices=SIDE_NAMES, required=False, allow_null=True,
                                   help_text="Hotseat only: which side resigns "
                                             "(default: the side to move).")
    match = serializers.BooleanField(required=False, default=False,
                                     help_text="Resign the whole match, not only the "
                                               "current game: the game is conceded as "
                                               "usual and the match ends with it.")
    offer = serializers.CharField(
        required=False, max_length=16,
        help_text="Instead of resigning now, offer to resign the game with this result "
                  "(`single`, `mars`, `gammon`, `koks`, `backgammon`: one of the rule set's, "
                  "worth no more than `state.resign.result`); the opponent accepts "
                  "(`resign/accept/`) or refuses (`resign/refuse/`). At your turn, before "
                  "or after rolling, not once a step of the turn is played.")


class PerspectiveQuerySerializer(serializers.Serializer):
    perspective = serializers.ChoiceField(choices=SIDE_NAMES, required=False)


class MatchListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=MatchStatus.values, required=False)
    player = serializers.CharField(required=False, max_length=150)


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, required=False, default=0)
    limit = serializers.IntegerField(min_value=1, required=False,
                                     help_text="At most this many events (default: all).")


class LegalPlaysInputSerializer(serializers.Serializer):
    rules = RulesField()
    board = BoardSerializer()
    dice = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6),
                                 min_length=2, max_length=2)
    first_turn = serializers.BooleanField(required=False, default=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        """The board's common fields are validated above; the fields the rule set's
        codec adds (``codec.fields``; none in the built-in games) are passed through as
        sent, for the codec to read (``games.legal_plays``)."""
        extra = ruleset(data["rules"]).codec.fields
        sent = self.initial_data.get("board") if isinstance(self.initial_data, dict) else None
        if extra and isinstance(sent, dict):
            data["board"].update({name: sent[name] for name in extra if name in sent})
        return data


# --- outputs: built from the answers' types (games.shapes), for the schema only -------------

MatchSerializer = schema_serializer(shapes.Match)
RollResultSerializer = schema_serializer(shapes.RollResult)
MovesResultSerializer = schema_serializer(shapes.MovesResult)
GameSerializer = schema_serializer(shapes.Game)
TurnSerializer = schema_serializer(shapes.Turn)
GamePositionSerializer = schema_serializer(shapes.GamePosition)
EventSerializer = schema_serializer(shapes.Event)


def match_events(*, many: bool = False, state: bool = False) -> PolymorphicProxySerializer:
    """The schema of the match log's events: ``MatchEvent``, a ``oneOf`` of each type's
    event (``event_shapes``) discriminated by ``type``; with ``state``,
    ``MatchStreamEvent``: the same and the stream's ``state`` snapshot."""
    events: dict[str, serializers.Serializer | type[serializers.Serializer]] = {
        type_: schema_serializer(shape) for type_, shape in event_shapes.MATCH_EVENTS.items()}
    if state:
        events["state"] = schema_serializer(event_shapes.STATE_EVENT)
    return PolymorphicProxySerializer(
        component_name="MatchStreamEvent" if state else "MatchEvent",
        serializers=events, resource_type_field_name="type", many=many)
LegalPlaysSerializer = schema_serializer(shapes.LegalPlays)
MatchRecordSerializer = schema_serializer(shapes.MatchRecord)
DiceStatsSerializer = schema_serializer(shapes.DiceStats)


# --- match records: the import's input -----------------------------------------------


class MatchImportInputSerializer(serializers.Serializer):
    record = serializers.CharField(trim_whitespace=False, max_length=200_000,
                                   help_text="The match's text record (docs/notation.md, "
                                             "'Match record').")
