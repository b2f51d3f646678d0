"""One error shape for every 4xx (and 503): ``{"error": {"code", "message", "details"}}``.

Domain code raises :class:`nard_site.domain.DomainError` (or a subclass), which
knows nothing of HTTP: a stable ``code``, a message, details. This is the one place
that maps codes to statuses (``STATUS_OF_CODE``); DRF and Django exceptions are
translated here too, so no view builds an error body by hand. The database (or Redis)
out of reach — a lost or refused connection — is a 503 ``service_unavailable`` with a
``Retry-After``, here for DRF views and in :mod:`nard_site.api.middleware` (and
``handler500``) for the rest: never a 500 page.
"""

from __future__ import annotations

import logging
import sys
from typing import Annotated, Any, TypedDict

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext, gettext_lazy, gettext_noop
from django.views.decorators.csrf import csrf_exempt
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework import exceptions, status
from rest_framework.response import Response

from nard_site.api.shapes import Doc
from nard_site.domain import DomainError

logger = logging.getLogger(__name__)

__all__ = ["ERROR_CODES", "STATUS_OF_CODE", "DomainError", "InsufficientScope", "error_body",
           "exception_handler", "is_unavailable", "status_for", "unavailable"]


# Every error code the server answers -> its HTTP status: domain errors' codes (a code not
# listed is a 400), DRF's and Django's refusals as translated below, and the 5xx. The
# schema's ErrorCodeEnum and the table in docs/api.md list these, each once.
STATUS_OF_CODE: dict[str, int] = {
    "validation_error": status.HTTP_400_BAD_REQUEST,
    "illegal_move": status.HTTP_400_BAD_REQUEST,
    "unknown_depth": status.HTTP_400_BAD_REQUEST,
    "no_mat_form": status.HTTP_400_BAD_REQUEST,
    "bad_request": status.HTTP_400_BAD_REQUEST,
    "not_authenticated": status.HTTP_401_UNAUTHORIZED,
    "permission_denied": status.HTTP_403_FORBIDDEN,
    "insufficient_scope": status.HTTP_403_FORBIDDEN,
    "csrf_failed": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "method_not_allowed": status.HTTP_405_METHOD_NOT_ALLOWED,
    "not_acceptable": status.HTTP_406_NOT_ACCEPTABLE,
    "not_your_turn": status.HTTP_409_CONFLICT,
    "wrong_phase": status.HTTP_409_CONFLICT,
    "version_conflict": status.HTTP_409_CONFLICT,
    "too_many_computer_matches": status.HTTP_409_CONFLICT,
    "too_many_invitations": status.HTTP_409_CONFLICT,
    "already_waiting": status.HTTP_409_CONFLICT,
    "resign_offer_too_high": status.HTTP_409_CONFLICT,
    "resign_offer_repeated": status.HTTP_409_CONFLICT,
    # Bot accounts.
    "already_bot": status.HTTP_409_CONFLICT,
    "has_finished_games": status.HTTP_409_CONFLICT,
    "too_many_tokens": status.HTTP_409_CONFLICT,
    "payload_too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "unsupported_media_type": status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    "idempotency_key_reused": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "throttled": status.HTTP_429_TOO_MANY_REQUESTS,
    # Game review.
    "match_not_over": status.HTTP_409_CONFLICT,
    "analysis_exists": status.HTTP_409_CONFLICT,
    "too_many_analyses": status.HTTP_429_TOO_MANY_REQUESTS,
    # Blocks, chat and moderation (docs/api.md#chat-and-moderation).
    "blocked": status.HTTP_403_FORBIDDEN,
    "chat_off": status.HTTP_403_FORBIDDEN,
    "chat_timeout": status.HTTP_403_FORBIDDEN,
    "chat_muted": status.HTTP_403_FORBIDDEN,
    "chat_restricted": status.HTTP_403_FORBIDDEN,
    "chat_guest": status.HTTP_403_FORBIDDEN,
    "chat_closed": status.HTTP_409_CONFLICT,
    "already_reported": status.HTTP_409_CONFLICT,
    # People around the board.
    "challenges_closed": status.HTTP_403_FORBIDDEN,
    "cannot_follow_self": status.HTTP_400_BAD_REQUEST,
    # Tournaments.
    "already_joined": status.HTTP_409_CONFLICT,
    "not_joined": status.HTTP_409_CONFLICT,
    "tournament_full": status.HTTP_409_CONFLICT,
    "tournament_finished": status.HTTP_409_CONFLICT,
    "tournament_started": status.HTTP_409_CONFLICT,
    "round_in_progress": status.HTTP_409_CONFLICT,
    "too_many_tournaments": status.HTTP_409_CONFLICT,
    # Fair play.
    "case_decided": status.HTTP_409_CONFLICT,
    "appeal_used": status.HTTP_409_CONFLICT,
    "server_error": status.HTTP_500_INTERNAL_SERVER_ERROR,
    "service_unavailable": status.HTTP_503_SERVICE_UNAVAILABLE,
    "review_budget_spent": status.HTTP_429_TOO_MANY_REQUESTS,
}

ERROR_CODES: tuple[tuple[str, str], ...] = tuple(
    (code, f"HTTP {answer}") for code, answer in STATUS_OF_CODE.items())
"""The schema's ``ErrorCodeEnum``: each code with its status as the choice's label."""


