"""The game review's summary on the admin's match page."""

from __future__ import annotations

import pytest

from reviews import services as review_services
from reviews import tasks as review_tasks
from tests.games.test_record_round_trip import _play_randomly

pytestmark = pytest.mark.django_db


def test_the_match_page_shows_each_sides_rating(staff_client, make_user, monkeypatch):
    user = make_user()
    match = _play_randomly(user, "backgammon", 1)
    page = staff_client.get(f"/admin/games/match/{match.pk}/change/")
    assert page.status_code == 200 and "Game review" in page.content.decode()
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    text = staff_client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "0-ply: done" in text
    assert "White: rating" in text and "Black: rating" in text


def test_the_game_page_shows_that_games_figures(staff_client, make_user, monkeypatch):
    user = make_user()
    match = _play_randomly(user, "backgammon", 1)
    game = match.games.order_by("number").first()
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Game review" in page and "none" in page
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    analysis.refresh_from_db()
    mine = next(g for g in analysis.results if g["game"] == game.number)
    text = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "0-ply: done" in text
    assert f"White: rating {mine['sides'][0]['rating']:.1f}" in text
    assert f"Black: rating {mine['sides'][1]['rating']:.1f}" in text
    assert "luck-adjusted result" in text
