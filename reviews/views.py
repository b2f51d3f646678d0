"""``POST`` / ``GET matches/{id}/analysis/`` and ``GET accounts/users/{name}/review/``: the
game review (docs/api.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from computer.review import DEPTHS
from games import shapes
from games.exceptions import NotFound
from games.selectors import match_get
from games.views import url_id
from nard_site.api.shapes import schema_serializer
from nard_site.clients import ip_address
from nard_site.domain import DomainError
from reviews import selectors, services

MatchAnalysisSerializer = schema_serializer(shapes.MatchAnalysis)
PlayerReviewSerializer = schema_serializer(shapes.PlayerReview)

_REQUEST = inline_serializer("AnalysisRequest", {
    "depth": serializers.ChoiceField(
        choices=DEPTHS, required=False,
        help_text="Plies: 0, 1 or 2 (default 2: the `expert` level's search, "
                  "reduced but in backgammon; backgammon by the field engine, plies "
                  "counted as GNU Backgammon counts them)."),
})


class MatchAnalysisView(APIView):
    """A finished match's game review: ask for one (its players and staff), read it."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    schema_error_codes = ("409", "429")

    @extend_schema(request=_REQUEST, responses={202: MatchAnalysisSerializer})
    def post(self, request: Request, pk: int) -> Response:
        depth = request.data.get("depth") if hasattr(request.data, "get") else None
        analysis = services.request_analysis(match_id=url_id(str(pk)), user=request.user,
                                             depth=depth, address=ip_address(request))
        return Response(selectors.analysis_json(analysis),
                        status=status.HTTP_202_ACCEPTED)

    @extend_schema(parameters=[OpenApiParameter("depth", int, required=False, enum=DEPTHS,
                                                description="Plies (default: the deepest "
                                                            "done, else the latest).")],
                   responses=MatchAnalysisSerializer)
    def get(self, request: Request, pk: int) -> Response:
        match = match_get(url_id(str(pk)))
        if match is None:
            raise NotFound(f"No match with id {pk}.")
        text = request.query_params.get("depth")
        depth = None
        if text is not None:
            if text not in ("0", "1", "2"):
                raise DomainError("depth must be one of 0, 1, 2.", code="unknown_depth",
                                  details={"depth": ["unknown"]})
            depth = int(text)
        analysis = selectors.latest(match, depth)
        if analysis is None:
            raise NotFound("The match has no analysis at that depth.")
        return Response(selectors.analysis_json(analysis))


class PlayerReviewView(APIView):
    """Anyone may read a player's game-review averages per rule set."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter(
        "last", {"type": "integer", "minimum": 1, "maximum": selectors.MAX_LAST},
        required=False,
        description=f"N: the newest N analysed games of each rule set count (1 to "
                    f"{selectors.MAX_LAST}, default {selectors.DEFAULT_LAST})."
    )], responses=PlayerReviewSerializer)
    def get(self, request: Request, username: str) -> Response:
        text = request.query_params.get("last")
        last = selectors.DEFAULT_LAST
        if text is not None:
            if not text.isdigit() or not 1 <= int(text) <= selectors.MAX_LAST:
                raise DomainError(f"last must be a whole number from 1 to "
                                  f"{selectors.MAX_LAST}.", code="validation_error",
                                  details={"last": ["out of range"]})
            last = int(text)
        if len(username) > 150 or "\x00" in username:  # no such user could exist
            raise NotFound("No such player.")
        user = User.objects.named(username).filter(is_active=True).first()
        if user is None:
            raise NotFound("No such player.")
        return Response(selectors.player_review(user, last))
