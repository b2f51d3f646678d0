"""Issue 23 item 4 in a real chromium: with the context offline the page never claims
"live" over a board it cannot read, and when the network returns it re-reads at once
(the `online` event ends the back-off) and shows what happened meanwhile."""

from __future__ import annotations

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
