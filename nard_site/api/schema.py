"""OpenAPI: every operation documents the error shape for the 4xx it can answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.plumbing import is_list_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from nard_site.api.errors import Error
from nard_site.api.shapes import schema_serializer

EVENT_STREAM = "text/event-stream"
NO_NUL = "^[^\\u0000]*$"
"""A string without the NUL character, which every DRF ``CharField`` refuses."""


def sse_event(item: str) -> dict[str, Any]:
    """The schema of one Server-Sent Event whose ``data`` is one line of JSON, an
    ``item`` (a component's name)."""
    return {"type": "object", "properties": {
        "id": {"type": "string", "description": "The event's `seq` (match streams; absent "
                                                "on `state` and on the account's items)."},
        "event": {"type": "string", "description": "The item's `type`."},
        "data": {"type": "string", "description": f"One line of JSON: a `{item}` (the "
                                                  "media type's `x-item-schema`)."},
        "retry": {"type": "integer", "description": "Milliseconds to wait before "
                                                    "reconnecting."},
    }}

ErrorSerializer = schema_serializer(Error)
"""Documents the one error shape (built from :class:`nard_site.api.errors.Error`)."""


_DESCRIPTIONS = {
    "400": "Invalid input or query parameters (`validation_error`), or a move the rules "
    "refuse (`illegal_move`).",
    "401": "Missing or invalid credentials (`not_authenticated`).",
    "403": "Not allowed (`permission_denied`, `csrf_failed`), or a personal or OAuth token "
    "without the scope the call needs (`insufficient_scope`).",
    "404": "No such object or page (`not_found`).",
    "406": "An `Accept` header (or `?format=`) the operation cannot answer in "
    "(`not_acceptable`).",
    "409": "The state changed or it is not your turn "
    "(`version_conflict`, `not_your_turn`, `wrong_phase`), a limit on unfinished "
    "matches (`too_many_computer_matches`, `too_many_invitations`), a pairing already "
    "asked with other options (`already_waiting`), a review refused (`match_not_over`, "
    "`analysis_exists`).",
    "422": "The Idempotency-Key was used for another request (`idempotency_key_reused`).",
    "413": "The request body is too large (`payload_too_large`).",
    "415": "Unsupported content type (`unsupported_media_type`).",
    "429": "Too many requests (`throttled`, `too_many_analyses`); see the `Retry-After` "
    "header.",
    "503": "The database or Redis is out of reach for a moment (`service_unavailable`); "
    "see the `Retry-After` header.",
}


class AutoSchema(BaseAutoSchema):
    def _error_codes(self) -> list[str]:
        """The error statuses the operation can answer: everywhere 400 (a bad body, query
        parameter or header), 406 (an ``Accept`` it cannot answer), 429 and 503 (the
        database out of reach); 413/415 with a body, 401 wherever credentials are read (a
        bad token is refused even on a public read) and 403 where an account is needed, 404
        with a path parameter or a page number; and what the view declares in
        ``schema_error_codes``: a tuple for every method, or a mapping of method to tuple
        (``{"DELETE": ("404",)}``)."""
        codes = ["400", "406", "429", "503"]
        if self.method in ("POST", "PUT", "PATCH"):
            codes += ["413", "415"]
        permissions = self.view.get_permissions() if hasattr(self.view, "get_permissions") else []
        if getattr(self.view, "authentication_classes", None):
            codes.append("401")
        if not all(isinstance(p, AllowAny) for p in permissions):
            codes += ["401", "403"]
        if "{" in self.path or (self._is_list_view() and self._get_paginator() is not None):
            codes.append("404")
        declared = getattr(self.view, "schema_error_codes", ())
        if isinstance(declared, dict):
            declared = declared.get(self.method, ())
        codes += list(declared)
        return sorted(set(codes))

    def _get_format_parameters(self) -> Any:
        """``?format=``, but where the view refuses it (``schema_format_parameter =
        False``: the streams answer only ``text/event-stream``)."""
        if not getattr(self.view, "schema_format_parameter", True):
            return []
        return super()._get_format_parameters()

    def _map_serializer_field(self, field: Any, direction: Any,
                              bypass_extensions: bool = False) -> Any:
        """As drf-spectacular, and what it leaves out: a nested ``many=True`` serializer's
        bounds (``allow_empty=False``, ``min_length``, ``max_length``) as
        ``minItems``/``maxItems``; an input string's characters (``pattern``)."""
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if (direction == "request" and isinstance(schema, dict)
                and isinstance(field, serializers.CharField)
                and schema.get("type") == "string" and "enum" not in schema):
            # What the field refuses besides its length: its own ``schema_pattern``, else
            # the NUL character (every DRF CharField refuses it).
            pattern = getattr(field, "schema_pattern", NO_NUL)
            if getattr(field, "allow_blank", False) and pattern.endswith("]*$"):
                # drf-spectacular adds the empty string as a oneOf's other branch: this
                # one must not match it too, nor default to it (the other branch says it).
                pattern = pattern[:-3] + "]+$"
                if schema.get("default") == "":
                    del schema["default"]
            schema.setdefault("pattern", pattern)
        if is_list_serializer(field) and isinstance(schema, dict):
            low = getattr(field, "min_length", None) or (
                0 if getattr(field, "allow_empty", True) else 1)
            if low:
                schema["minItems"] = low
            high = getattr(field, "max_length", None)
            if high is not None:
                schema["maxItems"] = high
        return schema

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> Any:
        """As drf-spectacular, and ``additionalProperties: false`` for a serializer that
        refuses keys it does not know (``schema_closed = True`` on its class)."""
        schema = super()._map_basic_serializer(serializer, direction)
        if getattr(serializer, "schema_closed", False):
            schema["additionalProperties"] = False
        return schema

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for response in responses.values():
            stream = response.get("content", {}).get(EVENT_STREAM)
            if stream is not None and "$ref" in stream.get("schema", {}):
                # Before OpenAPI 3.2 (itemSchema) a stream's `schema` describes each event
                # (as schemathesis reads it); the JSON its `data` holds is named here.
                stream["x-item-schema"] = stream["schema"]
                stream["schema"] = sse_event(stream["schema"]["$ref"].rsplit("/", 1)[-1])
        for code in self._error_codes():
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                response["description"] = _DESCRIPTIONS[code]
                responses[code] = response
        return responses
