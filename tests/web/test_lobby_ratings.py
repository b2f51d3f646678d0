"""The lobby's "Your ratings" in a real chromium, as a player sees it: each rule set by
its title (never its API name) and its history a small graph, not one the page's width."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from games import services
from ratings.models import Rating, RatingChange
from tests.web.conftest import PASSWORD
from tests.web.test_browser import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_ratings_are_titled_and_their_graphs_small(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    user = make_user("rated", password=PASSWORD)
    Rating.objects.create(user=user, rules="long_nardy", matches=1)
    # One rated match in its history (a graph is drawn only for a history).
    match = services.match_create(user=user, length=1, hotseat=True)
    RatingChange.objects.create(user=user, rules="long_nardy", match=match,
                                opponent=make_user("opponent"), score=1, rating_before=1500,
                                deviation_before=350, rating_after=1662,
                                deviation_after=290, at=timezone.now())
    Rating.objects.create(user=user, rules="backgammon", matches=0)
    page = open_page()
    login(page, "rated")
    line = page.locator(".ratings p").first
    expect(line).to_contain_text("Long Nardy: 1")
    assert "long_nardy" not in page.inner_text(".ratings")
    graph = page.locator(".ratings svg.rating-graph").first.bounding_box()
    assert graph and graph["height"] <= 100 and graph["width"] <= 400, graph
    # A rule set without a history has no graph, nor an empty gap where one would be.
    expect(page.locator(".ratings p", has_text="Backgammon")).to_be_visible()
    assert page.locator(".ratings svg.rating-graph").count() == 1
