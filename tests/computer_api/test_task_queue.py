"""The computer's jobs on the real database queue: keyed by match and version, a stale
one does nothing, and a worker that died mid-job loses no bot turn and plays none twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from games import bots
from games.models import Event, Match
from games.tasks import bot_turn
from tests.computer_api.conftest import run_worker

pytestmark = pytest.mark.django_db(transaction=True)


def _computer_starts(person: Any, scripted_dice: Any) -> int:
    """A match against ``random`` where the computer won the roll-off (its die 6, ours 1)
    and its first turn is the job now waiting in the queue."""
    scripted_dice(6, 1)
    match_id = person.create(computer="random", color="white").json()["id"]
    assert run_worker() == 1  # its roll-off die
    person.ok(match_id, "roll")
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

    job = DBTaskResult.objects.get()

    assert job.status == "READY"
    assert job.task_path == "games.tasks.bot_turn"
    assert job.args_kwargs == {"args": [match_id, 1], "kwargs": {}}


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
    # A worker claims the job and dies before it commits anything.
    DBTaskResult.objects.ready().get().claim("worker-that-died")
    assert run_worker() == 0
    assert _computer_rolls(match_id) == 0

    scripted_dice(3, 1)
    earlier = list(DBTaskResult.objects.values_list("id", flat=True))
    call_command("resume_bot_turns", verbosity=0)  # the restarted worker's first step
    call_command("resume_bot_turns", verbosity=0)  # twice: two jobs for one version
    assert DBTaskResult.objects.ready().count() == 2
    run_worker()

    assert _computer_rolls(match_id) == 1
    match = person.get(match_id)
    assert (match["state"]["phase"], match["state"]["turn"]) == ("roll", "white")
    outcomes = sorted(DBTaskResult.objects.exclude(id__in=earlier)
                      .values_list("return_value", flat=True))
    assert outcomes == ["move", "roll", "stale"]
    assert match["version"] == version + 2
    # The dead worker's job, run again at last, finds its version used up.
    assert bots.play(match_id, version) == "stale"
    call_command("resume_bot_turns", verbosity=0)
    assert DBTaskResult.objects.ready().count() == 0  # nothing left for the computer
    assert _computer_rolls(match_id) == 1


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
