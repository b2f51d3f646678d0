"""``manage.py db_worker``: django-tasks-db's worker with a lease (issue 22 item 15).

This command overrides the one of ``django_tasks_db`` (``games`` comes first in
``INSTALLED_APPS``) and takes the same options. Beside the base worker's loop, the worker

- when it starts, reclaims the computer's jobs left RUNNING by dead workers — every one
  whose worker holds no live lease, and every one of its own ``--worker-id`` (it is only
  starting: whatever it ran before died with it) — then queues the computer's action
  wherever it is pending without a job (:func:`games.tasks.reclaim`, :func:`games.tasks.resume`);
- renews its lease every ``WORKER_HEARTBEAT_SECONDS`` from a thread, except while one job
  has run longer than ``WORKER_TASK_SECONDS`` (a stuck job lets its lease lapse, so
  another worker takes the turn over);
- sweeps for dead workers' jobs every ``WORKER_LEASE_SECONDS``, so a second worker
  resumes the turns of one that was killed;
- gives its lease up when it stops cleanly.

Issue 24: game reviews (``games.tasks.analyse``) run on their own queue, ``analysis``;
``db_worker --queue-name analysis`` serves it, at the lower CPU priority
``ANALYSIS_WORKER_NICE`` (``os.nice``), so the computer's turns on ``default`` never wait
behind a review nor share the CPU with it equally. A review's job may run
``ANALYSIS_TASK_SECONDS`` before its lease lapses; a review left RUNNING by a dead worker
is queued again (:func:`games.tasks.reclaim`), and one queued without a job is queued
when a worker starts (:func:`games.tasks.resume_analyses`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker as base
from django_tasks_db.models import DBTaskResult

from games import tasks

_log = logging.getLogger(__name__)


class LeasedWorker(base.Worker):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._job_started: float | None = None
        self._job_limit = float(settings.WORKER_TASK_SECONDS)
        self._stopped = threading.Event()

    def run(self) -> None:
        tasks.renew_lease(self.worker_id)
        tasks.reclaim(own=self.worker_id)
        tasks.resume()
        tasks.resume_analyses()
        beat = threading.Thread(target=self._beat, name=f"lease-{self.worker_id}",
                                daemon=True)
        beat.start()
        try:
            super().run()
        finally:
            self._stopped.set()
            beat.join()
            tasks.end_lease(self.worker_id)

    def run_task(self, db_task_result: DBTaskResult) -> None:
        self._job_limit = float(settings.ANALYSIS_TASK_SECONDS
                                if db_task_result.task_path == tasks.ANALYSE
                                else settings.WORKER_TASK_SECONDS)
        self._job_started = time.monotonic()
        try:
            super().run_task(db_task_result)
        finally:
            self._job_started = None

    def _beat(self) -> None:
        heartbeat = float(settings.WORKER_HEARTBEAT_SECONDS)
        swept = time.monotonic()
        try:
            while not self._stopped.wait(heartbeat):
                try:
                    started = self._job_started
                    if started is None or time.monotonic() - started < self._job_limit:
                        tasks.renew_lease(self.worker_id)
                    if time.monotonic() - swept >= tasks.lease_seconds():
                        swept = time.monotonic()
                        tasks.reclaim()
                except Exception:  # the database away for a moment: try again next beat
                    _log.exception("worker %s: renewing the lease failed", self.worker_id)
                    connections.close_all()
        finally:
            connections.close_all()


class Command(base.Command):
    help = ("Run the task queue's worker (django-tasks-db's, with a lease: it reclaims the "
            "computer's turns of dead workers when it starts and periodically).")

    def handle(self, *, verbosity: int, queue_name: str, interval: float, batch: bool,
               backend_name: str, startup_delay: bool, reload: bool, max_tasks: int | None,
               worker_id: str, exclude_queues: str, **options: Any) -> None:
        self.configure_logging(verbosity)
        if reload and batch:
            reload = False
        queue_names = queue_name.split(",")
        if queue_names == [tasks.ANALYSIS_QUEUE] and settings.ANALYSIS_WORKER_NICE > 0:
            os.nice(settings.ANALYSIS_WORKER_NICE)  # issue 24: reviews yield the CPU
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise base.CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = LeasedWorker(queue_names=queue_names, interval=interval, batch=batch,
                              backend_name=backend_name, startup_delay=startup_delay,
                              max_tasks=max_tasks, worker_id=worker_id,
                              excluded_queue_names=excluded)
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only the reloader's child runs the worker
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
