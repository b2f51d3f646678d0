"""A refused CSRF check answers like every other refusal of a JSON endpoint.

Django's ``CsrfViewMiddleware`` refuses a session-authenticated write without the
``csrftoken`` cookie sent back as ``X-CSRFToken`` by calling ``CSRF_FAILURE_VIEW``; its
default is an HTML page, which the play page's ``/play/session/`` (and any other JSON
endpoint) cannot read. :func:`csrf_failure` answers 403 in the error shape with the code
``csrf_failed`` there, and keeps Django's HTML page for the admin, whose forms are HTML.
The API's session authentication enforces CSRF itself (DRF); it raises :class:`CsrfFailed`,
the same code (``accounts.authentication.SessionAuthentication``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.csrf import csrf_failure as html_csrf_failure
from rest_framework import exceptions, status

from .errors import error_body

CODE = "csrf_failed"
HTML_PREFIXES = ("/admin/",)


def message(reason: str) -> str:
    return (f"CSRF check failed ({reason.rstrip('.')}): send the csrftoken cookie back as "
            "the X-CSRFToken header (a token in the Authorization header needs neither).")


class CsrfFailed(exceptions.APIException):
    status_code = status.HTTP_403_FORBIDDEN
    default_detail = "CSRF check failed."
    default_code = CODE


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the error shape, except under the admin (HTML)."""
    if request.path_info.startswith(HTML_PREFIXES):
        return html_csrf_failure(request, reason=reason)
    return JsonResponse(error_body(CODE, message(reason or "no reason given")), status=403)
