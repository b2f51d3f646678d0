"""Limits on password checks: per username and address, per address, and per process.

Every log-in path calls ``authenticate()`` (the API's ``accounts/token/``, the play page's
``POST /play/session/``, ``/admin/login/``), and :class:`accounts.backends.LoginLimitBackend`
applies these before it checks a password:

- **username and address**: after ``LOGIN_FAILURE_LIMIT`` wrong passwords for one
  username from one client address within ``LOGIN_FAILURE_WINDOW`` seconds (counted from
  the first), that username's log-ins *from that address* are refused until the window has
  passed. From another address the owner still logs in: nobody can lock another person
  out (staff included) by guessing at their name. A success clears the count. Usernames
  count by :func:`username_key` (``Alice`` and ``ALICE`` share one budget).
- **address**: after ``LOGIN_ADDRESS_FAILURE_LIMIT`` wrong passwords from one address
  within the window, whatever the usernames, every log-in from it is refused until the
  window has passed (guessing across many names).
- **process**: at most ``LOGIN_CONCURRENT_CHECKS`` password hashes run at once in one
  process (a check costs ~0.2 s of CPU); one more is refused at once, not queued, so a
  flood of log-ins cannot take the CPU from everyone's moves. Registration's hashing is
  capped by the same slots (:func:`hashing`).

The client address is the throttles' own identity (DRF's ``BaseThrottle.get_ident``:
``REMOTE_ADDR``, or with ``NUM_PROXIES`` the address that many hops back in
``X-Forwarded-For``). Counts are rows of :class:`accounts.models.LoginCounter`, each
attempt counted under a row lock *before* its password is checked, so 40 parallel guesses
get at most the limit of checks; they live in the database, so a Redis restart does not
lift a lock-out.

A refusal is left on the request (:func:`refusal_of`), so that each view says why: 429
``throttled`` with ``Retry-After`` in the API and on the play page, a form error in the admin.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import ngettext

from nard_site import clients

from .models import LoginCounter
from .names import username_key

REFUSAL_ATTR = "_login_refusal"


def _limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 10))


def _address_limit() -> int:
    return int(getattr(settings, "LOGIN_ADDRESS_FAILURE_LIMIT", 50))


def _window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", 900))


@dataclass(frozen=True)
class Refusal:
    """Why a log-in was refused before its password was checked."""

    reason: str  # "username" (this name from this address), "address", or "busy"
    retry_after: int
    message: str


class Refused(PermissionDenied):
    """``authenticate()`` stops at a backend's ``PermissionDenied`` and answers ``None``."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def client_address(request: Any) -> str:
    """The client's address as the throttles see it (:func:`nard_site.clients.client_address`,
    ``NUM_PROXIES``-aware); ``local`` without a request."""
    if request is None or getattr(request, "META", None) is None:
        return "local"  # authenticate() called without a request (a command, a test)
    return clients.client_address(request)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _username_key(username: str, address: str) -> str:
    return "u:" + _digest(username_key(username), address)


def _address_key(address: str) -> str:
    return "a:" + _digest(address)


def count(key: str, *, seconds: int) -> tuple[int, int]:
    """Count one more under ``key`` in a fixed window of ``seconds`` (another limit's
    counter on the same rows: guests made per address, ``accounts.services.guest_create``):
    its count now, and the seconds left in its window."""
    return _hit(key, seconds)


def _hit(key: str, seconds: int | None = None) -> tuple[int, int]:
    """Count one more attempt under ``key``, atomically: its count now, and the seconds
    left in its window (``LOGIN_FAILURE_WINDOW`` unless ``seconds``)."""
    now = timezone.now()
    seconds = _window() if seconds is None else seconds
    window = timedelta(seconds=seconds)
    with transaction.atomic():
        row = LoginCounter.objects.select_for_update().filter(key=key).first()
        if row is None:
            try:
                with transaction.atomic():
                    LoginCounter.objects.create(key=key, count=1, expires=now + window)
            except IntegrityError:  # a parallel attempt made it first: count on it
                row = LoginCounter.objects.select_for_update().get(key=key)
            else:
                transaction.on_commit(_purge_expired)
                return 1, seconds
        if row.expires <= now:
            row.count, row.expires = 1, now + window
        else:
            row.count += 1
        row.save(update_fields=["count", "expires"])
        return row.count, max(1, int((row.expires - now).total_seconds() + 0.999))


