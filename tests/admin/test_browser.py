"""A real browser follows the demo match in the admin (Playwright driving Debian's chromium).

``.ci/run`` installs ``/usr/bin/chromium``; the Python package ``playwright`` (pinned in
requirements.lock) brings the driver. No browser is downloaded. Outside CI the test is
skipped when chromium is missing; in CI (``CI`` set) it runs and fails without it.
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from accounts.management.commands.seed_demo import DEMO_ACCOUNTS
from games.management.commands.seed_demo_match import demo_match
from games.selectors import steps_text
from tests.support import CHROMIUM_ARGS


@pytest.mark.django_db(transaction=True)
def test_staff_open_the_demo_game_and_see_its_history_and_board(
        chromium: str, live_server: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        settings: Any):
    # Playwright's sync API runs an event loop in this thread; the live server's own
    # thread does the database work, but keep Django's async guard from tripping here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect, sync_playwright

    settings.DEBUG = True  # seed_demo refuses otherwise
    call_command("seed_demo", "--any-database", stdout=StringIO())
    call_command("seed_demo_match", stdout=StringIO())
    match = demo_match()
    assert match is not None
    game = match.games.filter(mars=True).order_by("number").first()
    turns = list(game.turn_records.order_by("number"))
    username, password = next((name, word) for name, word, staff in DEMO_ACCOUNTS if staff)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(20_000)
            page.goto(f"{live_server.url}/admin/")
            expect(page).to_have_url(re.compile(r"/admin/login/"))
            page.fill("#id_username", username)
            page.fill("#id_password", password)
            page.click("input[type=submit]")
            expect(page.locator("#user-tools")).to_contain_text(username)

            # Matches → the demo match → its mars game, as a staff member would click.
            page.goto(f"{live_server.url}/admin/games/match/")
            row = page.locator("#result_list tbody tr", has_text="demo v rival").filter(
                has_text="Long Nardy")
            expect(row).to_contain_text("4–1")
            row.get_by_role("link", name="demo v rival").click()
            expect(page.locator("#games-group")).to_contain_text("♛ mars")
            page.get_by_role("link", name=f"Game {game.number}", exact=True).click()
            expect(page).to_have_url(re.compile(rf"/admin/games/game/{game.pk}/change/"))

            history = page.locator("#turn-history")
            expect(history).to_be_visible()
            rows = history.locator("tbody tr")
            expect(rows).to_have_count(len(turns))
            expect(rows.first.locator("td.steps")).to_have_text(steps_text(turns[0].steps))
            expect(rows.last.locator("td.position")).to_have_text(turns[-1].position_after)
            expect(history).to_contain_text("pass: no legal move")

            board = page.locator("svg.nard-board")
            expect(board).to_be_visible()
            box = board.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 200, box
            assert board.locator("circle.checker").count() > 0
            expect(board.locator('g.off[data-color="white"]')).to_have_attribute(
                "data-count", "15")
            expect(board.locator('g.off[data-color="black"]')).to_have_attribute(
                "data-count", "0")
            expect(page.locator("#board h2")).to_have_text("Final board")

            rows.first.locator("td.position a").click()
            expect(page.locator("#board h2")).to_have_text("Board after turn 1 (white)")
            expect(board).to_have_attribute("data-position", turns[0].position_after)
            page.screenshot(path=str(tmp_path / "game.png"), full_page=True)
        finally:
            browser.close()
