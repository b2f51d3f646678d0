"""I/O shapes of the games API (inputs are validated here; outputs document the schema)."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from games.engine.record import FORMAT as RECORD_FORMAT
from games.models import (
    MATCH_LENGTHS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    EndReason,
    GamePhase,
    MatchStatus,
    Progression,
    Result,
    Rules,
    Stakes,
)

COLORS = ("white", "black")
_POINT_KEY = re.compile(r"[0-9]{1,2}")


# --- shared shapes ----------------------------------------------------------------------


class StepSerializer(serializers.Serializer):
    """``{"from": 24, "to": 18, "die": 6}`` in the mover's numbering; ``to: 0`` bears off."""

    vars()["from"] = serializers.IntegerField(min_value=1, max_value=25,
                                              help_text="25: enter from the bar (H9).")
    to = serializers.IntegerField(min_value=0, max_value=24)
    die = serializers.IntegerField(min_value=1, max_value=6, required=False, allow_null=True,
                                   help_text="Optional when only one die fits.")
    # A well-formed step the rules refuse (backwards, R4; wrong die; ...) is left to the
    # engine, so that it is answered as `illegal_move` with the rule's reason.


class OffSerializer(serializers.Serializer):
    mine = serializers.IntegerField(min_value=0, max_value=15)
    theirs = serializers.IntegerField(min_value=0, max_value=15)


class BarSerializer(serializers.Serializer):
    mine = serializers.IntegerField(min_value=0, max_value=15)
    theirs = serializers.IntegerField(min_value=0, max_value=15)


class BoardSerializer(serializers.Serializer):
    """A board in one side's own numbering: positive counts are the perspective's checkers."""

    perspective = serializers.ChoiceField(choices=COLORS)
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


class MatchCreateInputSerializer(serializers.Serializer):
    length = serializers.ChoiceField(choices=MATCH_LENGTHS)
    rules = serializers.ChoiceField(choices=Rules.values, required=False,
                                    default=Rules.LONG_NARDY,
                                    help_text="The rule set (RULES.md, RULES-FAMILY.md).")
    opponent = serializers.CharField(required=False, allow_null=True, allow_blank=True,
                                     max_length=150, help_text="Invite this username.")
    hotseat = serializers.BooleanField(required=False, default=False,
                                       help_text="Play both sides from this account.")
    color = serializers.ChoiceField(choices=(*COLORS, "random"), required=False,
                                    default="random", help_text="Your colour.")
    computer = serializers.CharField(required=False, allow_null=True, max_length=32,
                                     help_text="Play the computer at this level (`GET "
                                               "computer/`) instead of `opponent` or "
                                               "`hotseat`: the match is active at once.")
    stakes = serializers.ChoiceField(choices=Stakes.values, required=False,
                                     default=Stakes.NONE,
                                     help_text="Raising the stake (RULES-FAMILY S1-S7): "
                                               "`none`, `cube` (backgammon's doubling cube) "
                                               "or `dave`.")
    progression = serializers.ChoiceField(choices=Progression.values, required=False,
                                          default=Progression.GEOMETRIC,
                                          help_text="The stake's values (S4): `geometric` "
                                                    "1, 2, 4, 8 …; `arithmetic` 1, 2, 3, 4 … "
                                                    "(`dave` only).")

    turn_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=MIN_TURN_SECONDS, max_value=MAX_TURN_SECONDS,
        help_text="The clock (issue 17): seconds the side to act has for each action, 30 to "
                  "86,400 (a day: correspondence); `null` or absent: no clock.")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if (data.get("progression") == Progression.ARITHMETIC
                and data.get("stakes") != Stakes.DAVE):
            raise serializers.ValidationError(
                {"progression": ["Arithmetic needs stakes 'dave'; the cube is always "
                                 "geometric."]})
        return data


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


class ResignInputSerializer(VersionInputSerializer):
    side = serializers.ChoiceField(choices=COLORS, required=False, allow_null=True,
                                   help_text="Hotseat only: which side resigns "
                                             "(default: the side to move).")


class PerspectiveQuerySerializer(serializers.Serializer):
    perspective = serializers.ChoiceField(choices=COLORS, required=False)


class MatchListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=MatchStatus.values, required=False)
    player = serializers.CharField(required=False, max_length=150)


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, required=False, default=0)
    limit = serializers.IntegerField(min_value=1, required=False,
                                     help_text="At most this many events (default: all).")


class LegalPlaysInputSerializer(serializers.Serializer):
    rules = serializers.ChoiceField(choices=Rules.values, required=False,
                                    default=Rules.LONG_NARDY)
    board = BoardSerializer()
    dice = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6),
                                 min_length=2, max_length=2)
    first_turn = serializers.BooleanField(required=False, default=False)


# --- outputs (documentation of the shapes the selectors build) ---------------------------


class ScoreSerializer(serializers.Serializer):
    white = serializers.IntegerField()
    black = serializers.IntegerField()


