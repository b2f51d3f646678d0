"""The computer's jobs on the real database queue: keyed by match and version, a stale
one does nothing, and a worker that died mid-job loses no bot turn and plays none twice."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import bots, tasks
from games.models import Event, Match, WorkerLease
from games.tasks import bot_turn
from tests.computer_api.conftest import run_worker

pytestmark = pytest.mark.django_db(transaction=True)


def _computer_starts(person: Any, scripted_dice: Any) -> int:
    """A match against ``random`` where the computer won the roll-off (ours 1, then its 6)
    and its first turn is the job now waiting in the queue."""
    scripted_dice(1, 6)
    match_id = person.create(computer="random", color="white").json()["id"]
    assert not DBTaskResult.objects.exists()  # it waits for our roll-off die
    person.ok(match_id, "roll")
    assert run_worker(max_tasks=1) == 1  # its roll-off die; its first turn is queued
    state = person.get(match_id)["state"]
    assert (state["phase"], state["turn"]) == ("roll", "black")
    assert DBTaskResult.objects.ready().count() == 1
    return match_id


def _computer_rolls(match_id: int) -> int:
    return Event.objects.filter(match_id=match_id, type="roll", data__side="black").count()


def test_each_commit_where_the_computer_acts_enqueues_one_job_for_its_version(
        database_tasks: None, seat: Any) -> None:
    person = seat("person")
    match_id = person.create(computer="heuristic", color="white").json()["id"]
    # Its roll-off die waits for ours (docs/fairness.md: our seed must still count).
    assert not DBTaskResult.objects.exists()
    person.ok(match_id, "roll")

    job = DBTaskResult.objects.get()

    assert job.status == "READY"
    assert job.task_path == "games.tasks.bot_turn"
    version = Match.objects.get(pk=match_id).version
    assert job.args_kwargs == {"args": [match_id, version], "kwargs": {"owner": person.user.pk}}


def test_a_match_between_people_enqueues_nothing(database_tasks: None, alice: Any,
                                                bob: Any) -> None:
    match_id = alice.create(opponent="bob").json()["id"]
    bob.ok(match_id, "join")
    alice.ok(match_id, "roll")

    assert DBTaskResult.objects.count() == 0


def test_a_job_for_a_stale_version_does_nothing(database_tasks: None, seat: Any,
                                               scripted_dice: Any) -> None:
    person = seat("person")
    match_id = _computer_starts(person, scripted_dice)
    version = Match.objects.get(pk=match_id).version
    DBTaskResult.objects.all().delete()

    bot_turn.enqueue(match_id, version - 1)
    assert run_worker() == 1

    job = DBTaskResult.objects.get()
    assert (job.status, job.return_value) == ("SUCCESSFUL", "stale")
    assert Match.objects.get(pk=match_id).version == version
    assert _computer_rolls(match_id) == 0
    assert bots.play(match_id, version - 1) == "stale"
    assert Match.objects.get(pk=match_id).version == version


def test_a_restarted_worker_resumes_a_pending_bot_turn_exactly_once(
        database_tasks: None, seat: Any, scripted_dice: Any) -> None:
    person = seat("person")
    match_id = _computer_starts(person, scripted_dice)
    version = Match.objects.get(pk=match_id).version
    # A worker claims the job and dies before it commits anything (it holds no lease).
    lost = DBTaskResult.objects.ready().get()
    lost.claim("worker-that-died")
    assert run_worker() == 0
    assert _computer_rolls(match_id) == 0

    scripted_dice(3, 1)
    earlier = list(DBTaskResult.objects.values_list("id", flat=True))
    call_command("resume_bot_turns", verbosity=0)  # what a worker does when it starts
    call_command("resume_bot_turns", verbosity=0)  # twice: still one job for the version
    assert DBTaskResult.objects.ready().count() == 1
    lost.refresh_from_db()
    assert (lost.status, lost.exception_class_path) == ("FAILED", "games.tasks.WorkerLost")
    run_worker()

    assert _computer_rolls(match_id) == 1
    match = person.get(match_id)
    assert (match["state"]["phase"], match["state"]["turn"]) == ("roll", "white")
    outcomes = sorted(DBTaskResult.objects.exclude(id__in=earlier)
                      .values_list("return_value", flat=True))
    assert outcomes == ["move", "roll"]
    assert match["version"] == version + 2
    # The dead worker's job, run again at last, finds its version used up.
    assert bots.play(match_id, version) == "stale"
    call_command("resume_bot_turns", verbosity=0)
    assert DBTaskResult.objects.ready().count() == 0  # nothing left for the computer
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert _computer_rolls(match_id) == 1


def test_a_job_of_a_worker_with_a_live_lease_is_left_alone(
        database_tasks: None, seat: Any, scripted_dice: Any) -> None:
    """Only a dead worker's jobs are reclaimed — a live one (its lease
    renewed) keeps its job, and one whose lease has lapsed loses it."""
    person = seat("person")
    match_id = _computer_starts(person, scripted_dice)
    job = DBTaskResult.objects.ready().get()
    job.claim("busy-worker")
    tasks.renew_lease("busy-worker")

    assert tasks.reclaim() == 0
    assert tasks.resume() == 0
    assert DBTaskResult.objects.get(pk=job.pk).status == "RUNNING"
    assert not DBTaskResult.objects.ready().exists()

    WorkerLease.objects.update(heartbeat_at=timezone.now() - timedelta(
        seconds=tasks.lease_seconds() + 1))
    assert tasks.reclaim() == 1
    assert DBTaskResult.objects.get(pk=job.pk).status == "FAILED"
    assert DBTaskResult.objects.ready().get().args_kwargs["args"] == [
        match_id, Match.objects.get(pk=match_id).version]


def test_a_worker_starting_again_under_its_id_reclaims_its_own_jobs_at_once(
        database_tasks: None, seat: Any, scripted_dice: Any) -> None:
    person = seat("person")
    _computer_starts(person, scripted_dice)
    job = DBTaskResult.objects.ready().get()
    job.claim("worker-1")
    tasks.renew_lease("worker-1")  # its lease is fresh: it was killed a moment ago

    assert tasks.reclaim() == 0
    assert tasks.reclaim(own="worker-1") == 1
    assert DBTaskResult.objects.ready().count() == 1


def test_the_computers_invitation_is_accepted_by_the_worker(database_tasks: None,
                                                            seat: Any) -> None:
    person = seat("person")
    person.create(computer="random")  # makes the account
    DBTaskResult.objects.all().delete()
    invited = person.create(opponent="computer-random").json()
    assert invited["status"] == "invited"

    run_worker()

    match = person.get(invited["id"])
    assert match["status"] == "active"
    assert match["invited"] == "computer-random"
