"""A finished game review is a notice to whoever asked for it."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from reviews import tasks as review_tasks
from reviews.models import Analysis
from tests.games.test_record_round_trip import _play_randomly
from tests.support import API

pytestmark = pytest.mark.django_db


def test_the_asker_gets_a_review_finished_notice(make_user: Any) -> None:
    user = make_user()
    match = _play_randomly(user, "backgammon", 1)
    client = APIClient()
    client.force_authenticate(user)
    assert client.post(f"{API}/matches/{match.pk}/analysis/", {"depth": 0},
                       format="json").status_code == 202
    analysis = Analysis.objects.get(match=match, depth=0)
    if analysis.state == "queued":  # the database backend: run the job here
        assert review_tasks.run_analysis(analysis.pk) == "done"
    listed = client.get(f"{API}/accounts/me/notifications/").json()
    assert listed["unread"] == 1
    assert [(n["kind"], n["data"]) for n in listed["results"]] == [
        ("review_finished", {"match": match.pk, "analysis": analysis.pk})]
