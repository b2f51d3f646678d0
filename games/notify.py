"""What the other modules hear of a change to a match: before and after its commit.

games knows none of the modules that care about its matches (ratings, the streams, the
computer's turns, and any feature to come); each registers here, in its
``AppConfig.ready``, and games calls them from the one place that commits a change
(:meth:`games.unit_of_work.Change.commit`):

* **contributors** (:func:`contribute`), before the write, inside the transaction: each
  returns statements written in the same round trip as the change (a rated match's
  rating update when the change finishes it) and may add to the change's events
  before they are stored. A contributor that fails fails the change: what it adds is
  part of it.
* **listeners** (:func:`subscribe`), after the transaction has committed (scheduled with
  ``transaction.on_commit``): they see only what is in the database, after it is
  there, and never an event of a transaction that rolled back. A listener that fails
  is logged and does not stop the others or the request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from games.models import Event, Match
from nard_site.rows import Statement


class Pending(Protocol):
    """A change about to be written, as a contributor sees it."""

    @property
    def match(self) -> Match: ...

    @property
    def events(self) -> list[Event]: ...

    @property
    def now(self) -> datetime: ...


Contributor = Callable[[Pending], Sequence[Statement]]
Listener = Callable[[Match, Sequence[Event]], None]

_contributors: list[Contributor] = []
_listeners: list[Listener] = []
_log = logging.getLogger(__name__)


def contribute(contributor: Contributor) -> None:
    """Call ``contributor(change)`` before each change is written (once per contributor)
    and write the statements it returns with the change."""
    if contributor not in _contributors:
        _contributors.append(contributor)


def withdraw(contributor: Contributor) -> None:
    if contributor in _contributors:
        _contributors.remove(contributor)


def contributions(change: Pending) -> list[Statement]:
    """Every contributor's statements for ``change``, in the order they registered."""
    return [statement for contributor in list(_contributors)
            for statement in contributor(change)]


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