class OutBoardSerializer(serializers.Serializer):
    perspective = serializers.ChoiceField(choices=COLORS)
    points = serializers.DictField(child=serializers.IntegerField())
    off = OffSerializer()
    bar = BarSerializer(help_text="Always present; zeros in Long Nardy.")


class OutStepSerializer(serializers.Serializer):
    vars()["from"] = serializers.IntegerField(help_text="25: from the bar.")
    to = serializers.IntegerField(help_text="0: borne off.")
    die = serializers.IntegerField()
    hit = serializers.BooleanField(help_text="The step hits a blot (H7); always false in "
                                             "Long Nardy.")


class RollOffSerializer(serializers.Serializer):
    white = serializers.IntegerField(allow_null=True)
    black = serializers.IntegerField(allow_null=True)


class FirstTurnSerializer(serializers.Serializer):
    white = serializers.BooleanField()
    black = serializers.BooleanField()


MAY_OFFER = ("both", "white", "black", "none")


class PresenceSerializer(serializers.Serializer):
    white = serializers.BooleanField()
    black = serializers.BooleanField()


class OfferSerializer(serializers.Serializer):
    by = serializers.ChoiceField(choices=COLORS)
    stake = serializers.IntegerField(help_text="The value offered (S4).")


class StateSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=GamePhase.values)
    turn = serializers.ChoiceField(choices=COLORS, allow_null=True)
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    dice_left = serializers.ListField(child=serializers.IntegerField())
    head_may_leave = serializers.IntegerField(help_text="RULES R13 (0 in lists of matches).")
    board = OutBoardSerializer()
    legal_steps = OutStepSerializer(many=True, help_text="RULES R24; empty for anyone "
                                                         "but the side to move, and in "
                                                         "lists of matches.")
    version = serializers.IntegerField()
    roll_off = RollOffSerializer()
    first_turn = FirstTurnSerializer()
    turn_number = serializers.IntegerField()
    position_id = serializers.CharField(help_text="The engine's position ID (docs/notation.md).")
    stake = serializers.IntegerField(help_text="The current game's stake (S1; 1 without "
                                               "stakes).")
    may_offer = serializers.ChoiceField(choices=MAY_OFFER,
                                        help_text="Who holds the right to offer (S2): `none` "
                                                  "without stakes, in a 1-point match, the "
                                                  "Crawford game (S7), at 64 (S5).")
    offer = OfferSerializer(allow_null=True, help_text="The offer waiting for the answer of "
                                                       "the side in `turn` (phase `offer`).")
    deadline = serializers.DateTimeField(allow_null=True,
                                         help_text="When the side to act must have acted "
                                                   "(issue 17); `null` without a clock.")
    presence = PresenceSerializer(help_text="Whether each player was seen in the last 60 s.")


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rules = serializers.ChoiceField(choices=Rules.values)
    white = serializers.CharField(allow_null=True)
    black = serializers.CharField(allow_null=True)
    invited = serializers.CharField(allow_null=True)
    hotseat = serializers.BooleanField()
    length = serializers.IntegerField()
    stakes = serializers.ChoiceField(choices=Stakes.values)
    progression = serializers.ChoiceField(choices=Progression.values)
    crawford_game = serializers.IntegerField(allow_null=True,
                                             help_text="S7: the number of the Crawford game "
                                                       "(no offers), once known.")
    turn_seconds = serializers.IntegerField(allow_null=True,
                                            help_text="The clock: seconds for each action, "
                                                      "or `null`.")
    score = ScoreSerializer()
    status = serializers.ChoiceField(choices=MatchStatus.values)
    winner = serializers.ChoiceField(choices=COLORS, allow_null=True)
    version = serializers.IntegerField()
    rematch_of = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    state = StateSerializer(allow_null=True)


class RollSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=("roll-off", "turn"))
    side = serializers.ChoiceField(choices=COLORS)
    die = serializers.IntegerField(required=False, help_text="Roll-off only.")
    result = serializers.CharField(required=False, help_text="Roll-off: pending, tie, "
                                                             "white or black.")
    dice = serializers.ListField(child=serializers.IntegerField(), required=False,
                                 help_text="The turn's dice (backgammon's roll-off: the two "
                                           "roll-off dice, played as the first turn, H4).")
    passed = serializers.BooleanField(required=False,
                                      help_text="The turn passed at once: no legal move (R23).")


class RollResultSerializer(MatchSerializer):
    roll = RollSerializer()
    die = serializers.IntegerField(required=False, help_text="The roll-off die (R7).")
    dice = serializers.ListField(child=serializers.IntegerField(), required=False,
                                 help_text="The turn's two dice.")


class MovesResultSerializer(MatchSerializer):
    applied = OutStepSerializer(many=True)


class GameOfferSerializer(serializers.Serializer):
    before_turn = serializers.IntegerField(help_text="The number of the offerer's turn it "
                                                     "came before (S3).")
    by = serializers.ChoiceField(choices=COLORS)
    stake = serializers.IntegerField(help_text="The value offered.")
    answer = serializers.ChoiceField(choices=("accept", "refuse"), allow_null=True,
                                     help_text="`null` while it waits, or when the game was "
                                               "resigned first.")


