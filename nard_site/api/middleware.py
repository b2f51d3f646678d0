"""Refuse an oversized request body by its ``Content-Length``, before anything reads it;
answer a view's lost database connection with the 503 of :mod:`nard_site.api.errors`."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .errors import error_body, is_unavailable, unavailable

logger = logging.getLogger(__name__)


class BodySizeLimitMiddleware:
    """Whatever the content type (multipart too), a body declared larger than
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``MAX_BODY_BYTES``) gets 413 unread. Bodies without a
    ``Content-Length`` are still bounded where they are read (``nard_site.api.parsers``).

    First in ``MIDDLEWARE``, it also turns a non-DRF view's ``OperationalError`` /
    ``InterfaceError`` (the database gone) into the 503 in the error shape; DRF views get
    theirs from the exception handler, and what a middleware raises from ``handler500``."""

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

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_unavailable(exception):
            logger.warning("503: a backing service is unreachable: %r", exception)
            return unavailable(exception)
        return None
