"""Refuse an oversized request body by its ``Content-Length``, before anything reads it."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .errors import error_body


class BodySizeLimitMiddleware:
    """Whatever the content type (multipart too), a body declared larger than
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``MAX_BODY_BYTES``) gets 413 unread. Bodies without a
    ``Content-Length`` are still bounded where they are read (``nard_site.api.parsers``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if limit is not None and declared > limit:
            response = JsonResponse(error_body(
                "payload_too_large", f"The request body is larger than {limit} bytes.",
                {"limit": limit}), status=413)
            response["Connection"] = "close"  # the unread body must not be taken for a request
            return response
        return self.get_response(request)
