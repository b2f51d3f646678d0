"""Fixtures for the play page's browser tests: Debian's chromium through Playwright
(the ``chromium`` fixture, tests/conftest.py), seeded server dice, and a logged-in page
per player."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dice import planned
from tests.support import CHROMIUM_ARGS, doorbell_listener_runs

SHOTS = Path(os.environ.get("WEB_SCREENSHOTS", "")) if os.environ.get("WEB_SCREENSHOTS") else None
PASSWORD = "web-nardy-2026"


@pytest.fixture(autouse=True)
def _doorbell_listener_ends() -> Iterator[None]:
    """After the test's browser is closed (its streams ended), the live server's listener
    of the events doorbell (live/transports.py; STREAM_BELL_LINGER is 0 in the tests) ends
    too: on PostgreSQL its LISTEN connection would keep the test database from being
    dropped at the end."""
    yield
    deadline = time.monotonic() + 10
    while doorbell_listener_runs() and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture
def seeded_dice() -> Iterator[Callable[..., list[int]]]:
    """The server's dice: first the values queued with ``seeded_dice(6, 6, ...)``, then a
    seeded random sequence (``tests.dice.planned``). The live server runs in this
    process, so it rolls these."""
    rng = random.Random(16)
    with planned([], then=lambda: rng.randint(1, 6)) as queue:

        def script(*values: int) -> list[int]:
            queue.extend(values)
            return queue

        yield script


@pytest.fixture
def browser(chromium: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the live server's thread
    # does the database work, but keep Django's async guard from tripping here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def open_page(browser: Any, live_server: Any) -> Callable[..., Any]:
    """A new browser context (its own cookies) on the play page, with page errors
    collected: any JavaScript error, or anything the page's Content-Security-Policy
    refused (chromium reports it on the console), fails the test."""
    pages: list[Any] = []

    def make(width: int = 1280, height: int = 900, locale: str | None = None) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      **({"locale": locale} if locale else {}))
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: page.errors.append(message.text)
                if "Content Security Policy" in message.text else None)
        page.goto(f"{live_server.url}/play/")
        pages.append(page)
        return page

    yield make
    for page in pages:
        assert not page.errors, page.errors
        page.context.close()


def shot(page: Any, name: str) -> None:
    """Keep a screenshot when WEB_SCREENSHOTS names a folder (docs/web.md)."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def elsewhere(service: Callable[..., Any], **kwargs: Any) -> Any:
    """Call a gameplay service from the test's thread, as another client would, while
    the page reads through the live server. On SQLite's shared in-memory test database
    a read in flight can make a write fail at once with "database table is locked"
    (no busy wait there): a service is all or nothing, so it is simply called again."""
    from django.db import OperationalError

    for attempt in range(20):
        try:
            return service(**kwargs)
        except OperationalError as error:
            if "locked" not in str(error) or attempt == 19:
                raise
            time.sleep(0.05)
    raise AssertionError("unreachable")
