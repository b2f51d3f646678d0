"""The API's JSON, with one format for every instant.

Every time an answer, an event or a stream writes is UTC in ISO 8601 with milliseconds
and ``Z`` (``2026-12-01T10:56:57.101Z``): :func:`iso_time` formats it, and the
:class:`JSONRenderer` (every answer's, the streams' and the idempotency replays') renders
each ``datetime`` through it — whether a selector's dict or a serializer field holds it
(``REST_FRAMEWORK["DATETIME_FORMAT"]`` is ``None``, so fields pass the value on).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rest_framework import renderers
from rest_framework.utils import encoders


def iso_time(moment: datetime) -> str:
    """``moment`` (aware) as the API writes every instant: UTC, milliseconds, ``Z``."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_time_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else iso_time(moment)


class JSONEncoder(encoders.JSONEncoder):
    def default(self, obj: Any) -> Any:
        if isinstance(obj, datetime):
            return iso_time(obj)
        return super().default(obj)


class JSONRenderer(renderers.JSONRenderer):
    """DRF's renderer, with :class:`JSONEncoder`."""

    encoder_class = JSONEncoder


_render = JSONRenderer().render


def render_json(data: Any) -> bytes:
    """``data`` as the API's JSON bytes (what :class:`JSONRenderer` answers)."""
    return _render(data)
