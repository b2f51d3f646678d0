"""The kinds of place that have chat rooms: a room is ``(kind, object id, room)``.

chat knows matches (it sits above games) and nothing above it: a module above chat — the
tournaments — registers its kind here in its ``AppConfig.ready``, and chat's URLs for it
answer 404 ``not_found`` until then. A kind says how to find its place, who may read and
write which of its rooms, and, if its places keep a log, how a line is logged there (in
the line's transaction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.models import User

Viewer = User | AnonymousUser
Find = Callable[[int], Any]
"""The place with this id, or ``None`` (404)."""
MayRead = Callable[[Viewer, Any, str], bool]
"""Whether the viewer may read this room of the place."""
MayWrite = Callable[[User, Any, str], None]
"""Nothing if the account may write in this room now; else raises a
:class:`nard_site.domain.DomainError` with its code."""
Counterparts = Callable[[Any, str], set[int]]
"""The accounts a line in this room is said to: a block between the author and any of
them refuses the line (a match's players' room: the two players)."""
Log = Callable[[Any, Any], int | None]
"""Log the line (a :class:`chat.models.Line`) as an event of its place, in the line's
transaction; the event's number, or ``None`` if not logged."""


@dataclass(frozen=True)
class RoomKind:
    name: str
    rooms: tuple[str, ...]
    find: Find
    may_read: MayRead
    may_write: MayWrite
    counterparts: Counterparts
    log: Log | None = None


_kinds: dict[str, RoomKind] = {}


def _nobody(place: Any, room: str) -> set[int]:
    return set()


def register(kind: str, *, find: Find, may_read: MayRead, may_write: MayWrite,
             rooms: tuple[str, ...] = ("main",), counterparts: Counterparts = _nobody,
             log: Log | None = None) -> RoomKind:
    """Give places of ``kind`` chat rooms (``rooms``: the first is the default of
    ``?room=``). Registering a kind again replaces it."""
    room_kind = RoomKind(kind, rooms, find, may_read, may_write, counterparts, log)
    _kinds[kind] = room_kind
    return room_kind


def unregister(kind: str) -> None:
    _kinds.pop(kind, None)


def get(kind: str) -> RoomKind | None:
    return _kinds.get(kind)
