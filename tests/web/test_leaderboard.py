"""In a real chromium: the leaderboard of each rule set (GET leaderboards/{rules}/) from
the top bar, a tab per rule set, each name opening its profile; the signed-in player's
own profile from "Signed in as …"."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from ratings.models import Rating
from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_leaderboard_per_rule_set_and_your_own_profile(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    now = timezone.now() - timedelta(hours=1)
    for name, rating in (("ace", 1820.4), ("bee", 1650.0)):
        user = make_user(name, password=PASSWORD)
        Rating.objects.create(user=user, rules="long_nardy", rating=rating, deviation=60,
                              matches=12, last_played_at=now)
    Rating.objects.create(user=user, rules="backgammon", rating=1700, deviation=70,
                          matches=9, last_played_at=now)
    page = open_page()
    login(page, "bee")
    page.click("#nav-leaderboards")
    table = page.locator("#leaderboard-table[data-rules='long_nardy']")
    expect(table).to_be_visible()
    assert page.locator("#leaderboard-table tbody tr").all_inner_texts() == [
        "1\tace\t1820 ± 60\t12", "2\tbee\t1650 ± 60\t12"]
    expect(page.locator("#leaderboard-table tr.me")).to_have_attribute("data-player", "bee")
    shot(page, "leaderboard")
    page.click("#leaderboard-tabs a[data-rules='backgammon']")
    expect(page.locator("#leaderboard-table[data-rules='backgammon'] tbody tr")).to_have_count(1)
    expect(page.locator("#leaderboard-h")).to_have_text("Leaderboard: Backgammon")
    page.click("#leaderboard-table a:has-text('bee')")
    expect(page.locator("#profile-name")).to_have_text("bee")
    page.goto(page.url.split("#")[0] + "#/")
    page.click("#me-link")
    expect(page.locator("#profile-name")).to_have_text("bee")