class TurnOfferSerializer(serializers.Serializer):
    by = serializers.ChoiceField(choices=COLORS)
    stake = serializers.IntegerField()
    answer = serializers.ChoiceField(choices=("accept",))


class GameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    rules = serializers.ChoiceField(choices=Rules.values)
    starter = serializers.ChoiceField(choices=COLORS, allow_null=True)
    winner = serializers.ChoiceField(choices=COLORS, allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    mars = serializers.BooleanField(help_text="More than a single game (mars, koks, gammon, "
                                              "backgammon).")
    result = serializers.ChoiceField(choices=Result.values, allow_null=True)
    end_reason = serializers.ChoiceField(choices=EndReason.values, allow_null=True)
    stake = serializers.IntegerField(help_text="The game's stake (S1-S5).")
    offers = GameOfferSerializer(many=True, help_text="The game's offers in order (S2-S4).")
    turns = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class TurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    side = serializers.ChoiceField(choices=COLORS)
    offer = TurnOfferSerializer(allow_null=True, help_text="The offer accepted before this "
                                                           "turn's roll (S4), if any.")
    dice = serializers.ListField(child=serializers.IntegerField())
    steps = OutStepSerializer(many=True)
    notation = serializers.CharField()
    passed = serializers.BooleanField()
    pass_reason = serializers.CharField(allow_null=True)
    position_after = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    at = serializers.DateTimeField()
    data = serializers.DictField()  # type: ignore[assignment]  # a field named like Serializer.data


class PlaySerializer(serializers.Serializer):
    steps = OutStepSerializer(many=True)
    board = OutBoardSerializer()


class LegalPlaysSerializer(serializers.Serializer):
    max_dice = serializers.IntegerField()
    count = serializers.IntegerField(help_text="How many distinct plays there are.")
    truncated = serializers.BooleanField(help_text="Only the first 500 plays are listed.")
    plays = PlaySerializer(many=True)


# --- match records (export/import) -----------------------------------------------------


class MatchImportInputSerializer(serializers.Serializer):
    record = serializers.CharField(trim_whitespace=False, max_length=200_000,
                                   help_text="The match's text record (docs/notation.md, "
                                             "'Match record').")


class _RecordTurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    side = serializers.ChoiceField(choices=("white", "black"))
    offer = GameOfferSerializer(allow_null=True, help_text="The offer accepted before this "
                                                           "turn's roll (S4).")
    dice = serializers.ListField(child=serializers.IntegerField())
    steps = OutStepSerializer(many=True)
    notation = serializers.CharField(help_text='The steps in notation; "-" for none.')
    pass_reason = serializers.CharField(allow_null=True)
    position_after = serializers.CharField(allow_null=True)


class _RecordResultSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=("white", "black"))
    points = serializers.IntegerField()
    mars = serializers.BooleanField()
    result = serializers.ChoiceField(choices=Result.values)
    conceded = serializers.ChoiceField(choices=("single", "mars", "koks", "gammon", "backgammon"),
                                       help_text="What the win was worth on the board; for a "
                                                 "resignation, what the position gave.")
    end_reason = serializers.ChoiceField(choices=EndReason.values)
    resigned = serializers.ChoiceField(choices=("white", "black"), allow_null=True)
    refused = serializers.ChoiceField(choices=("white", "black"), allow_null=True,
                                      help_text="The side that refused an offer (S4).")
    stake = serializers.IntegerField(help_text="The game's stake (S1-S5).")
    score = ScoreSerializer(help_text="The match score after this game.")


class _RecordRollOffSerializer(serializers.Serializer):
    white = serializers.IntegerField()
    black = serializers.IntegerField()


class _RecordGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    roll_off = _RecordRollOffSerializer(many=True, help_text="Game 1: ties first (R7).")
    starter = serializers.ChoiceField(choices=("white", "black"), allow_null=True)
    stake = serializers.IntegerField()
    offers = GameOfferSerializer(many=True, help_text="Every offer of the game in order.")
    turns = _RecordTurnSerializer(many=True)
    result = _RecordResultSerializer(allow_null=True)


class MatchRecordSerializer(serializers.Serializer):
    """The JSON form of a match record (``GET matches/{id}/export/?format=json``)."""

    format = serializers.CharField(help_text=f"Always {RECORD_FORMAT!r}.")
    id = serializers.IntegerField()
    rules = serializers.ChoiceField(choices=Rules.values)
    white = serializers.CharField(allow_null=True)
    black = serializers.CharField(allow_null=True)
    hotseat = serializers.BooleanField()
    length = serializers.IntegerField()
    stakes = serializers.ChoiceField(choices=Stakes.values)
    progression = serializers.ChoiceField(choices=Progression.values)
    date = serializers.DateField(allow_null=True)
    status = serializers.ChoiceField(choices=MatchStatus.values)
    winner = serializers.ChoiceField(choices=("white", "black"), allow_null=True)
    score = ScoreSerializer()
    games = _RecordGameSerializer(many=True)
