"""Thin views: validate the input, call one service or selector, answer."""

from __future__ import annotations

from typing import Any, Final

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games import clocks, importing, legal_plays, presence, review_hooks, selectors, services
from games.exceptions import NotFound
from games.models import Match
from games.permissions import CanImportMatches
from games.renderers import MatRenderer, PlainTextRenderer
from games.serializers import (
    DiceStatsSerializer,
    GamePositionSerializer,
    GameSerializer,
    LegalPlaysInputSerializer,
    LegalPlaysSerializer,
    MatchCreateInputSerializer,
    MatchImportInputSerializer,
    MatchListQuerySerializer,
    MatchRecordSerializer,
    MatchSerializer,
    MovesInputSerializer,
    MovesResultSerializer,
    PerspectiveQuerySerializer,
    ResignInputSerializer,
    RollResultSerializer,
    SeededVersionInputSerializer,
    SeedInputSerializer,
    TurnSerializer,
    VersionInputSerializer,
    asked_steps,
)
from games.transitions import step_json
from nard_site.api.conditional import ETAG, IF_NONE_MATCH, NOT_MODIFIED, conditional
from nard_site.api.idempotency import idempotent
from nard_site.domain import DomainError
from nardy import DEFAULT_RULES, SIDE_NAMES, parse_side
from nardy.mat import format_mat, mat_refusal

REPLAYED = OpenApiParameter(
    "Idempotent-Replayed", str, OpenApiParameter.HEADER, response=[200, 201], enum=["true"],
    description="`true` on an answer replayed for a repeated `Idempotency-Key`.")
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    # 1-255 visible ASCII characters (nard_site.api.idempotency); inner spaces allowed.
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]([ -~]*[!-~])?$"},
    OpenApiParameter.HEADER, required=False,
    description="Retry safely: a repeat with the same key and body replays the first answer "
                "and changes nothing; the same key with another body gets 422. Keys last 24 h.")
PERSPECTIVE = OpenApiParameter("perspective", str, enum=list(SIDE_NAMES),
                               description="Board numbering (default: your colour; the side "
                                           "to move in hotseat; White for spectators).")


MAX_ID: Final = 2**63 - 1
"""The largest key a BigAutoField holds: ids up to it are looked up, larger ones are not
found (and never reach ``int()`` with thousands of digits)."""


def url_id(text: str) -> int:
    """A URL's numeric id; beyond what the database can hold there is no such object."""
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(MAX_ID)) or int(digits) > MAX_ID:
        raise NotFound(f"No object with id {text[:30]}{'…' if len(text) > 30 else ''}.")
    return int(digits)


def _player(request: Request) -> User:
    """The authenticated account acting (the permission classes let no one else in)."""
    user = request.user
    assert isinstance(user, User), "the permission classes admit only signed-in players"
    return user


