"""A player's profile page (``#/players/<name>``, profile.js): the game
review's averages per rule set, the ratings, the finished matches with a link to each
game's replay; reached from the lobby's player names. Playwright on Debian's chromium."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ratings.models import Rating
from reviews.models import Analysis
from tests.admin.conftest import resigned_match, short_match
from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import api_get, login

pytestmark = pytest.mark.django_db(transaction=True)


def _side(decisions: int, loss: float, luck: float, blunders: int = 0) -> dict[str, Any]:
    return {"decisions": decisions, "loss": loss, "error_rate": loss / decisions,
            "rating": 500 * loss / decisions, "luck": luck,
            "marks": {"inaccuracy": 1, "mistake": 0, "blunder": blunders}}


def test_the_profile_shows_review_averages_and_links_each_game_replay(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    alice, bob = make_user("alice", password=PASSWORD), make_user("bob")
    reviewed = short_match(alice, bob)
    resigned_match(bob, alice, mars=True)
    Analysis.objects.create(match=reviewed, depth=1, state=Analysis.State.DONE, results=[
        {"game": 1, "sides": [_side(10, 0.4, 0.25, blunders=2), _side(10, 0.1, -0.25)],
         "turns": []}])
    page = open_page()
    login(page, "alice")
    link = page.locator(f'#my-matches .match-row[data-match="{reviewed.pk}"] '
                        'a.player-link', has_text="bob")
    link.click()
    expect(page.locator("#profile-name")).to_have_text("bob")
    assert page.evaluate("location.hash") == "#/players/bob"
    row = page.locator(f'#profile-review tr[data-rules="{reviewed.rules}"]')
    expect(row.locator("td.rating")).to_have_text("5.0")   # 500 × 0.1 / 10 (bob is Black)
    expect(row.locator("td.pr")).to_have_text("—")  # not reviewed by the field engine
    expect(row).to_contain_text("0.0100")
    expect(row).to_contain_text("-0.250")
    history = page.locator("#profile-history .match-row")
    expect(history).to_have_count(2)
    replay = page.locator(f'#profile-history .match-row[data-match="{reviewed.pk}"] '
                          'a.replay-link')
    expect(replay).to_have_attribute("href", f"#/matches/{reviewed.pk}/replay/1")
    expect(page.locator("#profile-ratings")).to_be_visible()
    shot(page, "profile")
    # alice's own profile: her side of the same game, White's
    page.goto(page.url.split("#")[0] + "#/players/alice")
    expect(page.locator("#profile-name")).to_have_text("alice")
    expect(page.locator(f'#profile-review tr[data-rules="{reviewed.rules}"] td.rating')
           ).to_have_text("20.0")


def test_an_unknown_player_is_said_so(open_page: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    page = open_page()
    page.goto(page.url.split("#")[0] + "#/players/nobody-at-all")
    expect(page.locator(".profile")).to_contain_text("No such player.")


def test_the_profile_is_in_russian(open_page: Callable[..., Any],
                                   make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("carol")
    page = open_page()
    page.goto(page.url.split("#")[0] + "?lang=ru#/players/carol")
    expect(page.locator("#profile-review h2")).to_have_text("Средние по разбору партий")
    expect(page.locator("#profile-history")).to_contain_text("Сыгранных матчей пока нет.")


def test_the_profile_on_a_phone_fits_and_explains_without_an_error_box(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """At 390 px the averages' table scrolls inside its card (the page itself never
    wider than the screen); the sentence on what the averages count is a note, not the
    red-edged refusal box; a rating without history draws no empty graph."""
    alice, bob = make_user("alice", password=PASSWORD), make_user("bob")
    reviewed = short_match(alice, bob)
    Analysis.objects.create(match=reviewed, depth=1, state=Analysis.State.DONE, results=[
        {"game": 1, "sides": [_side(10, 0.4, 0.25), _side(10, 0.1, -0.25)], "turns": []}])
    Rating.objects.create(user=alice, rules="backgammon")
    page = open_page(width=390, height=844)
    page.goto(page.url.split("#")[0] + "#/players/alice")
    page.wait_for_selector("#profile-review table")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    card = page.locator("#profile-review").bounding_box()
    assert card and card["x"] >= 0 and card["x"] + card["width"] <= 390, card
    assert page.locator("#profile-review .hint").count() == 0
    assert page.locator("#profile-review .note").count() == 1
    page.wait_for_selector("#profile-ratings p")
    ratings = api_get(page, "accounts/users/alice/ratings/")["ratings"]
    assert any(not r["history"] for r in ratings), ratings
    assert page.locator("#profile-ratings svg.rating-graph").count() == sum(
        1 for r in ratings if r["history"])
