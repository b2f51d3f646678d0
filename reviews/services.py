"""Game review requests, and the jobs a lost worker leaves behind.

- :func:`request_analysis`: a match's players and staff ask for a review of the finished
  match at a depth; one per match and depth, never repeated unless asked deeper (a failed
  one may be asked again). Limits, counted under a lock of the account's row (so
  simultaneous requests of one account cannot all pass one count): at most
  :data:`MAX_QUEUED` queued or running per account, ``ANALYSES_QUEUED_PER_ADDRESS`` per
  client address, ``ANALYSES_QUEUED_MAX`` in all, and ``ANALYSIS_TURNS_PER_DAY`` turns
  asked for per account in 24 hours. The job (:func:`reviews.tasks.analyse`) is queued
  after the commit.
- **In what order**: not first come, first served. A job's priority is lower by the
  number of reviews its requester already has queued or running (as the computer's turns
  are, :mod:`games.tasks`), so the worker serves the requesters in turn: everyone's
  first review before anyone's second.
- :func:`requeue_lost`: an analysis whose job died with its worker is queued again
  (:func:`reclaim_lost`, from :func:`games.tasks.reclaim`), or failed for good after
  :data:`MAX_LOST` such losses.
- :func:`resume_analyses`: when a worker starts, every analysis queued without a job is
  queued again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from computer.review import DEPTHS
from games.models import Match, is_over
from games.tasks import WORKER_LOST, take_lost
from nard_site.domain import DomainError
from reviews import tasks
from reviews.models import Analysis

_log = logging.getLogger(__name__)

MAX_QUEUED = 3
"""Analyses one account may have queued or running at once."""

DEFAULT_DEPTH = 2
"""2 plies: within the review's speed target (docs/benchmarks.md, "Game review")."""

MAX_LOST = 2
"""An analysis whose worker died this many times is failed, not queued again."""


def request_analysis(*, match_id: int, user: Any, depth: Any = None,
                     address: str | None = None) -> Analysis:
    """Queue a review of ``match_id`` at ``depth`` for ``user`` asking from ``address``
    (module docstring)."""
    depth = DEFAULT_DEPTH if depth is None else depth
    if isinstance(depth, bool) or not isinstance(depth, int) or depth not in DEPTHS:
        raise DomainError(f"depth must be one of {', '.join(map(str, DEPTHS))}.",
                          code="unknown_depth", details={"depth": ["unknown"]})
    with transaction.atomic():
        # The account first (then the match: always in this order): its limits are
        # counted while no other request of its own can count them.
        User.objects.select_for_update().filter(pk=user.pk).first()
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
        total = sum(g.turn_records.count() for g in match.games.all())
        _check_limits(user=user, address=address, turns=total)
        analysis, _ = Analysis.objects.update_or_create(
            match=match, depth=depth,
            defaults={"state": Analysis.State.QUEUED, "requested_by": user, "error": "",
                      "requested_from": address, "turns_done": 0, "turns_total": total,
                      "results": None, "finished_at": None, "created_at": timezone.now()})
        analysis_id = analysis.pk
        transaction.on_commit(lambda: _enqueue(analysis_id))
    return analysis


