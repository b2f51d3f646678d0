"""In a real chromium: with the context offline the page never claims
"live" over a board it cannot read, and when the network returns it re-reads at once
(the `online` event ends the back-off) and shows what happened meanwhile."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from games import services
from tests.web.conftest import PASSWORD, elsewhere
from tests.web.test_browser import login, settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_offline_says_reconnecting_and_online_rereads_at_once(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD)
    page = open_page()
    login(page, "alice")
    match_id = elsewhere(services.match_create, user=alice, length=1, opponent="bob",
                         color="white").pk
    elsewhere(services.match_join, match_id=match_id, user=bob)
    page.goto(page.url.split("#")[0] + f"#/match/{match_id}")
    settle(page, match_id)
    page.wait_for_selector("#live[data-state=live]")
    seeded_dice(2, 6, 6, 5)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 2')")
    elsewhere(services.match_roll, match_id=match_id, user=bob)   # Black starts

    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_attribute("data-state", "reconnecting")
    expect(page.locator("#live")).to_have_text("reconnecting…")
    elsewhere(services.match_roll, match_id=match_id, user=bob)
    elsewhere(services.match_move, match_id=match_id, user=bob,
              steps=[nardy_step(24, 18, 6), nardy_step(18, 13, 5)])
    page.wait_for_timeout(3000)   # reads fail meanwhile: never "live"
    assert page.locator("#live").get_attribute("data-state") == "reconnecting"

    page.context.set_offline(False)
    back = time.monotonic()
    # Black's 24/18 18/13 ends on White's 1 (R2): drawn without a reload.
    page.wait_for_selector('#board svg [data-key="p1"][data-count="1"][data-colour="black"]')
    print(f"caught up {time.monotonic() - back:.2f} s after the network returned")
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    match = settle(page, match_id)
    assert (match["state"]["turn"], match["state"]["phase"]) == ("white", "roll")


def nardy_step(src: int, dst: int, die: int) -> Any:
    from nardy import Step

    return Step(src, dst, die)


def test_an_answer_begun_before_the_cut_never_says_live(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """The flaky "● live (polling)" of test_two_players_see_each_other_live: a read of the
    match begun before the network went away and answered after it cleared the failure,
    and the polling channel, between two polls, still said "live"."""
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD)
    page = open_page()
    page.add_init_script("window.__nardNoStream = true")   # the polling channel
    polls: list[Any] = []

    def poll(route: Any) -> None:
        # The first poll answered at once and empty: the page polls plainly (a server
        # that does not hold `wait`); the second is held, as if slow to answer.
        if "wait=" not in route.request.url or len(polls) >= 2:
            route.continue_()
        else:
            polls.append(route)
            if len(polls) == 1:
                route.fulfill(json=[])

    page.route(re.compile(r"/events/\?"), poll)
    login(page, "alice")
    match_id = elsewhere(services.match_create, user=alice, length=1, opponent="bob",
                         color="white").pk
    elsewhere(services.match_join, match_id=match_id, user=bob)
    page.goto(page.url.split("#")[0] + f"#/match/{match_id}")
    page.reload()
    match = settle(page, match_id)
    page.wait_for_selector("#live[data-state=live]")
    deadline = time.monotonic() + 10
    while len(polls) < 2:   # the second poll is in flight, held
        assert time.monotonic() < deadline, "the page never polled again"
        page.wait_for_timeout(50)

    # A read of the match, held by the test after the server answered it.
    held: list[Any] = []

    def hold(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(f"**/api/v1/matches/{match_id}/", hold)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")   # reads at once
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the page never read the match"
        page.wait_for_timeout(50)

    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_attribute("data-state", "reconnecting")
    # The held answer arrives now, marked so its drawing can be seen (a later version).
    route, response = held[0]
    body = response.json()
    body["state"]["version"] = version = match["state"]["version"] + 1000
    route.fulfill(response=response, json=body)
    page.wait_for_selector(f"#board[data-version='{version}']")
    expect(page.locator("#live")).to_have_text("reconnecting…")
    assert page.locator("#live").get_attribute("data-state") == "reconnecting"

    page.context.set_offline(False)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")


def test_a_quiet_match_says_live_at_once_on_the_long_poll(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    """Without a stream the first long poll of a finished match is held for its whole
    `wait` (25 s) with nothing to say: "connecting…" all that time. The first read (and
    the first after a failure) answers at once instead."""
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD)
    match_id = elsewhere(services.match_create, user=alice, length=1, opponent="bob",
                         color="white").pk
    elsewhere(services.match_join, match_id=match_id, user=bob)
    seeded_dice(6, 1)
    elsewhere(services.match_roll, match_id=match_id, user=alice)
    elsewhere(services.match_roll, match_id=match_id, user=bob)
    elsewhere(services.match_resign, match_id=match_id, user=bob)
    page = open_page()
    page.add_init_script("window.__nardNoStream = true")
    held: list[Any] = []   # long polls held, as the ASGI server holds them (no events)
    page.route(re.compile(r"/events/\?.*wait="), lambda route: held.append(route))
    login(page, "alice")
    page.goto(page.url.split("#")[0] + f"#/match/{match_id}")
    page.reload()
    assert settle(page, match_id)["status"] == "finished"
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=10_000)
