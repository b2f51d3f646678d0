"""What tournaments hears of games: a tournament match's end, after its commit (a
listener of :mod:`games.notify`, registered in ``TournamentsConfig.ready``)."""

from __future__ import annotations

from collections.abc import Sequence

from games.models import Event, Match
from tournaments import services

ENDS = ("match_over", "aborted")


def committed(match: Match, events: Sequence[Event]) -> None:
    """A change that ends a tournament's match (won, resigned, claimed, abandoned or
    aborted) settles its pairing, and pairs again, starts the next round or finishes the
    tournament."""
    if match.tournament_id is None or not any(e.type in ENDS for e in events):
        return
    services.pairing_settle(match_id=match.pk, events=events)
