"""The worker wakes on the commit (issue 23 item 13): with a poll interval of an hour, a
computer turn queued while the worker sleeps is taken at once — the ``tasks`` doorbell
(NOTIFY on PostgreSQL, a Unix datagram on SQLite) rings when the job's row is committed."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connections
from django_tasks_db.models import DBTaskResult

from games.management.commands.db_worker import LeasedWorker
from games.models import Event

pytestmark = pytest.mark.django_db(transaction=True)
BOUND = 30.0  # seconds; the poll interval is 3600: only the ring can wake the worker


def wait_until(what: str, done: Any) -> None:
    deadline = time.monotonic() + BOUND
    while not done():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


def test_a_sleeping_worker_takes_a_queued_turn_at_once(database_tasks: None,
                                                      seat: Any) -> None:
    worker = LeasedWorker(queue_names=["default"], interval=3600, batch=False,
                          backend_name="default", startup_delay=False, max_tasks=None,
                          worker_id="wake-test", excluded_queue_names=[])

    def run() -> None:
        try:
            worker.run()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        wait_until("the worker to go to sleep", worker.waiting.is_set)
        person = seat("person")
        match_id = person.create(computer="random", color="white").json()["id"]
        assert DBTaskResult.objects.filter(status="READY").count() == 1  # its roll-off die

        wait_until("the computer's roll-off die",
                   lambda: Event.objects.filter(match_id=match_id, type="roll_off",
                                                data__side="black").exists())
        wait_until("the job to be recorded done",
                   lambda: DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1)
        wait_until("the worker to sleep again", worker.waiting.is_set)
    finally:
        worker.stop()
        thread.join(BOUND)
    assert not thread.is_alive()
