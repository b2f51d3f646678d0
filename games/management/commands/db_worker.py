"""``manage.py db_worker``: django-tasks-db's worker with a lease.

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
- gives its lease up when it stops cleanly (SIGTERM/SIGINT end the loop after the current
  step; the exit is immediate only while it sleeps on the doorbell: :meth:`LeasedWorker.shutdown`);
- sleeps between looks for work on the ``tasks`` doorbell (:mod:`nard_site.doorbell`):
  :func:`games.tasks.ring_the_worker` rings it when a job's row is committed —
  ``NOTIFY`` on PostgreSQL, a Unix datagram on SQLite — so a computer turn is taken at
  once, not at the next poll. ``--interval`` stays as the fallback poll (a ring lost, a
  bell that could not be made).

Game reviews (``reviews.tasks.analyse``) run on their own queue, ``analysis``;
``db_worker --queue-name analysis`` serves it, at the lower CPU priority
``ANALYSIS_WORKER_NICE`` (``os.nice``), so the computer's turns on ``default`` never wait
behind a review nor share the CPU with it equally. A review's job may run
``ANALYSIS_TASK_SECONDS`` before its lease lapses; a review left RUNNING by a dead worker
is queued again (:func:`games.tasks.reclaim`), and one queued without a job is queued
when a worker starts (the review's ``resume``, :mod:`games.review_hooks`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.utils import OperationalError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker as base
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from games import review_hooks, tasks
from nard_site import doorbell

_log = logging.getLogger(__name__)


class LeasedWorker(base.Worker):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._job_started: float | None = None
        self._job_limit = float(settings.WORKER_TASK_SECONDS)
        self._stopped = threading.Event()
        self.bell: doorbell.Bell | None = None
        self.waiting = threading.Event()
        """Set while the worker waits for a ring (the tests' cue to commit a job)."""

    def run(self) -> None:
        try:
            self.bell = doorbell.Bell(tasks.BELL)  # before the first look: no ring lost
        except Exception:
            _log.warning("worker %s: no doorbell; polling every %s s", self.worker_id,
                         self.interval, exc_info=True)
        tasks.renew_lease(self.worker_id)
        tasks.reclaim(own=self.worker_id)
        tasks.resume()
        review_hooks.review().resume()
        beat = threading.Thread(target=self._beat, name=f"lease-{self.worker_id}",
                                daemon=True)
        beat.start()
        try:
            self._loop()
        finally:
            self._stopped.set()
            beat.join()
            if self.bell is not None:
                self.bell.close()
            tasks.end_lease(self.worker_id)

    def _claim(self) -> tuple[DBTaskResult | None, bool]:
        """The next ready job, claimed (as the base worker does); and whether the queue
        could be read (SQLite's lock held elsewhere: try again)."""
        found = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            found = found.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            found = found.exclude(queue_name__in=self.excluded_queue_names)
        with exclusive_transaction(found.db):
            try:
                job = found.get_locked()
                if job is not None:
                    job.claim(self.worker_id)
                return job, True
            except OperationalError as e:
                if is_locked_database_exception(e):
                    return None, False
                raise

    def _loop(self) -> None:
        """The base worker's loop, sleeping on the doorbell instead of ``time.sleep``."""
        base.logger.info("Starting worker worker_id=%s queues=%s", self.worker_id,
                         ",".join(self.queue_names))
        if self.startup_delay and self.interval:
            time.sleep(random.random())  # a thundering herd of restarts
        while self.running:
            close_old_connections()
            job, read = self._claim()
            if job is not None:
                self.run_task(job)
            if self.batch and read and job is None:
                return
            if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                return
            close_old_connections()
            if self.running and job is None:
                self._sleep()

    def _sleep(self) -> None:
        if self.bell is None:
            time.sleep(self.interval)
            return
        self.waiting.set()
        try:
            self.bell.wait(self.interval)
        except Exception:  # the bell's connection lost: poll until a new one is made
            _log.warning("worker %s: the doorbell failed", self.worker_id, exc_info=True)
            self.bell.close()
            self.bell = None
            time.sleep(self.interval)
            with contextlib.suppress(Exception):
                self.bell = doorbell.Bell(tasks.BELL)
        finally:
            self.waiting.clear()

    def shutdown(self, signum: int, frame: Any) -> None:
        """SIGTERM, SIGINT, SIGQUIT: stop after the current step, the lease given up. The
        base worker raises ``SystemExit`` from the handler wherever the main thread is:
        inside SQLite's ``BEGIN EXCLUSIVE`` waiting for the lock, that left the connection
        in a transaction Django did not know of, so the lease's delete failed ("cannot
        start a transaction within a transaction") and the lease stayed. Here the exit is
        raised only while the worker sleeps on the doorbell (no query of its own in
        flight); anywhere else the loop ends at its next check. A second signal forces
        the exit, as before."""
        if not self.running or self.waiting.is_set():
            super().shutdown(signum, frame)  # exits: the second signal, or asleep
            return
        base.logger.warning("Received %s - shutting down after the current step",
                            signal.strsignal(signum))
        self.running = False

    def stop(self) -> None:
        """End the loop after the current job (from another thread)."""
        self.running = False
        doorbell.send(tasks.BELL)

    def run_task(self, db_task_result: DBTaskResult) -> None:
        self._job_limit = float(settings.ANALYSIS_TASK_SECONDS
                                if db_task_result.task_path == review_hooks.review().task_path
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
        reviews_only = queue_names == [review_hooks.review().queue_name]
        if reviews_only and settings.ANALYSIS_WORKER_NICE > 0:
            os.nice(settings.ANALYSIS_WORKER_NICE)  # reviews yield the CPU
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
