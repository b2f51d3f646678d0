"""Issue 23 item 10 on the play page: the computer's answers shown however fast they come,
a roll-off against it without a conflict, its levels in Russian, and the registration's
field errors beside the fields. The computer plays through the real worker
(games/management/commands/db_worker.py) in a thread of the test, woken by the doorbell:
its answers come within milliseconds, as on command 1. Playwright on Debian's chromium."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connections

from games import services
from games.dice import planned as planned_dice
from tests.web.conftest import PASSWORD, elsewhere, shot
from tests.web.test_browser import login, settle

pytestmark = pytest.mark.django_db(transaction=True)
DATABASE = "django_tasks_db.DatabaseBackend"


@pytest.fixture
def worker(settings: Any) -> Iterator[Any]:
    """The task queue's worker, in a thread, sleeping on the doorbell (interval: 1 h)."""
    from games.management.commands.db_worker import LeasedWorker

    settings.TASKS = {"default": {"BACKEND": DATABASE, "QUEUES": ["default"]}}
    found = LeasedWorker(queue_names=["default"], interval=3600, batch=False,
                         backend_name="default", startup_delay=False, max_tasks=None,
                         worker_id="web-test", excluded_queue_names=[])

    def run() -> None:
        try:
            found.run()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not found.waiting.is_set():
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.02)
    yield found
    found.stop()
    thread.join(30)


def writes(page: Any) -> list[tuple[str, int]]:
    """Every answer to a write of the page (method, path, status), from now on."""
    seen: list[tuple[str, int]] = []
    page.on("response", lambda r: seen.append((r.url, r.status))
            if r.request.method == "POST" else None)
    return seen


def computer_match(open_page: Callable[..., Any], make_user: Callable[..., Any], **create: Any
                   ) -> tuple[Any, int]:
    alice = make_user("alice", password=PASSWORD)
    match = elsewhere(services.match_create, user=alice, length=3, computer="heuristic",
                      color="white", **create)
    page = open_page()
    login(page, "alice")
    page.goto(page.url.split("#")[0] + f"#/match/{match.pk}")
    page.wait_for_selector("#live[data-state=live]")
    return page, match.pk


def test_the_computers_instant_accept_of_a_double_is_shown(
        worker: Any, open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    with planned_dice([1, 6]):  # the computer's roll-off die 1 (it rolls at once), ours 6
        page, match_id = computer_match(open_page, make_user, stakes="cube")
        page.click("#roll")
        page.wait_for_selector("#offer")
    settle(page, match_id)
    page.click("#offer")
    expect(page.locator("#notice")).to_have_text(
        "The computer accepts your raise: the stake is now 2.")
    expect(page.locator("#notice")).to_have_attribute("data-answer", "accept")
    expect(page.locator("#stake")).to_contain_text("2")
    shot(page, "computer-accepts")


def test_a_roll_off_against_the_computer_has_no_conflict(
        worker: Any, open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    # Three ties (the computer rolls again at once after each: its die first, or ours,
    # whichever comes first), then 6-1.
    with planned_dice([3, 3, 5, 5, 2, 2, 6, 6, 1, 1, 4, 4, 5, 5, 2, 2, 3, 3]):
        page, match_id = computer_match(open_page, make_user)
        answers = writes(page)
        for _ in range(4):
            page.wait_for_selector("#roll")
            page.click("#roll")
            page.wait_for_function("() => !document.querySelector('#roll')"
                                   " || document.querySelector('#roll').disabled === false")
        expect(page.locator("#status")).not_to_contain_text("roll-off", timeout=15_000)
    rolls = [status for url, status in answers if url.endswith("/roll/")]
    assert rolls and all(status == 200 for status in rolls), answers
    assert not page.locator(".toast", has_text="moved on").count()
