"""``Idempotency-Key`` for state-changing POSTs.

A client that sends ``Idempotency-Key: <1–255 visible characters>`` with a POST may
retry it safely: the first successful answer is stored with a fingerprint of the
request (method, path, query string and body), and a retry with the same key and the
same request gets that answer again — with ``Idempotent-Replayed: true`` — and
changes nothing. A refusal (4xx) changed nothing and is not stored (refused
requests must not each leave a row): a retry of it runs again. The same
key with another request is refused with 422 ``idempotency_key_reused``. Keys are per
user and expire after ``IDEMPOTENCY_KEY_TTL`` seconds (1 hour by default).

What is kept is bounded: the answer's body is needed (a replay must give the same answer,
which a digest could not rebuild), but a client retries within seconds or minutes, not
days. So a record lives ``IDEMPOTENCY_KEY_TTL`` (was 24 hours), and each keyed POST first
deletes the account's expired records and all but its ``IDEMPOTENCY_KEYS_PER_ACCOUNT``
newest: one hotseat match played with keys left 379 rows (1.65 MB) until the purge
command ran; now at most that many per account, whether the command runs or not.

The record is written in the same transaction as the action, so a retry that
races the first attempt waits on the key's unique index and then replays.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpResponse
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from nard_site.domain import DomainError

from .models import IdempotencyRecord
from .renderers import render_json

HEADER = "Idempotency-Key"


def key_ttl() -> timedelta:
    return timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL)


class IdempotencyKeyReused(DomainError):
    code = "idempotency_key_reused"
    default_message = "This Idempotency-Key was used for a different request."


class InvalidIdempotencyKey(DomainError):
    code = "validation_error"
    default_message = "The Idempotency-Key header must be 1 to 255 visible ASCII characters."


def _fingerprint(request: Request) -> str:
    """sha256 of the method, the path, the query string (its parameters sorted, so
    ``?perspective=black`` is another request than none) and the body."""
    try:
        body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    except TypeError:
        body = repr(request.data)
    query = urlencode(sorted((k, v) for k, values in request.query_params.lists()
                             for v in values))
    raw = f"{request.method} {request.path}?{query}\n{body}"
    return hashlib.sha256(raw.encode()).hexdigest()


def _forget_old(user: Any) -> None:
    """Delete ``user``'s expired records and all but the newest
    ``IDEMPOTENCY_KEYS_PER_ACCOUNT - 1`` (room for the one being made)."""
    mine = IdempotencyRecord.objects.filter(user=user)
    kept = max(settings.IDEMPOTENCY_KEYS_PER_ACCOUNT - 1, 0)
    older = mine.order_by("-created_at", "-pk").values("pk")[kept:]
    mine.filter(Q(created_at__lt=timezone.now() - key_ttl()) | Q(pk__in=older)).delete()


def _replay(record: IdempotencyRecord) -> HttpResponse:
    response = HttpResponse(record.body, status=record.status_code,
                            content_type="application/json")
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(action: Callable[..., Response]) -> Callable[..., Any]:
    """Make a viewset action honour the ``Idempotency-Key`` header."""

    @functools.wraps(action)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return action(view, request, *args, **kwargs)
        if not (1 <= len(key) <= 255 and key.isascii() and key.isprintable()):
            raise InvalidIdempotencyKey(details={"Idempotency-Key": ["Invalid key."]})
        fingerprint = _fingerprint(request)
        with transaction.atomic():
            _forget_old(request.user)
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        user=request.user, key=key, fingerprint=fingerprint)
            except IntegrityError:
                record = IdempotencyRecord.objects.get(user=request.user, key=key)
                if record.fingerprint != fingerprint:
                    raise IdempotencyKeyReused() from None
                return _replay(record)
            try:
                response = action(view, request, *args, **kwargs)
            except Exception as exc:
                response = view.handle_exception(exc)  # 4xx become answers; others re-raise
            if response.status_code >= 500:  # not an answer worth replaying
                transaction.set_rollback(True)
                return response
            if response.status_code >= 400:  # a refusal: keep no record (what the refused
                record.delete()  # service wrote itself, e.g. settling an abandoned match, stays)
                return response
            record.status_code = response.status_code
            record.body = render_json(response.data).decode()
            record.save(update_fields=["status_code", "body"])
            return response

    return wrapper
