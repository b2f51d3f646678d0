"""The Content-Security-Policy of the pages a browser runs: the play
page (``/play/``) and the API docs (``/api/v1/docs/``, Swagger UI from the sidecar
package, its init script served by the split view, its style in a static file).

Everything they load comes from this origin: no inline script or style, no ``eval``, no
plugin, no framing, no ``<base>``; images also as ``data:`` URLs (Swagger UI's icons, the
page's empty favicon). JSON answers need no policy; the admin keeps Django's defaults.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
          "frame-ancestors 'none'; form-action 'self'")
PATHS = ("/play/", "/api/v1/docs/")
"""The path prefixes the policy is sent on."""


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(PATHS) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = POLICY
        return response
