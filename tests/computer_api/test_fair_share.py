"""The server's computer is shared fairly — a cap of unfinished
matches against it per account, its turns served owner by owner rather than in one FIFO,
no clock running against it while its turn waits on the queue — and the ``random``
level's choices cannot be predicted from public values."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from games import bots, services
from games.models import Match
from tests.computer_api.conftest import run_worker
from tests.support import assert_error

pytestmark = pytest.mark.django_db(transaction=True)


def test_unfinished_computer_matches_are_capped_per_account(database_tasks: None, seat: Any,
                                                           settings: Any) -> None:
    settings.COMPUTER_MATCHES_PER_ACCOUNT = 2
    person, other = seat("person"), seat("other")
    first = person.create(computer="random").json()["id"]
    person.create(computer="heuristic")

    refused = person.create(computer="random")
    assert_error(refused, 409, "too_many_computer_matches", limit=2)
    person.create()  # an open seek and hotseat matches are not the computer's
    assert_error(person.create(opponent="computer-random"), 409, "too_many_computer_matches")
    assert Match.objects.filter(created_by=person.user).count() == 3
    assert other.create(computer="random").status_code == 201  # per account

    person.ok(first, "abort")  # finished (aborted before its first roll): a seat is free
    assert person.create(computer="random").status_code == 201


def test_the_computers_turns_are_served_owner_by_owner(database_tasks: None,
                                                       seat: Any) -> None:
    """Not one FIFO: an account with three turns queued before another's one gets its
    first served, then the other's, then its second."""
    hog, other = seat("hog"), seat("other")
    hogs = [hog.create(computer="random").json()["id"] for _ in range(3)]
    mine = other.create(computer="random").json()["id"]
    for match_id in hogs:   # the computer rolls its roll-off die after the person's
        hog.ok(match_id, "roll")
    other.ok(mine, "roll")
    jobs = {job.args_kwargs["args"][0]: job.priority for job in DBTaskResult.objects.all()}
    assert [jobs[m] for m in hogs] == [0, -1, -2] and jobs[mine] == 0

    worker = Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
                    startup_delay=False, max_tasks=2, worker_id="test-worker",
                    excluded_queue_names=[])
    worker.run()

    served = {job.args_kwargs["args"][0]
              for job in DBTaskResult.objects.filter(status="SUCCESSFUL")}
    assert served == {hogs[0], mine}


def test_the_clock_never_runs_against_the_computer(database_tasks: None, seat: Any,
                                                   scripted_dice: Any) -> None:
    """While the computer's turn waits on the queue (the worker down here) its side has no
    deadline: the person cannot claim it, the sweep does not settle it; the clock starts
    again, whole, when the computer has acted."""
    person = seat("person")
    scripted_dice(1, 6, 3, 1)
    match_id = person.create(computer="random", color="white", turn_seconds=30).json()["id"]
    person.ok(match_id, "roll")  # our roll-off die (1); the computer's waits on the queue
    assert person.get(match_id)["state"]["deadline"] is None
    assert Match.objects.get(pk=match_id).deadline is None

    # A deadline set before this rule, long past: still neither claimable nor abandoned.
    Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(days=3))
    assert_error(person.post(match_id, "claim", {}), 409, "wrong_phase", reason="not_late")
    assert services.clocks_sweep().settled == ()
    assert Match.objects.get(pk=match_id).status == "active"

    before = timezone.now()
    run_worker()  # its die (6), then its turn (3-1): our roll is next
    state = person.get(match_id)["state"]
    assert (state["phase"], state["turn"]) == ("roll", "white")
    deadline = Match.objects.get(pk=match_id).deadline
    assert deadline is not None and deadline >= before + timedelta(seconds=30)


def test_the_random_levels_source_is_secret(settings: Any) -> None:
    """The decisions' random source is keyed with SECRET_KEY — the same
    for a job run again, but not computable from the public match id and version."""
    first = [bots.decision_rng(7, 3).random() for _ in range(2)]
    assert first[0] == first[1]
    assert first[0] != random.Random("7:3").random()  # the public seed it had
    assert bots.decision_rng(7, 4).random() != first[0]
    settings.SECRET_KEY = "another secret key, of another server, long enough to pass"
    assert bots.decision_rng(7, 3).random() != first[0]
