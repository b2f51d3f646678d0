"""Fixtures for playing the computer: the task queue eager or with the real worker."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.dice import planned
from tests.support import Seat

IMMEDIATE = "django_tasks.backends.immediate.ImmediateBackend"
DATABASE = "django_tasks_db.DatabaseBackend"


@pytest.fixture
def immediate_tasks(settings: Any) -> None:
    """Each job runs at once, in the process that enqueued it (after the commit)."""
    settings.TASKS = {"default": {"BACKEND": IMMEDIATE, "QUEUES": ["default"]}}


@pytest.fixture
def seeded_dice() -> Iterator[list[int]]:
    """The server's dice: the values queued in the returned list first, then a seeded
    sequence (never running out, whoever rolls), through ``tests.dice.planned``."""
    rng = random.Random(2026)
    with planned([], then=lambda: rng.randint(1, 6)) as queue:
        yield queue


@pytest.fixture
def database_tasks(settings: Any) -> None:
    """Jobs are rows of the database until :func:`run_worker` runs them."""
    settings.TASKS = {"default": {"BACKEND": DATABASE, "QUEUES": ["default"]}}


def run_worker(max_tasks: int | None = None) -> int:
    """The real worker of ``manage.py db_worker`` in batch mode: every job ready, and
    the jobs they enqueue (at most ``max_tasks``), then it stops. Answers how many jobs
    it ran."""
    from django_tasks_db.management.commands.db_worker import Worker

    worker = Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
                    startup_delay=False, max_tasks=max_tasks, worker_id="test-worker",
                    excluded_queue_names=[])
    worker.run()
    return worker._run_tasks


def my_colour(match: dict[str, Any], seat: Seat) -> str:
    return "white" if match["white"] == seat.user.username else "black"


def may_roll(state: dict[str, Any], colour: str) -> bool:
    """``colour`` rolls now: its roll-off die, or the dice of its turn."""
    if state["phase"] == "roll-off":
        return state["roll_off"][colour] is None
    return state["turn"] == colour and state["phase"] == "roll"


def play_out(seat: Seat, match_id: int, rng: random.Random,
             between: Callable[[], Any] = lambda: None, max_actions: int = 5000,
             ) -> dict[str, Any]:
    """Play ``seat``'s side with random legal steps, one request a step, until the match
    is over; ``between`` runs whenever the other side is to act (the worker, say). Fails
    if the other side does not act then."""
    match = seat.get(match_id)
    me = my_colour(match, seat)
    for _ in range(max_actions):
        if match["status"] != "active":
            return match
        state = match["state"]
        version = match["version"]
        if may_roll(state, me):
            seat.ok(match_id, "roll", {"expected_version": version})
        elif state["turn"] == me and state["phase"] == "move":
            step = rng.choice(state["legal_steps"])
            seat.ok(match_id, "moves", {"steps": [step], "expected_version": version})
        elif state["turn"] == me and state["phase"] == "offer":
            seat.ok(match_id, "accept", {"expected_version": version})
        else:
            between()
            after = seat.get(match_id)
            assert after["version"] > version, ("the computer did not act", state)
        match = seat.get(match_id)
    raise AssertionError("the match did not end")
