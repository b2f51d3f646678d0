"""Presence: whether a player has been seen in the last minute.

A request to the matches API or an open stream marks its user with :func:`seen`; a
match's ``state.presence`` reads both players with :func:`online`. The mark is a cache
key per user holding a timestamp (the project's cache: Redis, or the database cache), so
nothing is written to the game tables; it is written again only when the stored mark is
older than ``REFRESH_SECONDS``, so a busy player costs one cache read per request and a
write at most every 15 s. Streams (``live/``) call :func:`seen` when they open and as
they keep the connection alive. The built-in computer is always present (:func:`always`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from django.core.cache import cache
from django.utils import timezone

PRESENCE_SECONDS: Final = 60
"""A player seen within this many seconds is present."""
REFRESH_SECONDS: Final = 15
"""A mark younger than this is not written again."""


def _key(user_id: int) -> str:
    return f"presence:{user_id}"


def seen(user_id: int) -> None:
    """Mark ``user_id`` as seen now (cheap: usually one cache read)."""
    now = timezone.now().timestamp()
    last = cache.get(_key(user_id))
    if last is None or now - last >= REFRESH_SECONDS:
        cache.set(_key(user_id), now, timeout=PRESENCE_SECONDS + REFRESH_SECONDS)


ALWAYS: Final = 2.0 ** 62
"""The mark of an account that is always there (the built-in computer): a time far ahead."""


def always(user_id: int) -> None:
    """Mark ``user_id`` as present from now on: the built-in computer, which answers within
    a second whenever the task queue runs (marked when its account is used, and again at
    each of its actions, so a cleared cache heals itself)."""
    if cache.get(_key(user_id)) != ALWAYS:
        cache.set(_key(user_id), ALWAYS, timeout=None)


def online(user_ids: Iterable[int | None]) -> dict[int, bool]:
    """``{user_id: seen in the last PRESENCE_SECONDS}`` for the given users (one cache
    read); ``None`` ids (an empty seat) are left out."""
    ids = [u for u in user_ids if u is not None]
    if not ids:
        return {}
    marks = cache.get_many([_key(u) for u in ids])
    now = timezone.now().timestamp()
    return {u: (mark := marks.get(_key(u))) is not None and now - mark < PRESENCE_SECONDS
            for u in ids}
