"""A game review's job on the task queue, and its work.

:func:`analyse` runs on a queue of its own (:data:`ANALYSIS_QUEUE`, settings ``TASKS``):
its worker never holds up a computer's turn. Its work, :func:`run_analysis`, replays
every game's record first (:func:`reviews.inputs.game_inputs`); a record that does not
replay makes the analysis ``failed`` with the reason, never half done. Its progress is
logged on the match's log as ``analysis`` events (:func:`games.services.match_log_analysis`):
when it starts, every :data:`PROGRESS_EVERY` turns, and when it is done or failed; the
match's stream carries them to its readers.

This module imports no other of the review's modules but its inputs and model:
:mod:`reviews.services` queues the job, so it imports this module, never the other way
round.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from accounts import notices
from accounts.services import notice_create
from computer.review import ReviewError, review_game
from games import services
from nardy.stakes import mars_counts
from reviews.inputs import game_inputs, match_context
from reviews.models import Analysis

_log = logging.getLogger(__name__)

ANALYSE = "reviews.tasks.analyse"
"""The job's ``task_path`` in the queue's table."""
ANALYSIS_QUEUE = "analysis"

PROGRESS_EVERY = 10
"""Turns between two progress writes (and ``analysis`` events)."""


@task(queue_name=ANALYSIS_QUEUE)
def analyse(analysis_id: int) -> str:
    """A game review: :func:`run_analysis`."""
    return run_analysis(analysis_id)


def run_analysis(analysis_id: int) -> str:
    """Review every game of the analysis's match; ``done`` or ``failed`` (module docstring);
    ``gone`` when it is no longer queued or running."""
    analysis = Analysis.objects.select_related("match").filter(pk=analysis_id).first()
    if analysis is None or analysis.state not in Analysis.OPEN:
        return "gone"
    analysis.state = Analysis.State.RUNNING
    analysis.turns_done = 0
    analysis.save(update_fields=["state", "turns_done"])
    match = analysis.match
    try:
        inputs = [(game, *game_inputs(game)) for game in match.games.order_by("number")]
        total = sum(len(turns) for _, turns, _, _ in inputs)
        analysis.turns_total = total
        _announce(analysis)
        done = 0
        results = []
        for game, turns, decisions, result in inputs:
            def progress(n: int, _total: int, base: int = done) -> None:
                if n % PROGRESS_EVERY == 0:
                    analysis.turns_done = base + n
                    Analysis.objects.filter(pk=analysis_id).update(turns_done=base + n)
                    _announce(analysis)
            review = review_game(match.rules, turns, analysis.depth,
                                 stake_decisions=decisions, result=result,
                                 mars=mars_counts(match.stakes), progress=progress,
                                 match=match_context(game))
            done += len(turns)
            results.append({"game": game.number, **review.as_dict()})
    except ReviewError as error:
        finish(analysis, Analysis.State.FAILED, error=str(error))
        return "failed"
    except Exception:
        _log.exception("analysis %s failed", analysis_id)
        finish(analysis, Analysis.State.FAILED, error="The analysis failed unexpectedly.")
        raise
    analysis.turns_done = total
    finish(analysis, Analysis.State.DONE, results=results)
    return "done"


def _announce(analysis: Analysis) -> None:
    """The ``analysis`` event of the analysis as it is now; a failure to log it is logged
    and does not stop the analysis (GET matches/{id}/analysis/ has the same figures)."""
    try:
        services.match_log_analysis(match_id=analysis.match_id, depth=analysis.depth,
                                    state=analysis.state, turns_done=analysis.turns_done,
                                    turns_total=analysis.turns_total)
    except Exception:
        _log.exception("analysis %s: its progress event was not logged", analysis.pk)


def finish(analysis: Analysis, state: str, *, error: str = "",
           results: list[dict[str, Any]] | None = None) -> None:
    """``analysis`` ends ``state`` (done or failed), with its event; done, a
    ``review_finished`` notice to whoever asked for it."""
    analysis.state = state
    analysis.error = error
    analysis.results = results
    analysis.finished_at = timezone.now()
    # The state and its event commit together: a stream that sees the review finished
    # has its last event too (live.streams ends a finished match's stream on both).
    with transaction.atomic():
        analysis.save(update_fields=["state", "error", "results", "finished_at",
                                     "turns_done", "turns_total"])
        _announce(analysis)
        if state == Analysis.State.DONE and analysis.requested_by_id is not None:
            notice_create(recipient=analysis.requested_by_id, kind=notices.REVIEW_FINISHED,
                          data={"match": analysis.match_id, "analysis": analysis.pk})
