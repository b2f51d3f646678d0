"""In a real chromium, a match against the computer before its first roll: the computer
waits for the person's roll-off die, so the person's own dice seed counts (sent with that
roll while ``seeds_open``, docs/fairness.md) and the match may still be aborted, with no
result, until then."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD
from tests.web.test_browser import api_get, create, login, settle

pytestmark = pytest.mark.django_db(transaction=True)
IMMEDIATE = "django_tasks.backends.immediate.ImmediateBackend"


def computer_match(page: Any) -> int:
    page.select_option("#create-mode", "computer")
    return create(page, computer="random", color="white", length="1")


def test_the_players_seed_counts_and_abort_is_offered(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        settings: Any) -> None:
    from playwright.sync_api import expect

    settings.TASKS = {"default": {"BACKEND": IMMEDIATE, "QUEUES": ["default"]}}
    make_user("seeder", password=PASSWORD)
    page = open_page()
    login(page, "seeder")

    # A match created by mistake: aborted before the first roll, no result.
    match_id = computer_match(page)
    settle(page, match_id)
    expect(page.locator("#abort")).to_be_visible()
    page.click("#abort")
    page.wait_for_selector("#board[data-status=aborted]")
    assert api_get(page, f"matches/{match_id}/")["status"] == "aborted"

    # Another: the computer has not rolled; our roll-off die carries our seed, which counts.
    page.goto(page.url.split("#")[0] + "#/")
    match_id = computer_match(page)
    match = settle(page, match_id)
    state = match["state"]
    assert state["roll_off"] == {"white": None, "black": None}
    assert state["fairness"]["seeds_open"] is True
    version = page.locator("#board").get_attribute("data-version")
    with page.expect_request(lambda r: r.url.endswith("/roll/") and r.method == "POST") as sent:
        page.click("#roll")
    assert sent.value.post_data_json.get("seed")
    page.wait_for_function("v => document.querySelector('#board').dataset.version !== v",
                           arg=version)
    state = api_get(page, f"matches/{match_id}/")["state"]
    assert state["fairness"]["player_seeds"]["white"] == sent.value.post_data_json["seed"]
    expect(page.locator("#abort")).to_have_count(0)