def _valid(serializer_class: Any, data: Any) -> dict[str, Any]:
    if "plainly_valid" in vars(serializer_class):  # its own, not a base class's
        valid = serializer_class.plainly_valid(data)
        if valid is not None:
            return valid  # the common case, without the cost of building a serializer
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class MatchViewSet(viewsets.GenericViewSet):
    """Matches of every rule set (`GET rules/`): create (a seek, an invitation, hotseat or
    the computer), join, roll, move, offer and answer a raise, resign, claim; anyone may
    watch."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_value_regex = r"\d+"
    schema_error_codes = ("409", "422")
    serializer_class = MatchSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        query = _valid(MatchListQuerySerializer, self.request.query_params)
        return selectors.match_list(status=query.get("status"), player=query.get("player"))

    def _match(self) -> Match:
        match = selectors.match_get(url_id(self.kwargs["pk"]))
        if match is None:
            raise NotFound(gettext("No match with id %(id)s.") % {"id": self.kwargs["pk"]})
        return match

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Check ``?perspective=`` before any action runs: a bad one must change nothing."""
        super().initial(request, *args, **kwargs)
        if request.user.is_authenticated:
            presence.seen(request.user.pk)  # a cache read, a write every 15 s
        query = (_valid(PerspectiveQuerySerializer, request.query_params)
                 if request.query_params else {})
        self.perspective = parse_side(query["perspective"]) if "perspective" in query else None

    def _answer(self, match: Match, code: int = status.HTTP_200_OK,
                state: Any = selectors.SEARCH, **extra: Any) -> Response:
        return Response(
            {**selectors.match_json(match, self.request.user, self.perspective, state),
             **extra},
            status=code)

    @extend_schema(parameters=[MatchListQuerySerializer], responses=MatchSerializer(many=True))
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None
        return self.get_paginated_response(
            [selectors.match_json(m, request.user, search=False) for m in page])

    @extend_schema(request=MatchCreateInputSerializer, responses={201: MatchSerializer},
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @idempotent
    def create(self, request: Request) -> Response:
        data = _valid(MatchCreateInputSerializer, request.data)
        match = services.match_create(user=_player(request), length=data["length"],
                                      opponent=data.get("opponent") or None,
                                      hotseat=data["hotseat"], color=data["color"],
                                      rules=data["rules"], stakes=data["stakes"],
                                      progression=data["progression"],
                                      computer=data.get("computer"),
                                      turn_seconds=data.get("turn_seconds"),
                                      rated=data.get("rated"))
        return self._answer(match, status.HTTP_201_CREATED)

    @extend_schema(parameters=[PERSPECTIVE, IF_NONE_MATCH, ETAG],
                   responses={200: MatchSerializer, 304: NOT_MODIFIED})
    def retrieve(self, request: Request, pk: str) -> Response:
        match = self._match()
        if clocks.is_abandoned(match, timezone.now()):  # lazy: writes only when overdue
            match = services.match_settle_clock(match_id=match.pk, by="request") or self._match()
        return conditional(request, selectors.match_json(match, request.user, self.perspective))

    @extend_schema(request=SeededVersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @action(detail=True, methods=["post"])
    @idempotent
    def join(self, request: Request, pk: str) -> Response:
        """Take the free seat (or accept the invitation); `seed`: yours for game 1's dice."""
        data = _valid(SeededVersionInputSerializer, request.data)
        return self._answer(services.match_join(
            match_id=url_id(pk), user=_player(request), seed=data.get("seed"),
            expected_version=data.get("expected_version")))

    @extend_schema(request=SeedInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def seed(self, request: Request, pk: str) -> Response:
        """Add your own seed to the current game's dice, before its first die
        (docs/fairness.md): 409 `wrong_phase` (`details.reason` `seed_too_late`) after it."""
        data = _valid(SeedInputSerializer, request.data)
        return self._answer(services.match_seed(
            match_id=url_id(pk), user=_player(request), seed=data["seed"],
            side=data.get("side"), expected_version=data.get("expected_version")))

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @action(detail=True, methods=["post"])
    @idempotent
    def cancel(self, request: Request, pk: str) -> Response:
        """The creator withdraws a seek or invitation before it starts (→ `aborted`)."""
        return self._abort_before_start(request, pk)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @action(detail=True, methods=["post"])
    @idempotent
    def decline(self, request: Request, pk: str) -> Response:
        """The invited player declines an invitation (→ `aborted`)."""
        return self._abort_before_start(request, pk)

    def _versioned(self, request: Request, pk: str, service: Any) -> Response:
        """The answer of an action whose body is only ``expected_version``: one service
        call ``service(match_id=, user=, expected_version=)``."""
        data = _valid(VersionInputSerializer, request.data)
        return self._answer(service(match_id=url_id(pk), user=_player(request),
                                    expected_version=data.get("expected_version")))

    def _abort_before_start(self, request: Request, pk: str) -> Response:
        return self._versioned(request, pk, services.match_cancel)

    @extend_schema(request=SeededVersionInputSerializer, responses=RollResultSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def roll(self, request: Request, pk: str) -> Response:
        """Roll: your roll-off die (R7), or the two dice of your turn (a pass if none plays).
        `seed`: yours for the game's dice, only with the game's first die."""
        data = _valid(SeededVersionInputSerializer, request.data)
        played = services.match_roll(match_id=url_id(pk), user=_player(request),
                                     seed=data.get("seed"),
                                     expected_version=data.get("expected_version"))
        roll = played.roll
        assert roll is not None
        return self._answer(played.match, state=played.state, roll=roll,
                            **({"dice": roll["dice"]} if "dice" in roll
                               else {"die": roll["die"]}))

    @extend_schema(request=MovesInputSerializer, responses=MovesResultSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def moves(self, request: Request, pk: str) -> Response:
        """Play one or more steps of your turn, all or none."""
        data = _valid(MovesInputSerializer, request.data)
        played = services.match_move(match_id=url_id(pk), user=_player(request),
                                     steps=asked_steps(data["steps"]),
                                     expected_version=data.get("expected_version"))
        return self._answer(played.match, state=played.state,
                            applied=[step_json(a.step, a.hit) for a in played.applied])

    @extend_schema(request=ResignInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @action(detail=True, methods=["post"])
    @idempotent
    def resign(self, request: Request, pk: str) -> Response:
        """Concede the current game (R30/H16): what the position gives now (a mars if you
        have borne off nothing); with `match: true`, the whole match too. With `offer`
        (a result): offer to resign the game with it instead; the opponent answers with
        `resign/accept/` or `resign/refuse/` (phase `resign`)."""
        data = _valid(ResignInputSerializer, request.data)
        return self._answer(services.match_resign(
            match_id=url_id(pk), user=_player(request), side=data.get("side"),
            whole_match=data.get("match", False), offer=data.get("offer"),
            expected_version=data.get("expected_version")))

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"], url_path="resign/accept")
    @idempotent
    def resign_accept(self, request: Request, pk: str) -> Response:
        """Accept the waiting resignation offer (phase `resign`): the game ends with the
        result offered, scored as the offerer's resignation."""
        return self._versioned(request, pk, services.match_resign_accept)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"], url_path="resign/refuse")
    @idempotent
    def resign_refuse(self, request: Request, pk: str) -> Response:
        """Refuse the waiting resignation offer (phase `resign`): play goes on where it
        stopped."""
        return self._versioned(request, pk, services.match_resign_refuse)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def offer(self, request: Request, pk: str) -> Response:
        """Before rolling, offer the next stake (S2-S5, S7); the opponent must answer."""
        return self._versioned(request, pk, services.match_offer)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def accept(self, request: Request, pk: str) -> Response:
        """Accept the waiting offer: the stake rises, the offerer rolls (S4)."""
        return self._versioned(request, pk, services.match_accept)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def refuse(self, request: Request, pk: str) -> Response:
        """Refuse the waiting offer: you lose the game at the stake before it (S4)."""
        return self._versioned(request, pk, services.match_refuse)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED, PERSPECTIVE])
    @action(detail=True, methods=["post"])
    @idempotent
    def claim(self, request: Request, pk: str) -> Response:
        """Past the deadline of the side to act, the waiting side wins the game as that
        side's resignation (R30/H16, times the stake)."""
        return self._versioned(request, pk, services.match_claim)

    @extend_schema(request=VersionInputSerializer, responses=MatchSerializer,
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @action(detail=True, methods=["post"])
    @idempotent
    def abort(self, request: Request, pk: str) -> Response:
        """Either player ends the match before its first roll: no result (→ `aborted`)."""
        return self._versioned(request, pk, services.match_abort_unstarted)

    @extend_schema(request=VersionInputSerializer, responses={201: MatchSerializer},
                   parameters=[IDEMPOTENCY_KEY, REPLAYED])
    @action(detail=True, methods=["post"])
    @idempotent
    def rematch(self, request: Request, pk: str) -> Response:
        """After a finished match: invite the same opponent, same length, colours swapped."""
        data = _valid(VersionInputSerializer, request.data)
        match = services.match_rematch(match_id=url_id(pk), user=_player(request),
                                       expected_version=data.get("expected_version"))
        return self._answer(match, status.HTTP_201_CREATED)

    @extend_schema(parameters=[IF_NONE_MATCH, ETAG],
                   responses={200: GameSerializer(many=True), 304: NOT_MODIFIED})
    @action(detail=True, methods=["get"], pagination_class=None)
    def games(self, request: Request, pk: str) -> Response:
        return conditional(request, [selectors.game_json(g)
                                     for g in selectors.game_list(self._match())])

    @extend_schema(parameters=[IF_NONE_MATCH, ETAG],
                   responses={200: TurnSerializer(many=True), 304: NOT_MODIFIED})
    @action(detail=True, methods=["get"], url_path=r"games/(?P<number>\d+)/moves",
            pagination_class=None)
    def game_moves(self, request: Request, pk: str, number: str) -> Response:
        game = selectors.game_list(self._match()).filter(number=url_id(number)).first()
        if game is None:
            raise NotFound(f"Match {pk} has no game {number}.")
        return conditional(request, selectors.turn_list_json(game))

    @extend_schema(parameters=[PERSPECTIVE, IF_NONE_MATCH, ETAG],
                   responses={200: GamePositionSerializer(many=True), 304: NOT_MODIFIED})
    @action(detail=True, methods=["get"], url_path=r"games/(?P<number>\d+)/positions",
            pagination_class=None)
    def game_positions(self, request: Request, pk: str, number: str) -> Response:
        """The board before the game's first turn and after each turn (a replay),
        in the asker's numbering: your colour, White for others."""
        match = self._match()
        game = selectors.game_list(match).filter(number=url_id(number)).first()
        if game is None:
            raise NotFound(f"Match {pk} has no game {number}.")
        perspective = (self.perspective if self.perspective is not None
                       else selectors.replay_perspective(match, request.user))
        return conditional(request, selectors.game_positions_json(game, perspective))

    # --- match record: export and import (docs/notation.md, "Match record") ---------------

    @extend_schema(
        parameters=[OpenApiParameter(
            "format", str, enum=["txt", "json", "mat"],
            description="`txt` (the default): the plain-text record; `json`: the same as JSON. "
                        "An `Accept: application/json` header also selects JSON. `mat` "
                        "(backgammon, stakes none or cube): the `.mat` text GNU Backgammon "
                        "and eXtreme Gammon import; another match answers 400 `no_mat_form`.")],
        responses={(200, "text/plain"): OpenApiTypes.STR,
                   (200, "application/json"): MatchRecordSerializer})
    @action(detail=True, methods=["get"], pagination_class=None,
            renderer_classes=[PlainTextRenderer, JSONRenderer, MatRenderer])
    def export(self, request: Request, pk: str) -> Response:
        """The whole match as a plain-text record (docs/notation.md), JSON, or gnubg's
        ``.mat`` text (backgammon)."""
        match = self._match()
        if request.accepted_renderer.format == "mat":
            refusal = mat_refusal(match.rules, match.stakes)
            if refusal:
                raise DomainError(refusal[0].upper() + refusal[1:] + ".", code="no_mat_form",
                                  details={"format": [refusal]})
            return Response(format_mat(selectors.match_record(match)), headers={
                "Content-Disposition": f'attachment; filename="match-{match.pk}.mat"'})
        if request.accepted_renderer.format == "json":
            record = selectors.match_record(match)
            analysis = review_hooks.review().exported(match)  # the game review's, if any
            if analysis is not None:
                record["analysis"] = dict(analysis)
            return Response(record)
        return Response(selectors.record_text(match), headers={
            "Content-Disposition": f'inline; filename="match-{match.pk}.txt"'})

    @extend_schema(request=MatchImportInputSerializer,
                   responses={201: MatchSerializer})
    @action(detail=False, methods=["post"], url_path="import", url_name="import",
            permission_classes=[CanImportMatches])
    def import_record(self, request: Request) -> Response:
        """Staff with the `games.add_match` permission: rebuild a finished match from its
        text record (e.g. one played over the board). A record the rules reject gets 400
        `validation_error` with `details.line`; a record naming an inactive player too."""
        data = _valid(MatchImportInputSerializer, request.data)
        match = importing.match_import(text=data["record"], by=_player(request))
        return self._answer(match, status.HTTP_201_CREATED)


class LegalPlaysView(APIView):
    """Stateless analysis: every legal play for a board and a roll (R10–R27, H7–H13)."""

    permission_classes = [AllowAny]
    throttle_scope = "analysis"

    @extend_schema(request=LegalPlaysInputSerializer, responses=LegalPlaysSerializer)
    def post(self, request: Request) -> Response:
        data = _valid(LegalPlaysInputSerializer, request.data)
        return Response(legal_plays.legal_plays(
            rules=data.get("rules") or DEFAULT_RULES, board=data["board"],
            dice=tuple(data["dice"]), first_turn=data["first_turn"]))


class PlayerDiceView(APIView):
    """Anyone may read a player's dice statistics per rule set
    (docs/fairness.md): faces, doubles, average pips against 8.17, a chi-square p-value."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: DiceStatsSerializer})
    def get(self, request: Request, username: str) -> Response:
        if len(username) > 150 or "\x00" in username:  # no such user could exist
            raise NotFound("No such player.")
        user = User.objects.named(username).filter(is_active=True).first()
        if user is None:
            raise NotFound("No such player.")
        return Response(selectors.dice_stats(user))
