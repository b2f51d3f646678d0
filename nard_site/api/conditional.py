"""Conditional GETs: a strong ``ETag`` on an answer, and ``304 Not Modified`` (no body)
for a request whose ``If-None-Match`` names it.

The tag is a hash of the answer's JSON as it would be sent, so it changes exactly when the
answer does — with the match's ``version``, and with what else the answer shows (who is
online, who asks: a player reads a match otherwise than a spectator). A client polling an
unchanged match gets a few bytes instead of the whole state.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils.cache import patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from .renderers import render_json

NOT_MODIFIED = OpenApiResponse(description="Not modified: `If-None-Match` names the answer's "
                                           "current `ETag`; no body.")
ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 304],
    description="The answer's strong tag: send it back as `If-None-Match`.")
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, required=False,
    description="The `ETag` of an answer you hold: unchanged, the answer is 304 with no body.")


def etag_of(body: Any) -> str:
    """The strong ETag of ``body``: a hash of its JSON as the API renders it."""
    return '"' + hashlib.sha256(render_json(body)).hexdigest()[:32] + '"'


def names(asked: str, tag: str) -> bool:
    """Whether an ``If-None-Match`` value names ``tag`` (or is ``*``); weak tags compare
    by their opaque part, as RFC 9110 has ``If-None-Match`` do."""
    if asked.strip() == "*":
        return True
    return tag in (part.strip().removeprefix("W/") for part in asked.split(","))


def conditional(request: Request, body: Any) -> Response:
    """``body`` as a 200 with its ``ETag``, or a 304 when the request already holds it."""
    tag = etag_of(body)
    if names(request.headers.get("If-None-Match", ""), tag):
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = Response(body)
    response["ETag"] = tag
    # The answer depends on who asks: a shared cache keeps one per credential.
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response
