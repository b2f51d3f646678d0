"""The play page and its session login; everything else the page does goes through
the public API (``/api/v1/``) with the session cookie (docs/web.md)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import authenticate, login, logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views import View
from django.views.decorators.csrf import ensure_csrf_cookie

from accounts import login_limit

MAX_FIELD = 4096  # longer than any username or password the accounts accept


def _error(status: int, code: str, message: str, **details: Any) -> JsonResponse:
    """The API's one error shape, so the page reads every refusal the same way."""
    return JsonResponse({"error": {"code": code, "message": message, "details": details}},
                        status=status)


def _me(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    if not user.is_authenticated:
        return {"username": None}
    return {"username": user.get_username(),
            "display_name": getattr(user, "display_name", "") or user.get_username(),
            "is_guest": bool(getattr(user, "is_guest", False))}


@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    """The single page: lobby and board. The csrftoken cookie it sets is what the page
    sends back as ``X-CSRFToken`` with every session-authenticated write."""
    return render(request, "web/play.html", {"me": _me(request)})


@ensure_csrf_cookie
def tournaments(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """The tournaments: the list (and the form that creates one), or one tournament's
    page (``pk``); both read the public API and follow the tournament's stream."""
    return render(request, "web/tournaments.html", {"me": _me(request), "tournament": pk})


def verify(request: HttpRequest) -> HttpResponse:
    """The dice of a match checked in the browser (docs/fairness.md); reads only
    the public API (a match's JSON export, a player's dice statistics)."""
    return render(request, "web/verify.html")


class SessionView(View):
    """``GET`` who is logged in; ``POST {username, password}`` logs in (a session, the
    same accounts as the API's tokens); ``DELETE`` logs out. CSRF-protected like every
    form of the site: the page sends the csrftoken cookie back as ``X-CSRFToken``."""

    http_method_names = ["get", "post", "delete"]

    def get(self, request: HttpRequest) -> JsonResponse:
        return JsonResponse(_me(request))

    def post(self, request: HttpRequest) -> JsonResponse:
        try:
            body = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return _error(400, "validation_error", gettext("The body is not JSON."))
        if not isinstance(body, dict):
            return _error(400, "validation_error", gettext("The body must be a JSON object."))
        username, password = body.get("username"), body.get("password")
        missing = {name: [gettext("This field is required.")] for name, value
                   in (("username", username), ("password", password))
                   if not isinstance(value, str) or not value or len(value) > MAX_FIELD
                   or "\x00" in value}
        if missing:
            return _error(400, "validation_error", gettext("The request has invalid fields."),
                          **missing)
        user = authenticate(request, username=username, password=password)
        if user is None:
            refusal = login_limit.refusal_of(request)
            if refusal is not None:  # over a limit (accounts.login_limit): not even checked
                refused = _error(429, "throttled", gettext(refusal.message),
                                 retry_after=refusal.retry_after)
                refused["Retry-After"] = str(refusal.retry_after)
                return refused
            return _error(401, "not_authenticated", gettext("Invalid username or password."))
        login(request, user)
        return JsonResponse(_me(request))

    def delete(self, request: HttpRequest) -> HttpResponse:
        logout(request)
        return HttpResponse(status=204)
