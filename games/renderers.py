"""Renderers of the games API beyond JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import renderers


class PlainTextRenderer(renderers.BaseRenderer):
    """``text/plain`` for the record; an error body (a dict) is still sent as JSON."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        if isinstance(data, str):
            return data.encode(self.charset)
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return renderers.JSONRenderer().render(data)


class MatRenderer(PlainTextRenderer):
    """``?format=mat``: the match as GNU Backgammon's ``.mat`` text (:mod:`nardy.mat`)."""

    format = "mat"