def _undo(key: str) -> None:
    LoginCounter.objects.filter(key=key, count__gt=0).update(count=F("count") - 1)


def _purge_expired() -> None:
    LoginCounter.objects.filter(expires__lte=timezone.now()).delete()


def _minutes(seconds: int) -> int:
    return max(1, round(seconds / 60))


class Attempt:
    """One password check that the limits let through, counted as a failure until it
    is known to have succeeded (:meth:`succeeded`) or not to have run (:meth:`cancel`)."""

    def __init__(self, user_key: str, address_key: str) -> None:
        self.keys = (user_key, address_key)

    def succeeded(self) -> None:
        LoginCounter.objects.filter(key=self.keys[0]).delete()
        _undo(self.keys[1])

    def cancel(self) -> None:
        for key in self.keys:
            _undo(key)


def begin(request: Any, username: str) -> Attempt:
    """Count a log-in attempt for ``username`` from ``request``'s address, or refuse it
    (:class:`Refused`, also left on the request for :func:`refusal_of`)."""
    address = client_address(request)
    user_key, address_key = _username_key(username, address), _address_key(address)
    count, left = _hit(address_key)
    if count > _address_limit():
        _undo(address_key)
        _refuse(request, Refusal("address", left, ngettext(
            "Too many failed log-ins from your address: try again in %(n)s minute.",
            "Too many failed log-ins from your address: try again in %(n)s minutes.",
            _minutes(left)) % {"n": _minutes(left)}))
    count, left = _hit(user_key)
    if count > _limit():
        _undo(user_key)
        _undo(address_key)
        _refuse(request, Refusal("username", left, ngettext(
            "Too many failed log-ins for this username: try again in %(n)s minute.",
            "Too many failed log-ins for this username: try again in %(n)s minutes.",
            _minutes(left)) % {"n": _minutes(left)}))
    return Attempt(user_key, address_key)


def _refuse(request: Any, refusal: Refusal) -> None:
    if request is not None:
        setattr(request, REFUSAL_ATTR, refusal)
    raise Refused(refusal)


def refuse_busy(request: Any) -> None:
    _refuse(request, BUSY)


def refusal_of(request: Any) -> Refusal | None:
    """Why the log-in ``authenticate()`` just refused was not even checked, if it was not."""
    found = getattr(request, REFUSAL_ATTR, None)
    return found if isinstance(found, Refusal) else None


def retry_after(username: str, address: str = "local") -> int | None:
    """Seconds until ``username`` may try again from ``address``, or ``None`` if now."""
    now = timezone.now()
    for key, limit in ((_address_key(address), _address_limit()),
                       (_username_key(username, address), _limit())):
        row = LoginCounter.objects.filter(key=key, expires__gt=now, count__gte=limit).first()
        if row is not None:
            return max(1, int((row.expires - now).total_seconds() + 0.999))
    return None


# --- The per-process cap on password hashing ----------------------------------------------

BUSY = Refusal("busy", 1, "The server is checking too many passwords at once: try again "
                          "in a second.")


class Busy(Exception):
    """Every hashing slot of this process is taken."""


_slots_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    size = max(1, int(getattr(settings, "LOGIN_CONCURRENT_CHECKS", 1)))
    with _slots_lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


@contextmanager
def hashing() -> Iterator[None]:
    """A slot to hash a password in, or :class:`Busy` at once when all are taken."""
    slots = _semaphore()
    if not slots.acquire(blocking=False):
        raise Busy
    try:
        yield
    finally:
        slots.release()
