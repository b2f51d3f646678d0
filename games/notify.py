"""After-commit notifications: what happens once a change to a match is durable.

The one place that commits a change to a match (``games.services.Change.commit``)
schedules :func:`committed` with ``transaction.on_commit``, so listeners — the live
streams' fan-out, the computer's turns — see only what is in the database, after
it is there, and never an event of a transaction that rolled back. Listeners are
registered explicitly (``subscribe``) by the app that owns them, in its
``AppConfig.ready``; a listener that fails is logged and does not stop the others
or the request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Event, Match

Listener = Callable[["Match", Sequence["Event"]], None]

_listeners: list[Listener] = []
_log = logging.getLogger(__name__)


def subscribe(listener: Listener) -> None:
    """Call ``listener(match, events)`` after each committed change (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def committed(match: Match, events: Sequence[Event]) -> None:
    """Tell every listener that ``events`` of ``match`` are committed."""
    for listener in list(_listeners):
        try:
            listener(match, events)
        except Exception:  # a listener's failure must not undo or fail the request
            _log.exception("after-commit listener %r failed for match %s", listener, match.pk)
