"""Refusals by the business rules, with no knowledge of HTTP.

A :class:`DomainError` carries a stable snake_case ``code``, a human message and
details. Services raise it (or a subclass naming its ``code``); the API's one
exception handler (``nard_site.api.errors``) maps the code to an HTTP status.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refusal by the business rules: ``code``, ``message`` and ``details``."""

    code = "bad_request"
    default_message = "The request was refused."

    def __init__(self, message: str | None = None, *, details: dict[str, Any] | None = None,
                 code: str | None = None) -> None:
        self.message = message or self.default_message
        self.details = details or {}
        if code is not None:
            self.code = code
        super().__init__(self.message)
