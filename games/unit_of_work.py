"""The unit of work of a match: one change, collected in memory, written in one step.

The transitions (:mod:`games.transitions`) change the match aggregate — the match, its
current game and turn record — in memory through a :class:`Change`, which collects the
rows they touch and the events they log. :meth:`Change.commit` is the one place such a
change is written: the rows and events, with whatever the other modules add to the
same round trip (:func:`games.notify.contributions`: a rated match's rating update),
and, once the transaction has committed, the after-commit listeners
(:func:`games.notify.committed`: the streams, the computer's turns).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from games import clocks, notify, store
from games.models import Event, Match


@dataclass
class Change:
    """One change to a match: the rows it touched, the events it logged, in memory.

    ``loaded`` holds the values the rows were read with (:func:`games.store.lock_match`)
    so the write sends only what changed.
    """

    match: Match
    loaded: store.Loaded = field(default_factory=dict)
    now: datetime = field(default_factory=lambda: timezone.now())  # read when made
    events: list[Event] = field(default_factory=list)
    rows: dict[int, Model] = field(default_factory=dict)
    commit_dice: bool = True
    """Each new game draws its committed dice seed (docs/fairness.md): live play, the
    default. An import or a replay plays the record's dice and says ``False``."""

    def log(self, type_: str, **data: Any) -> Event:
        self.match.last_event_seq += 1
        event = Event(match=self.match, seq=self.match.last_event_seq, type=type_, at=self.now,
                      data=data)
        self.events.append(event)
        return event

    def touch(self, *rows: Model) -> None:
        """Write these rows (new or changed) with the change."""
        for row in rows:
            self.rows[id(row)] = row

    def commit(self, *, quiet: bool = False) -> Match:
        """Bump the version, set the clock's deadline (``turn_seconds`` from now for the
        side to act), write the touched rows, the events and the other modules'
        contributions (one round trip on PostgreSQL), and schedule the after-commit
        notification.

        ``quiet``: a change that only logs (the sweep's ``deadline`` warning) keeps the
        version and the deadline, so no client's ``expected_version`` goes stale.
        """
        if not quiet:
            self.match.version += 1
            self.match.deadline = clocks.deadline_after(self.match, self.now)
            self.match.deadline_warned = False
        extra = notify.contributions(self)
        store.save([self.match, *self.rows.values()], self.events, self.loaded, extra=extra)
        match, events = self.match, list(self.events)
        transaction.on_commit(lambda: notify.committed(match, events))
        self.events, self.rows = [], {}
        return self.match
