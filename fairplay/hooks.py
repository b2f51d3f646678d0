"""What fair play hears of a match (``games.notify.subscribe`` in ``FairplayConfig.ready``):
a rated match's end, after its commit, queues the match's cheap review."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from fairplay import services
from games.models import Event, Match

_log = logging.getLogger(__name__)


def committed(match: Match, events: Sequence[Event]) -> None:
    if not match.rated or not any(e.type == "match_over" for e in events):
        return
    services.queue_review(match)