def request_background(*, match_id: int, depth: int = 0) -> Analysis | None:
    """Queue a review nobody asked for (the fair-play evidence's): at the worker's lowest
    priority, behind every requested review, counted against no account's limits (its
    caller keeps its own budget). ``None`` when the match is not over or already has a
    review queued, running or done."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not is_over(match.status):
            return None
        if Analysis.objects.filter(match=match).exclude(state=Analysis.State.FAILED).exists():
            return None
        total = sum(g.turn_records.count() for g in match.games.all())
        analysis, _ = Analysis.objects.update_or_create(
            match=match, depth=depth,
            defaults={"state": Analysis.State.QUEUED, "requested_by": None, "error": "",
                      "requested_from": None, "turns_done": 0, "turns_total": total,
                      "results": None, "finished_at": None, "created_at": timezone.now()})
        analysis_id = analysis.pk
        transaction.on_commit(lambda: _enqueue(analysis_id, low=True))
    return analysis


def _check_limits(*, user: Any, address: str | None, turns: int) -> None:
    """Refuse a request over one of the limits (module docstring): ``too_many_analyses``
    (429, ``details.scope``: ``account``, ``address`` or ``everyone``), or
    ``review_budget_spent`` (429) when the account's turns of the last 24 hours and
    these ``turns`` are over ``ANALYSIS_TURNS_PER_DAY``."""
    open_ = Analysis.objects.filter(state__in=Analysis.OPEN)
    queued = open_.filter(requested_by=user).count()
    if queued >= MAX_QUEUED:
        raise DomainError(f"You have {queued} analyses waiting; at most {MAX_QUEUED}.",
                          code="too_many_analyses",
                          details={"limit": MAX_QUEUED, "scope": "account"})
    per_address = settings.ANALYSES_QUEUED_PER_ADDRESS
    if address and open_.filter(requested_from=address).count() >= per_address:
        raise DomainError(f"Your address has {per_address} analyses waiting; at most "
                          f"{per_address}.", code="too_many_analyses",
                          details={"limit": per_address, "scope": "address"})
    if open_.count() >= settings.ANALYSES_QUEUED_MAX:
        raise DomainError("Too many analyses are waiting; ask again later.",
                          code="too_many_analyses",
                          details={"limit": settings.ANALYSES_QUEUED_MAX, "scope": "everyone"})
    since = timezone.now() - timedelta(days=1)
    used = (Analysis.objects.filter(requested_by=user, created_at__gte=since)
            .aggregate(turns=Sum("turns_total"))["turns"] or 0)
    budget = settings.ANALYSIS_TURNS_PER_DAY
    if used + turns > budget:
        raise DomainError(f"Reviews of {budget} turns a day at most; you asked for {used} "
                          f"and this match has {turns}.", code="review_budget_spent",
                          details={"budget": budget, "used": used, "turns": turns})


def priority_for(requester_id: int | None) -> int:
    """The priority of a review's job: one lower for each review its requester already has
    queued or running (the one being queued counted out by the caller's ``- 1``)."""
    if requester_id is None:
        return DEFAULT_TASK_PRIORITY
    ahead = Analysis.objects.filter(requested_by_id=requester_id,
                                    state__in=Analysis.OPEN).count() - 1
    return max(TASK_MIN_PRIORITY, DEFAULT_TASK_PRIORITY - max(ahead, 0))


def _enqueue(analysis_id: int, *, low: bool = False) -> None:
    """Queue ``analysis_id``'s job behind the reviews of requesters with fewer open
    (``low``: behind every requested review)."""
    requester = (Analysis.objects.filter(pk=analysis_id)
                 .values_list("requested_by_id", flat=True).first())
    job = tasks.analyse
    if isinstance(job.get_backend(), DatabaseBackend):
        job = job.using(priority=TASK_MIN_PRIORITY if low else priority_for(requester))
    job.enqueue(analysis_id)


def requeue_lost(analysis_id: int, *, losses: int) -> str:
    """The job running ``analysis_id`` died with its worker (the ``losses``-th time):
    queue it again (``queued``), or fail it after :data:`MAX_LOST` losses (``failed``);
    ``gone`` if it is no longer queued or running."""
    with transaction.atomic():
        analysis = (Analysis.objects.select_for_update(of=("self",)).select_related("match")
                    .filter(pk=analysis_id, state__in=Analysis.OPEN).first())
        if analysis is None:
            return "gone"
        if losses >= MAX_LOST:
            tasks.finish(analysis, Analysis.State.FAILED,
                         error=f"The worker running it stopped {losses} times.")
            return "failed"
        analysis.state = Analysis.State.QUEUED
        analysis.turns_done = 0
        analysis.save(update_fields=["state", "turns_done"])
        transaction.on_commit(lambda: _enqueue(analysis_id))
    return "queued"


def reclaim_lost(live: set[str], now: datetime) -> int:
    """Reclaim each review job left RUNNING by a worker not in ``live``: marked FAILED
    (:func:`games.tasks.take_lost`), its analysis queued again or failed after its
    :data:`MAX_LOST`-th loss (:func:`requeue_lost`). Answers how many."""
    reclaimed = 0
    for job_id, args_kwargs, lost in take_lost(tasks.ANALYSE, live, now):
        reclaimed += 1
        analysis_id = args_kwargs["args"][0]
        losses = DBTaskResult.objects.filter(
            task_path=tasks.ANALYSE, status=TaskResultStatus.FAILED,
            exception_class_path=WORKER_LOST, args_kwargs__args__0=analysis_id).count()
        outcome = requeue_lost(analysis_id, losses=losses)
        _log.warning("reclaimed the review job %s (analysis %s) lost with worker %s: %s",
                     job_id, analysis_id, lost, outcome)
    return reclaimed


def resume_analyses() -> int:
    """Queue again every analysis queued or running without a pending job (its enqueue
    lost with a process killed just after the commit). Answers how many."""
    if not isinstance(tasks.analyse.get_backend(), DatabaseBackend):
        return 0
    jobs = DBTaskResult.objects.filter(
        task_path=tasks.ANALYSE,
        status__in=(TaskResultStatus.READY, TaskResultStatus.RUNNING))
    pending_ids = {args["args"][0] for args in jobs.values_list("args_kwargs", flat=True)}
    queued = 0
    for analysis_id in (Analysis.objects.filter(state__in=Analysis.OPEN)
                        .exclude(pk__in=pending_ids).values_list("pk", flat=True)):
        _enqueue(analysis_id)
        queued += 1
    return queued
