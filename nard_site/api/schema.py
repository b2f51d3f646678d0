"""OpenAPI: every operation documents the error shape for the 4xx it can answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from rest_framework.permissions import AllowAny

from nard_site.api.errors import Error
from nard_site.api.shapes import schema_serializer

ErrorSerializer = schema_serializer(Error)
"""Documents the one error shape (built from :class:`nard_site.api.errors.Error`)."""


_DESCRIPTIONS = {
    "400": "Invalid input or query parameters (`validation_error`), or a move the rules "
    "refuse (`illegal_move`).",
    "401": "Missing or invalid credentials (`not_authenticated`).",
    "403": "Not allowed (`permission_denied`), or a personal or OAuth token without the "
    "scope the call needs (`insufficient_scope`).",
    "404": "No such object (`not_found`).",
    "409": "The state changed or it is not your turn "
    "(`version_conflict`, `not_your_turn`, `wrong_phase`), or a limit on unfinished "
    "matches (`too_many_computer_matches`, `too_many_invitations`).",
    "422": "The Idempotency-Key was used for another request (`idempotency_key_reused`).",
    "413": "The request body is too large (`payload_too_large`).",
    "415": "Unsupported content type (`unsupported_media_type`).",
    "429": "Too many requests (`throttled`); see the `Retry-After` header.",
}


class AutoSchema(BaseAutoSchema):
    #: extra error statuses a view may declare, e.g. ``("409",)``
    def _error_codes(self) -> list[str]:
        codes = ["400", "429"]  # 400: a bad body or query parameter
        if self.method in ("POST", "PUT", "PATCH"):
            codes += ["413", "415"]
        permissions = self.view.get_permissions() if hasattr(self.view, "get_permissions") else []
        if not all(isinstance(p, AllowAny) for p in permissions):
            codes += ["401", "403"]
        if "{" in self.path:
            codes.append("404")
        codes += list(getattr(self.view, "schema_error_codes", ()))
        return sorted(set(codes))

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code in self._error_codes():
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                response["description"] = _DESCRIPTIONS[code]
                responses[code] = response
        return responses
