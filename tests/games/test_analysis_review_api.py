"""POST / GET matches/{id}/analysis/ (permissions, limits, states, results)."""

from __future__ import annotations

import sys

import pytest
from rest_framework.test import APIClient

from computer import field
from games.models import Turn
from reviews import services as review_services
from reviews import tasks as review_tasks
from reviews.models import Analysis
from tests.games.test_record_round_trip import _play_randomly

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_user):
    user = make_user()
    return user, _play_randomly(user, "backgammon", 1)


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_player_queues_it_and_anyone_reads_it_when_done(finished, settings):
    user, match = finished
    answer = _client(user).post(f"/api/v1/matches/{match.pk}/analysis/", {"depth": 0},
                                format="json")
    assert answer.status_code == 202, answer.json()
    body = answer.json()
    assert body["depth"] == 0 and body["games"] is None
    assert body["state"] in ("queued", "done")
    analysis = Analysis.objects.get(match=match, depth=0)
    if analysis.state == "queued":  # the database backend: run the job here
        assert review_tasks.run_analysis(analysis.pk) == "done"
    read = _client().get(f"/api/v1/matches/{match.pk}/analysis/").json()
    assert read["state"] == "done"
    assert read["turns_done"] == read["turns_total"] > 0
    assert [g["game"] for g in read["games"]] == sorted(g.number for g in match.games.all())
    assert all("sides" in g and "turns" in g for g in read["games"])
    # Backgammon: the field engine reviewed where it is installed, with each side's PR.
    engine = "field" if field.available() else "network"
    assert {g["engine"] for g in read["games"]} == {engine}
    for g in read["games"]:
        for s in g["sides"]:
            assert s["pr"] == (s["rating"] if engine == "field" else None)


def test_without_the_field_engine_the_network_reviews_backgammon(finished, monkeypatch):
    """The field engine's import fails (no wheel for the platform): the review is the
    project's network's, says so, and has no PR."""
    user, match = finished
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    monkeypatch.setitem(sys.modules, "bgbot_cpp", None)
    monkeypatch.setitem(sys.modules, "bgsage", None)
    monkeypatch.setitem(sys.modules, "bgsage.analyzer", None)
    monkeypatch.setitem(sys.modules, "bgsage.weights", None)
    field._engine.cache_clear()
    try:
        analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
        assert review_tasks.run_analysis(analysis.pk) == "done"
    finally:
        monkeypatch.undo()
        field._engine.cache_clear()
    read = _client().get(f"/api/v1/matches/{match.pk}/analysis/").json()
    assert {g["engine"] for g in read["games"]} == {"network"}
    assert all(s["pr"] is None for g in read["games"] for s in g["sides"])


def test_refusals_have_stable_codes(finished, make_user):
    user, match = finished
    url = f"/api/v1/matches/{match.pk}/analysis/"
    assert _client(make_user()).post(url, {"depth": 0}, format="json").json()[
        "error"]["code"] == "permission_denied"
    bad = _client(user).post(url, {"depth": 3}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "unknown_depth"
    assert _client().post(url, {}, format="json").status_code in (401, 403)
    assert _client(user).post(url, {"depth": 1}, format="json").status_code == 202
    again = _client(user).post(url, {"depth": 1}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "analysis_exists"
    shallower = _client(user).post(url, {"depth": 0}, format="json")
    assert shallower.json()["error"]["code"] == "analysis_exists"
    missing = _client().get(f"/api/v1/matches/{match.pk}/analysis/?depth=7")
    assert missing.json()["error"]["code"] == "unknown_depth"


def test_a_match_not_over_is_refused(make_user):
    from games import services

    user = make_user()
    match = services.match_create(user=user, length=3, hotseat=True, rules="backgammon")
    answer = _client(user).post(f"/api/v1/matches/{match.pk}/analysis/", {}, format="json")
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "match_not_over"


def test_the_per_account_limit_answers_429(make_user, monkeypatch):
    user = make_user()
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    monkeypatch.setattr(review_services, "MAX_QUEUED", 1)
    first = _play_randomly(user, "backgammon", 1)
    second = _play_randomly(user, "backgammon", 2)
    assert _client(user).post(f"/api/v1/matches/{first.pk}/analysis/", {"depth": 0},
                              format="json").status_code == 202
    refused = _client(user).post(f"/api/v1/matches/{second.pk}/analysis/", {"depth": 0},
                                 format="json")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_analyses"


def test_a_record_that_does_not_replay_fails_whole(finished, monkeypatch):
    user, match = finished
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    game = match.games.order_by("number").first()
    Turn.objects.filter(game=game, number=1).update(steps=[{"from": 1, "to": 0, "die": 6}])
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "failed"
    analysis.refresh_from_db()
    assert analysis.state == "failed" and analysis.results is None
    assert "turn 1" in analysis.error


def test_the_json_export_carries_the_review_once_done(finished, monkeypatch):
    """The analysis in the match export (JSON)."""
    user, match = finished
    url = f"/api/v1/matches/{match.pk}/export/?format=json"
    assert "analysis" not in _client().get(url).json()
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert "analysis" not in _client().get(url).json()  # queued: not yet
    review_tasks.run_analysis(analysis.pk)
    exported = _client().get(url).json()
    assert exported["analysis"]["state"] == "done"
    assert exported["analysis"]["games"] == _client().get(
        f"/api/v1/matches/{match.pk}/analysis/").json()["games"]
