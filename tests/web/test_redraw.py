"""The match page never draws the log ahead of the board and the status, and an answer
that comes back late (the state as it was before what the log already holds) does not
leave the page behind. Playwright on Debian's chromium, as test_browser.py."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from games import services
from nardy import Step
from tests.dice import planned as planned_dice
from tests.web.conftest import elsewhere
from tests.web.test_browser import api_get, settle
from tests.web.test_offers import watched_match

pytestmark = pytest.mark.django_db(transaction=True)

# Every change of the page, as the player sees it: the board's version, the log's turns.
MONITOR = """() => {
  window.__seen = [];
  const note = () => window.__seen.push({
    version: document.querySelector('#board').dataset.version,
    turns: document.querySelectorAll('#log li.turn').length,
    status: document.querySelector('#status').textContent });
  new MutationObserver(note).observe(document.querySelector('#app'),
    { subtree: true, childList: true, attributes: true, characterData: true });
  note();
}"""


def test_a_late_state_never_leaves_the_log_ahead_of_the_board(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """The state read after White's turn comes back as it was before it (a GET that the
    server answered before the turn, arriving after its events): the log, read after
    that state, already holds the turn. The page must not draw the turn in the log
    while the board and the status are those of before it, and must catch up."""
    from playwright.sync_api import expect

    page, alice, _, match_id = watched_match(open_page, make_user)
    before = api_get(page, f"matches/{match_id}/")
    assert (before["state"]["phase"], before["state"]["turn"]) == ("roll", "white")
    stale_version = str(before["state"]["version"])

    served: list[str] = []

    def stale_once(route: Any) -> None:
        if route.request.method == "GET" and not served:
            served.append(route.request.url)
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps(before))
        else:
            route.fallback()

    page.route(re.compile(rf"/api/v1/matches/{match_id}/(\?.*)?$"), stale_once)
    page.evaluate(MONITOR)
    # White's whole turn, made elsewhere (another tab of Alice's): the page hears it live.
    with planned_dice([3, 1]):
        elsewhere(services.match_roll, match_id=match_id, user=alice)
    elsewhere(services.match_move, match_id=match_id, user=alice,
              steps=[Step(24, 21), Step(21, 20)])
    page.wait_for_selector("#log li.turn", timeout=10_000)
    match = settle(page, match_id)   # the board and the status catch up by themselves
    assert (match["state"]["phase"], match["state"]["turn"]) == ("roll", "black")
    expect(page.locator("#status")).to_have_text("Black to roll.")
    expect(page.locator("#log")).to_contain_text("White 3-1: 24/21 21/20")
    assert served, "the late state was never asked for"
    seen = page.evaluate("window.__seen")
    behind = [s for s in seen if s["turns"] and s["version"] == stale_version]
    assert behind == [], behind


def test_an_older_state_never_replaces_a_newer_one(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """Once the page shows White's turn, every state read answers with the state of
    before it (late answers): none of them is drawn, the board stays where it is."""
    page, alice, bob, match_id = watched_match(open_page, make_user)
    before = api_get(page, f"matches/{match_id}/")
    with planned_dice([3, 1]):
        elsewhere(services.match_roll, match_id=match_id, user=alice)
    elsewhere(services.match_move, match_id=match_id, user=alice,
              steps=[Step(24, 21), Step(21, 20)])
    after = settle(page, match_id)
    served: list[str] = []

    def stale(route: Any) -> None:
        if route.request.method == "GET":
            served.append(route.request.url)
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps(before))
        else:
            route.fallback()

    page.route(re.compile(rf"/api/v1/matches/{match_id}/(\?.*)?$"), stale)
    page.evaluate(MONITOR)
    with planned_dice([2, 1]):   # Black's roll: its events make the page read the state
        elsewhere(services.match_roll, match_id=match_id, user=bob)
    page.wait_for_function("n => window.__seen.length > n", arg=1, timeout=10_000)
    page.wait_for_timeout(1000)
    assert served
    seen = page.evaluate("window.__seen")
    assert all(s["version"] == str(after["state"]["version"]) for s in seen), seen
