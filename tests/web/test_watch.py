"""In a real chromium: #/watch lists the live games (every active
match, with its players, rule set, length and score), from the header's link, and
opening one shows its board to a spectator, live."""

from __future__ import annotations

import pytest

from games import services
from tests.web.conftest import PASSWORD, elsewhere, shot
from tests.web.test_replay import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_watch_list_opens_a_live_match_as_a_spectator(open_page, make_user,
                                                          seeded_dice) -> None:
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD)
    live = services.match_create(user=alice, length=3, opponent="bob", color="white",
                                 rules="backgammon")
    services.match_join(match_id=live.pk, user=bob)
    seeded_dice(5, 2)
    services.match_roll(match_id=live.pk, user=alice)
    waiting = services.match_create(user=alice, length=1)   # an open seek: not live yet
    done = finished_match(make_user, seed=5, username="carol")

    page = open_page()   # nobody logged in: anyone may watch
    page.click("#nav-watch")
    page.wait_for_url("**#/watch")
    row = page.locator(f'#watch-list .watch-row[data-match="{live.pk}"]')
    expect(row).to_be_visible()
    assert page.locator("#watch-list .watch-row").count() == 1
    for other in (waiting, done):
        assert page.locator(f'#watch-list [data-match="{other.pk}"]').count() == 0
    assert row.locator(".watch-title").inner_text().startswith(
        f"#{live.pk} alice v bob · Backgammon · 3 pts")
    assert row.locator(".watch-score").get_attribute("data-score") == "0-0"
    shot(page, "watch")

    row.locator("a[data-watch]").click()
    page.wait_for_url(f"**#/match/{live.pk}")
    page.wait_for_selector('#board svg[data-perspective="white"]')
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=15_000)
    assert page.locator("#roll").count() == 0   # a spectator has no controls
    page.wait_for_selector("#board svg .rolloff-die.white")
    # A player's act arrives on the spectator's board live: Black's roll-off die, 2
    # against White's 5, and White's opening turn plays those dice (H4).
    elsewhere(services.match_roll, match_id=live.pk, user=bob)
    page.wait_for_selector('#board svg g.dice .die[data-value="5"]', timeout=15_000)
    assert page.locator('#board svg g.dice .die[data-value="2"]').count() == 1
