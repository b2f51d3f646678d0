"""Quick pairing in a real chromium: the player who waited is taken to the match the
moment another player's request pairs them (the account stream's ``paired``), with a
notice; the choices (rule set, length, rated or casual, clock) shown on the button and
remembered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import api_get, login, match_id_of, settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_both_players_land_on_the_paired_match(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("waiter", password=PASSWORD)
    make_user("asker", password=PASSWORD)
    first, second = open_page(), open_page()
    login(first, "waiter")
    login(second, "asker")
    first.click("button.pairing")
    expect(first.locator(".pairing-status")).to_contain_text("Waiting")
    second.click("button.pairing")
    match_id = match_id_of(second)
    # The one who waited is on the same match, told so, without a click.
    assert match_id_of(first) == match_id
    settle(first, match_id)
    settle(second, match_id)
    expect(first.locator(".toast").last).to_contain_text("asker")
    assert first.evaluate("() => location.hash") == f"#/match/{match_id}"


def test_the_choices_are_on_the_button_asked_for_and_remembered(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("chooser", password=PASSWORD)
    page = open_page()
    login(page, "chooser")
    expect(page.locator("#pairing")).to_have_text("Quick pairing: Long Nardy · 3 points · rated")
    page.click(".pairing-choices summary")
    page.select_option("#pairing-rules", "backgammon")
    page.select_option("#pairing-length", "5")
    page.select_option("#pairing-rated", "false")
    page.select_option("#pairing-turn_seconds", "60")
    wanted = "Quick pairing: Backgammon · 5 points · casual · 1 min a turn"
    expect(page.locator("#pairing")).to_have_text(wanted)
    shot(page, "quick-pairing")
    page.reload()
    expect(page.locator("#pairing")).to_have_text(wanted)
    page.click("#pairing")
    expect(page.locator("#pairing")).to_have_text("Stop waiting")
    options = api_get(page, "pairing/")["options"]
    assert (options["rules"], options["length"], options["rated"], options["turn_seconds"]) \
        == ("backgammon", 5, False, 60)
    page.click("#pairing")
    expect(page.locator("#pairing")).to_have_text(wanted)
    assert api_get(page, "pairing/")["state"] == "idle"