def status_for(code: str) -> int:
    """The HTTP status of a domain error code (400 for a code the table does not know)."""
    return STATUS_OF_CODE.get(code, status.HTTP_400_BAD_REQUEST)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "payload_too_large"


class InsufficientScope(exceptions.PermissionDenied):
    """A scoped credential (a personal or OAuth token) without the scope a call needs:
    403 ``insufficient_scope``; ``details`` names the scope required and those granted.
    An ``APIException`` so that, raised while authenticating, DRF leaves the request
    anonymous before answering."""

    default_code = "insufficient_scope"

    def __init__(self, detail: str, *, details: dict[str, Any]) -> None:
        super().__init__(detail)
        self.details = details


# DRF exception class -> our code (first match wins, so subclasses come first).
_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (InsufficientScope, "insufficient_scope"),
    (exceptions.ValidationError, "validation_error"),
    (exceptions.ParseError, "validation_error"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "not_authenticated"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
]

_MESSAGES = {
    "validation_error": gettext_noop("The request has invalid fields."),
}


class ErrorDetail(TypedDict):
    code: Annotated[str, Doc("The stable error code (match on it, never on `message`); each "
                             "comes with one status, listed with it.", choices=ERROR_CODES)]
    message: Annotated[str, Doc("A human sentence.")]
    details: Annotated[dict[str, Any], Doc("Per-field messages or extra facts.")]


class Error(TypedDict):
    error: ErrorDetail


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> Error:
    """The one error shape (:class:`Error`; the schema's ``Error`` component)."""
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _as_text(detail: Any) -> str:
    if isinstance(detail, list | tuple) and detail:
        return _as_text(detail[0])
    if isinstance(detail, dict) and detail:
        return _as_text(next(iter(detail.values())))
    return str(detail)


# Seconds a client is told to wait before retrying a 503.
RETRY_AFTER_SECONDS = 2


UNREACHABLE: tuple[type[BaseException], ...] = (
    OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError)
"""A lost or refused connection: Django's database errors (psycopg's are wrapped in
them), and Redis's when it serves the cache or the fan-out."""


def is_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` means a backing service is out of reach (a 503, not a bug's 500).
    Integrity and data errors stay 500s: they are not ``OperationalError``s."""
    return exc is not None and isinstance(exc, UNREACHABLE)


def _unavailable_body() -> Error:
    return error_body("service_unavailable",
                      gettext("The service is briefly unavailable; retry shortly."),
                      {"retry_after": RETRY_AFTER_SECONDS})


def unavailable(exc: BaseException | None = None) -> JsonResponse:
    """The 503 in the error shape, with ``Retry-After``."""
    response = JsonResponse(_unavailable_body(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if is_unavailable(exc):
        logger.warning("503: a backing service is unreachable: %r", exc)
        return Response(_unavailable_body(), status=503,
                        headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    if isinstance(exc, DomainError):
        # Translated at the edge: a message the services wrote in the
        # request's language already, or a constant one marked with gettext_noop.
        return Response(error_body(exc.code, gettext(str(exc.message)), exc.details),
                        status=status_for(exc.code))
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(str(exc) or gettext("The request was malformed."))

    # Imported here: rest_framework.views loads the parser settings, which import this module.
    from rest_framework.views import exception_handler as drf_exception_handler

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    assert isinstance(exc, exceptions.APIException)
    code = next((c for cls, c in _CODES if isinstance(exc, cls)), None) or str(
        getattr(exc, "default_code", "error")
    )
    details: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        details = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        message = gettext(_MESSAGES["validation_error"])
        if isinstance(detail, list | dict) and detail:
            first = _as_text(detail)
            message = f"{message} {first}" if not isinstance(detail, dict) else message
    elif isinstance(exc, exceptions.ParseError):
        message = gettext("Malformed request body: %(detail)s") % {
            "detail": _as_text(exc.detail)}
        details = {"body": [_as_text(exc.detail)]}
    else:
        message = _as_text(exc.detail)
        details = dict(getattr(exc, "details", None) or {})
    wait = getattr(exc, "wait", None) if isinstance(exc, exceptions.Throttled) else None
    if wait is not None:
        details = {"retry_after": int(wait + 0.999)}
    response.data = error_body(code, message, details)
    return response


def _json_error(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status_code)


@csrf_exempt  # also the API's catch-all view: a POST to no URL is a 404, not a CSRF 403
def handler404(request: Any, exception: Exception | None = None) -> JsonResponse:
    """Unknown URLs answer in the API's error shape, not an HTML page."""
    hint = "" if request.path.endswith("/") else gettext(" (API URLs end with a slash)")
    return _json_error(404, "not_found", gettext("No such URL: %(path)s") % {
        "path": request.path} + hint)


def handler400(request: Any, exception: Exception | None = None) -> JsonResponse:
    return _json_error(400, "bad_request", gettext("The request was malformed."))


def handler403(request: Any, exception: Exception | None = None) -> JsonResponse:
    return _json_error(403, "permission_denied",
                       gettext("You do not have permission to do this."))


def handler500(request: Any) -> JsonResponse:
    # Called while the exception is being handled: one raised outside a view (a
    # middleware's database read) that means "unreachable" is a 503 too.
    if is_unavailable(sys.exc_info()[1]):
        return unavailable()
    return _json_error(500, "server_error", gettext("Something went wrong on our side."))
