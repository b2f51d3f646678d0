"""What fair play hears of a match (``games.notify.subscribe`` in ``FairplayConfig.ready``),
after its commit: a rated match's end queues the match's cheap review; a review of a
rated match done (its ``analysis`` event, state ``done``) rescans its two players, so a
case opens as soon as the evidence is there (``manage.py fairplay_scan`` catches up
whatever this missed)."""

from __future__ import annotations

from collections.abc import Sequence

from fairplay import services
from games.models import Event, Match


def committed(match: Match, events: Sequence[Event]) -> None:
    if not match.rated or match.hotseat:
        return
    if any(e.type == "match_over" for e in events):
        services.queue_review(match)
    if any(e.type == "analysis" and e.data.get("state") == "done" for e in events):
        services.scan(accounts=[uid for uid in (match.white_id, match.black_id)
                                if uid is not None])
