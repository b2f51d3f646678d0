"""A JSON parser that refuses oversized bodies and non-standard JSON with a clear 4xx."""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from .errors import PayloadTooLarge


def _is_text_encoding(name: str) -> bool:
    try:
        return codecs.lookup(name)._is_text_encoding
    except LookupError:
        return False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A key given twice (say a board point) is refused, not silently overwritten."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        if request is not None:
            try:
                declared = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                declared = 0
            if limit is not None and declared > limit:
                raise PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        raw = stream.read(limit + 1) if limit is not None else stream.read()
        if limit is not None and len(raw) > limit:
            raise PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            text = codecs.decode(raw, encoding) if _is_text_encoding(encoding) else None
        except (UnicodeDecodeError, ValueError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        if text is None:
            raise ParseError(f"{encoding!r} is not a text encoding; send UTF-8 JSON.")
        try:
            data = json.loads(text, parse_constant=_refuse_constant,
                              object_pairs_hook=_unique_keys)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.") from None
        try:  # a lone surrogate (say "\ud800") is valid JSON but no text: refuse it here
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ParseError("JSON parse error - a string holds a lone surrogate.") from None
        return data
