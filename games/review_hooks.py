"""What games asks of the game review, which is an app of its own (``reviews``).

The review reads games (its records, its matches), so ``reviews`` imports ``games`` and
never the other way round. Where a match shows its review — its stream stays open while
one runs, its replay lists them, its JSON export carries the deepest, the admin's match
and game pages summarise them, the task worker reclaims and resumes their jobs — games
asks the one :class:`Review` registered here. ``reviews`` registers it from its
``AppConfig.ready()``; without it a match simply has no review (:data:`NO_REVIEW`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.utils.safestring import SafeString

    from games import shapes
    from games.models import Game, Match


@dataclass(frozen=True)
class Review:
    """The game review's answers to games (module docstring)."""

    is_open: Callable[[int], bool]
    """Whether a review of the match (by id) is queued or running."""
    briefs: Callable[[Match], list[shapes.AnalysisBrief]]
    """The match's reviews, deepest first: depth and state."""
    exported: Callable[[Match], shapes.MatchAnalysis | None]
    """The match's deepest done review, for its JSON export."""
    match_summary: Callable[[Match], SafeString | str]
    """The admin's match page: each review's state and figures."""
    game_summary: Callable[[Game], SafeString | str]
    """The admin's game page: each review of its match, with this game's figures."""
    task_path: str = ""
    """The ``task_path`` of a review's job (its worker's time limit is its own)."""
    queue_name: str = ""
    """The task queue reviews run on (its worker runs at a lower CPU priority)."""
    reclaim: Callable[[set[str], datetime], int] = lambda live, now: 0
    """Reclaim the review jobs left RUNNING by a worker not in ``live``; how many."""
    resume: Callable[[], int] = lambda: 0
    """Queue the reviews left queued without a job; how many."""


NO_REVIEW = Review(is_open=lambda match_id: False, briefs=lambda match: [],
                   exported=lambda match: None, match_summary=lambda match: "none",
                   game_summary=lambda game: "none")

_registered: list[Review] = [NO_REVIEW]


def register(review: Review) -> None:
    """Make ``review`` the one games asks (``reviews``' ``AppConfig.ready()``)."""
    _registered[0] = review


def review() -> Review:
    """The registered review (:data:`NO_REVIEW` when none is)."""
    return _registered[0]
