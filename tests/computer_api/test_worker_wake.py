"""The worker wakes on the commit: with a poll interval of an hour, a
computer turn queued while the worker sleeps is taken at once — the ``tasks`` doorbell
(NOTIFY on PostgreSQL, a Unix datagram on SQLite) rings when the job's row is committed."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult

from games.models import Event
from tests.support import running_worker

pytestmark = pytest.mark.django_db(transaction=True)
BOUND = 30.0  # seconds; the poll interval is 3600: only the ring can wake the worker


def wait_until(what: str, done: Any) -> None:
    deadline = time.monotonic() + BOUND
    while not done():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


def test_a_sleeping_worker_takes_a_queued_turn_at_once(database_tasks: None,
                                                      seat: Any) -> None:
    with running_worker(interval=3600) as worker:
        person = seat("person")
        match_id = person.create(computer="random", color="white").json()["id"]
        person.ok(match_id, "seed", {"seed": "mine"})  # its roll-off die waits for this
        assert DBTaskResult.objects.filter(status="READY").count() <= 1  # its roll-off die

        wait_until("the computer's roll-off die",
                   lambda: Event.objects.filter(match_id=match_id, type="roll_off",
                                                data__side="black").exists())
        wait_until("the job to be recorded done",
                   lambda: DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1)
        wait_until("the worker to sleep again", worker.waiting.is_set)


def test_any_job_of_the_database_queue_rings_the_worker(database_tasks: None) -> None:
    """The ring comes from django-tasks' ``task_enqueued`` signal, not from the computer's
    own queueing: a game review's job (or any other) wakes the worker as well."""
    from games.tasks import bot_turn

    with running_worker(interval=3600):
        bot_turn.enqueue(987654, 1)  # queued directly, as another task would be
        wait_until("the job to be run",
                   lambda: DBTaskResult.objects.filter(status="SUCCESSFUL").exists())
    assert DBTaskResult.objects.get().return_value == "gone"
