"""A game review's progress on the match's log (``analysis`` events),
its own task queue, and the reclaim of a review whose worker died."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from games import tasks
from games.models import Event, Match, WorkerLease
from reviews import services as review_services
from reviews import tasks as review_tasks
from reviews.models import Analysis
from tests.games.test_record_round_trip import _play_randomly

pytestmark = pytest.mark.django_db
DATABASE = "django_tasks_db.DatabaseBackend"


@pytest.fixture
def database_tasks(settings):
    settings.TASKS = {"default": {"BACKEND": DATABASE, "QUEUES": ["default", "analysis"]}}


@pytest.fixture
def finished(make_user):
    user = make_user()
    return user, _play_randomly(user, "backgammon", 1)


def _ask(user, match, depth=0):
    answer = APIClient()
    answer.force_authenticate(user)
    with TestCase.captureOnCommitCallbacks(execute=True):  # the enqueue, after the commit
        response = answer.post(f"/api/v1/matches/{match.pk}/analysis/", {"depth": depth},
                               format="json")
    assert response.status_code == 202, response.json()
    return Analysis.objects.get(match=match, depth=depth)


def test_a_run_logs_its_progress_on_the_match_log(database_tasks, finished):
    user, match = finished
    version = Match.objects.get(pk=match.pk).version
    analysis = _ask(user, match)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    analysis.refresh_from_db()
    events = list(Event.objects.filter(match=match, type="analysis").order_by("seq"))
    data = [e.data for e in events]
    assert data[0] == {"depth": 0, "state": "running", "turns_done": 0,
                       "turns_total": analysis.turns_total}
    assert data[-1] == {"depth": 0, "state": "done", "turns_done": analysis.turns_total,
                        "turns_total": analysis.turns_total}
    middle = [d["turns_done"] for d in data[1:-1]]
    assert middle and middle == sorted(set(middle))  # rising, every PROGRESS_EVERY turns
    assert 0 < middle[0] <= review_tasks.PROGRESS_EVERY
    assert middle[-1] <= analysis.turns_total
    assert all(d["state"] == "running" for d in data[1:-1])
    seqs = [e.seq for e in Event.objects.filter(match=match).order_by("seq")]
    assert seqs == list(range(1, len(seqs) + 1))  # numbered without gaps
    assert Match.objects.get(pk=match.pk).version == version  # quiet: no version bump
    stream = APIClient().get(f"/api/v1/matches/{match.pk}/events/?after={events[0].seq - 1}")
    assert stream.status_code == 200
    body = stream.json()
    listed = body["results"] if isinstance(body, dict) else body
    assert [e["type"] for e in listed][:1] == ["analysis"]


def test_a_failed_review_says_so_on_the_log(database_tasks, finished, monkeypatch):
    user, match = finished
    analysis = _ask(user, match)

    def broken(game):
        raise review_tasks.ReviewError("turn 3 does not replay")

    monkeypatch.setattr(review_tasks, "game_inputs", broken)
    assert review_tasks.run_analysis(analysis.pk) == "failed"
    last = Event.objects.filter(match=match, type="analysis").order_by("seq").last()
    assert last is not None and last.data["state"] == "failed"


def test_reviews_have_their_own_queue(database_tasks, finished):
    user, match = finished
    _ask(user, match)
    job = DBTaskResult.objects.get(task_path=review_tasks.ANALYSE)
    assert job.queue_name == review_tasks.ANALYSIS_QUEUE == "analysis"
    assert not DBTaskResult.objects.filter(queue_name="default").exists()


def test_a_review_lost_with_its_worker_is_queued_again_then_failed(database_tasks, finished):
    user, match = finished
    analysis = _ask(user, match)
    job = DBTaskResult.objects.get(task_path=review_tasks.ANALYSE)
    job.claim("analysis-worker")
    tasks.renew_lease("analysis-worker")
    Analysis.objects.filter(pk=analysis.pk).update(state=Analysis.State.RUNNING, turns_done=30)
    assert tasks.reclaim() == 0  # its worker is alive

    WorkerLease.objects.update(heartbeat_at=timezone.now() - timedelta(
        seconds=tasks.lease_seconds() + 1))
    with TestCase.captureOnCommitCallbacks(execute=True):  # queued again after the commit
        assert tasks.reclaim() == 1
    assert DBTaskResult.objects.get(pk=job.pk).status == "FAILED"
    analysis.refresh_from_db()
    assert (analysis.state, analysis.turns_done) == (Analysis.State.QUEUED, 0)
    again = DBTaskResult.objects.get(task_path=review_tasks.ANALYSE, status="READY")
    assert again.args_kwargs["args"] == [analysis.pk]

    again.claim("analysis-worker-2")  # ... and that worker dies too: failed for good
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert tasks.reclaim() == 1
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.FAILED
    assert "stopped 2 times" in analysis.error
    assert not DBTaskResult.objects.filter(task_path=review_tasks.ANALYSE, status="READY").exists()


def test_an_analysis_without_a_job_is_queued_when_a_worker_starts(database_tasks, finished):
    user, match = finished
    analysis = _ask(user, match)
    DBTaskResult.objects.all().delete()  # the enqueue was lost
    assert review_services.resume_analyses() == 1
    assert DBTaskResult.objects.get(task_path=review_tasks.ANALYSE).args_kwargs["args"] == [
        analysis.pk]
    assert review_services.resume_analyses() == 0
