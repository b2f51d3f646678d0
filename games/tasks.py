"""The task queue (django-tasks, database backend; docs/architecture.md, "The computer's
turns"): the computer's job, when it is queued, in what order, and what a lost worker
leaves behind.

- **The job** :func:`bot_turn` is :func:`games.bots.play` for a match at a version: a job
  for a version that is gone does nothing. This module imports :mod:`games.bots`, never
  the other way round.
- **When**: after every committed change (:func:`committed`, the :mod:`games.notify`
  listener) where a built-in computer account may act now.
- **In what order**: not one FIFO. A job's priority is lower by the
  number of computer turns its match's owner (the account that made the match) already
  has queued or running, so the worker (which takes the highest priority first, then the
  oldest) serves the owners in turn: everyone's first pending turn before anyone's
  second. One account playing a hundred matches at once waits for itself, not the others.
- **A lost worker**: ``manage.py db_worker`` (this project's override,
  :mod:`games.management.commands.db_worker`) holds a lease (:class:`WorkerLease`) it
  renews every ``WORKER_HEARTBEAT_SECONDS``. A computer job left RUNNING by a worker
  whose lease is older than ``WORKER_LEASE_SECONDS`` (killed, or stuck in one job for
  more than ``WORKER_TASK_SECONDS``) — or by a worker starting again under the same id —
  is marked FAILED and its match's pending action queued again, once (:func:`reclaim`).
  Every worker does that when it starts and every ``WORKER_LEASE_SECONDS`` after. The
  services' version guard makes the rest safe: if the lost job had committed its action,
  the new one finds the match moved on; two jobs for one version play it once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from games import bots, opponents, review_hooks, store
from games.models import Match, MatchStatus, WorkerLease
from nard_site import doorbell

if TYPE_CHECKING:
    from django.db.models import QuerySet

_log = logging.getLogger(__name__)

BOT_TURN = "games.tasks.bot_turn"
"""The job's ``task_path`` in the queue's table."""
WORKER_LOST = "games.tasks.WorkerLost"
"""The ``exception_class_path`` of a job reclaimed from a dead worker."""

BELL = "tasks"
"""The doorbell (:mod:`nard_site.doorbell`) the worker sleeps on: rung when a job's row is
committed (:func:`ring_the_worker`), so the worker takes it at once rather than at its next
poll."""


@task()
def bot_turn(match_id: int, version: int, owner: int | None = None) -> str:
    """The computer's next action in a match, if the match is still at ``version``
    (:func:`games.bots.play`): a job for a version that is gone does nothing. ``owner``
    (the match's creator) is what :func:`enqueue` schedules by."""
    return bots.play(match_id, version)


# --- queueing, fairly ---------------------------------------------------------------------


def _on_database() -> bool:
    return isinstance(bot_turn.get_backend(), DatabaseBackend)


def pending() -> QuerySet[DBTaskResult]:
    """The computer's jobs not finished yet (READY or RUNNING)."""
    return DBTaskResult.objects.filter(
        task_path=BOT_TURN, status__in=(TaskResultStatus.READY, TaskResultStatus.RUNNING))


def priority_for(owner: int) -> int:
    """The priority of ``owner``'s next job: one lower for each of its jobs pending."""
    queued = pending().filter(args_kwargs__kwargs__owner=owner).count()
    return max(TASK_MIN_PRIORITY, DEFAULT_TASK_PRIORITY - queued)


def enqueue(match: Match) -> None:
    """Queue the computer's next action in ``match`` at its current version, behind the
    pending turns of owners with fewer queued than its own."""
    owner = match.created_by_id
    job = bot_turn.using(priority=priority_for(owner)) if _on_database() else bot_turn
    job.enqueue(match.pk, match.version, owner=owner)


def ring_the_worker(sender: type, **kwargs: object) -> None:
    """The ``task_enqueued`` receiver (connected in ``GamesConfig.ready``): every job of
    the database backend — a computer turn, a game review — rings the worker's doorbell
    once its row is committed."""
    if issubclass(sender, DatabaseBackend):
        doorbell.ring(BELL)


def committed(match: Match, events: object) -> None:
    """The :mod:`games.notify` listener: after each committed change, queue the computer's
    action if one of its accounts may act now."""
    if bots.seat_to_act(match) is not None:
        enqueue(match)


def _has_job(match: Match) -> bool:
    return pending().filter(args_kwargs__args__0=match.pk,
                            args_kwargs__args__1=match.version).exists()


def requeue(match_id: int) -> bool:
    """Queue the computer's action in ``match_id`` if one of its accounts may act now and
    no job is pending for the match's current version. Answers whether it queued one."""
    match = store.read_match(match_id)
    if match is None or bots.seat_to_act(match) is None:
        return False
    if _on_database() and _has_job(match):
        return False
    enqueue(match)
    return True


def resume() -> int:
    """Queue the computer's action in every match where one of its accounts may act now
    and no job is pending for it (run when a worker starts, after :func:`reclaim`: a job
    lost, or an enqueue lost with a process killed just after its commit, is made
    again). Answers how many it queued."""
    bots_ = {"is_bot": True, "username__startswith": opponents.PREFIX}
    seated = (Q(**{f"white__{k}": v for k, v in bots_.items()})
              | Q(**{f"black__{k}": v for k, v in bots_.items()}))
    invited = Q(status=MatchStatus.INVITED) & Q(**{f"invited__{k}": v
                                                   for k, v in bots_.items()})
    ids = (Match.objects.filter((Q(status=MatchStatus.ACTIVE) & seated) | invited)
           .order_by("id").values_list("id", flat=True))
    return sum(requeue(match_id) for match_id in ids.iterator())


# --- leases: what a lost worker leaves behind -------------------------------------------


def lease_seconds() -> float:
    return float(getattr(settings, "WORKER_LEASE_SECONDS", 30))


def renew_lease(worker_id: str) -> None:
    """``worker_id`` is alive now."""
    now = timezone.now()
    WorkerLease.objects.update_or_create(worker_id=worker_id, defaults={"heartbeat_at": now},
                                         create_defaults={"heartbeat_at": now,
                                                          "started_at": now})


def end_lease(worker_id: str) -> None:
    """A worker stopping cleanly gives its lease up."""
    WorkerLease.objects.filter(worker_id=worker_id).delete()


def reclaim(*, own: str | None = None) -> int:
    """Mark FAILED each computer job left RUNNING by a worker without a live lease (or by
    ``own``: the worker starting again under that id, so whatever it ran before died with
    it), and queue its match's pending action again (:func:`requeue`): every computer turn
    a dead worker held is resumed once. Expired leases are deleted (a worker that was only
    slow makes its lease again at its next beat). Answers how many jobs it reclaimed."""
    now = timezone.now()
    expired = now - timedelta(seconds=lease_seconds())
    live = set(WorkerLease.objects.filter(heartbeat_at__gte=expired)
               .values_list("worker_id", flat=True)) - {own}
    reclaimed = 0
    for job_id, args_kwargs, lost in take_lost(BOT_TURN, live, now):
        reclaimed += 1
        match_id = args_kwargs["args"][0]
        _log.warning("reclaimed the computer's job %s (match %s) lost with worker %s",
                     job_id, match_id, lost)
        requeue(match_id)
    reclaimed += review_hooks.review().reclaim(live, now)  # the game reviews' jobs too
    WorkerLease.objects.filter(heartbeat_at__lt=expired).delete()  # (renewed if alive)
    return reclaimed


def take_lost(task_path: str, live: set[str], now: datetime
               ) -> Iterator[tuple[Any, dict[str, Any], str | None]]:
    """Each job of ``task_path`` left RUNNING by a worker not in ``live``, marked FAILED
    here (``WorkerLost``): its id, arguments and lost worker. A job another worker
    reclaims first is skipped."""
    running = DBTaskResult.objects.filter(task_path=task_path,
                                          status=TaskResultStatus.RUNNING)
    for job_id, worker_ids, args_kwargs in running.values_list("id", "worker_ids",
                                                               "args_kwargs"):
        if worker_ids and worker_ids[-1] in live:
            continue
        lost = worker_ids[-1] if worker_ids else None
        if DBTaskResult.objects.filter(pk=job_id, status=TaskResultStatus.RUNNING).update(
                status=TaskResultStatus.FAILED, finished_at=now,
                exception_class_path=WORKER_LOST,
                traceback=f"Reclaimed: worker {lost} stopped renewing its lease."):
            yield job_id, args_kwargs, lost


__all__ = ["BELL", "BOT_TURN", "bot_turn", "committed", "end_lease", "enqueue", "pending",
           "priority_for", "reclaim", "renew_lease", "requeue", "resume", "ring_the_worker",
           "take_lost"]
