"""Game review requests and runs (issue 24): who may ask, the limits, the task's work.

- :func:`request_analysis`: a match's players and staff ask for a review of the finished
  match at a depth; one per match and depth, never repeated unless asked deeper (a failed
  one may be asked again); at most :data:`MAX_QUEUED` queued or running per account. The
  task is queued after the commit.
- :func:`run_analysis`: the task's work. Every game's record is replayed first
  (:func:`games.analysis_review.game_inputs`); a record that does not replay makes the
  analysis ``failed`` with the reason, never half done. Its progress is logged on the
  match's log as ``analysis`` events (:func:`games.services.match_log_analysis`): when it
  starts, every :data:`PROGRESS_EVERY` turns, and when it is done or failed; the match's
  stream carries them to its readers.
- :func:`requeue_lost`: an analysis whose job died with its worker is queued again
  (:func:`games.tasks.reclaim`), or failed for good after :data:`MAX_LOST` such losses.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from computer.review import DEPTHS, ReviewError, review_game
from games import services, shapes
from games.analysis_review import game_inputs, match_context
from games.models import Analysis, Match, is_over
from nard_site.domain import DomainError

_log = logging.getLogger(__name__)

MAX_QUEUED = 3
"""Analyses one account may have queued or running at once."""

DEFAULT_DEPTH = 2
"""2 plies: within issue 24's speed target (docs/benchmarks.md, "Game review")."""

PROGRESS_EVERY = 10
"""Turns between two progress writes (and ``analysis`` events)."""

MAX_LOST = 2
"""An analysis whose worker died this many times is failed, not queued again."""

_OPEN = Analysis.OPEN


def analysis_json(analysis: Analysis) -> shapes.MatchAnalysis:
    done = analysis.state == Analysis.State.DONE
    return {"depth": analysis.depth, "state": analysis.state,
            "turns_done": analysis.turns_done, "turns_total": analysis.turns_total,
            "error": analysis.error, "games": analysis.results if done else None}


def request_analysis(*, match_id: int, user: Any, depth: Any = None) -> Analysis:
    """Queue a review of ``match_id`` at ``depth`` for ``user`` (module docstring)."""
    depth = DEFAULT_DEPTH if depth is None else depth
    if isinstance(depth, bool) or not isinstance(depth, int) or depth not in DEPTHS:
        raise DomainError(f"depth must be one of {', '.join(map(str, DEPTHS))}.",
                          code="unknown_depth", details={"depth": ["unknown"]})
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise DomainError("No such match.", code="not_found")
        if not (user.is_staff or user.pk in (match.white_id, match.black_id)):
            raise DomainError("Only the match's players and staff may ask for its review.",
                              code="permission_denied")
        if not is_over(match.status):
            raise DomainError("The match is not over yet.", code="match_not_over")
        existing = list(Analysis.objects.filter(match=match))
        for other in existing:
            if other.state != Analysis.State.FAILED and other.depth >= depth:
                raise DomainError(f"The match has an analysis at {other.depth} plies "
                                  f"({other.state}).", code="analysis_exists",
                                  details={"depth": other.depth, "state": other.state})
        queued = Analysis.objects.filter(requested_by=user, state__in=_OPEN).count()
        if queued >= MAX_QUEUED:
            raise DomainError(f"You have {queued} analyses waiting; at most {MAX_QUEUED}.",
                              code="too_many_analyses", details={"limit": MAX_QUEUED})
        total = sum(g.turn_records.count() for g in match.games.all())
        analysis, _ = Analysis.objects.update_or_create(
            match=match, depth=depth,
            defaults={"state": Analysis.State.QUEUED, "requested_by": user, "error": "",
                      "turns_done": 0, "turns_total": total, "results": None,
                      "finished_at": None})
        analysis_id = analysis.pk
        transaction.on_commit(lambda: _enqueue(analysis_id))
    return analysis


def _enqueue(analysis_id: int) -> None:
    from games import tasks  # tasks imports the services' modules, not the other way round

    tasks.analyse.enqueue(analysis_id)


def latest(match: Match, depth: int | None = None) -> Analysis | None:
    """The match's analysis at ``depth``, else its deepest done one, else its latest."""
    found = Analysis.objects.filter(match=match)
    if depth is not None:
        return found.filter(depth=depth).first()
    return (found.filter(state=Analysis.State.DONE).order_by("-depth").first()
            or found.order_by("-created_at", "-pk").first())


def exported(match: Match) -> shapes.MatchAnalysis | None:
    """The match's deepest done analysis for its JSON export, if it has one."""
    found = Analysis.objects.filter(match=match, state=Analysis.State.DONE).order_by(
        "-depth").first()
    return analysis_json(found) if found is not None else None


def run_analysis(analysis_id: int) -> str:
    """Review every game of the analysis's match; ``done`` or ``failed`` (module docstring)."""
    analysis = Analysis.objects.select_related("match").filter(pk=analysis_id).first()
    if analysis is None or analysis.state not in _OPEN:
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
        mars = match.stakes != "dave"
        for game, turns, decisions, result in inputs:
            def progress(n: int, _total: int, base: int = done) -> None:
                if n % PROGRESS_EVERY == 0:
                    analysis.turns_done = base + n
                    Analysis.objects.filter(pk=analysis_id).update(turns_done=base + n)
                    _announce(analysis)
            review = review_game(match.rules, turns, analysis.depth,
                                 stake_decisions=decisions, result=result, mars=mars,
                                 progress=progress, match=match_context(game))
            done += len(turns)
            results.append({"game": game.number, **review.as_dict()})
    except ReviewError as error:
        _finish(analysis, Analysis.State.FAILED, error=str(error))
        return "failed"
    except Exception:
        _log.exception("analysis %s failed", analysis_id)
        _finish(analysis, Analysis.State.FAILED, error="The analysis failed unexpectedly.")
        raise
    analysis.turns_done = total
    _finish(analysis, Analysis.State.DONE, results=results)
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


def requeue_lost(analysis_id: int, *, losses: int) -> str:
    """The job running ``analysis_id`` died with its worker (the ``losses``-th time):
    queue it again (``queued``), or fail it after :data:`MAX_LOST` losses (``failed``);
    ``gone`` if it is no longer queued or running."""
    with transaction.atomic():
        analysis = (Analysis.objects.select_for_update(of=("self",)).select_related("match")
                    .filter(pk=analysis_id, state__in=_OPEN).first())
        if analysis is None:
            return "gone"
        if losses >= MAX_LOST:
            _finish(analysis, Analysis.State.FAILED,
                    error=f"The worker running it stopped {losses} times.")
            return "failed"
        analysis.state = Analysis.State.QUEUED
        analysis.turns_done = 0
        analysis.save(update_fields=["state", "turns_done"])
        transaction.on_commit(lambda: _enqueue(analysis_id))
    return "queued"


def _finish(analysis: Analysis, state: str, *, error: str = "",
            results: list[dict[str, Any]] | None = None) -> None:
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
