"""``POST`` / ``GET matches/{id}/analysis/``: game review (issue 24, docs/api.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import analysis_service, selectors, shapes
from games.exceptions import NotFound
from nard_site.api.shapes import schema_serializer
from nard_site.domain import DomainError

MatchAnalysisSerializer = schema_serializer(shapes.MatchAnalysis)

_REQUEST = inline_serializer("AnalysisRequest", {
    "depth": serializers.IntegerField(required=False, help_text="Plies: 0, 1 or 2 (default 2)."),
})


class MatchAnalysisView(APIView):
    """A finished match's game review: ask for one (its players and staff), read it."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    schema_error_codes = ("409", "429")

    @extend_schema(request=_REQUEST, responses={202: MatchAnalysisSerializer})
    def post(self, request: Request, pk: int) -> Response:
        depth = request.data.get("depth") if hasattr(request.data, "get") else None
        analysis = analysis_service.request_analysis(match_id=pk, user=request.user,
                                                     depth=depth)
        return Response(analysis_service.analysis_json(analysis),
                        status=status.HTTP_202_ACCEPTED)

    @extend_schema(parameters=[OpenApiParameter("depth", int, required=False,
                                                description="Plies (default: the deepest "
                                                            "done, else the latest).")],
                   responses=MatchAnalysisSerializer)
    def get(self, request: Request, pk: int) -> Response:
        match = selectors.match_get(pk)
        if match is None:
            raise NotFound(f"No match with id {pk}.")
        text = request.query_params.get("depth")
        depth = None
        if text is not None:
            if text not in ("0", "1", "2"):
                raise DomainError("depth must be one of 0, 1, 2.", code="unknown_depth",
                                  details={"depth": ["unknown"]})
            depth = int(text)
        analysis = analysis_service.latest(match, depth)
        if analysis is None:
            raise NotFound("The match has no analysis at that depth.")
        return Response(analysis_service.analysis_json(analysis))
