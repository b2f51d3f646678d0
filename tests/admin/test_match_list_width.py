"""The match list fits a 1400 px window: no column, "Finished at" the last, is cut off."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin.conftest import resigned_match
from tests.support import CHROMIUM_ARGS


@pytest.mark.django_db(transaction=True)
def test_every_column_of_the_match_list_fits_1400_px(
        chromium: str, live_server: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    for n in range(3):
        resigned_match(make_user(f"white{n}"), make_user(f"black{n}"), mars=bool(n % 2))
    make_user("chief", password="chief-long-secret-1", is_staff=True, is_superuser=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 800})
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", "chief")
        page.fill("#id_password", "chief-long-secret-1")
        page.click("input[type=submit]")
        page.goto(f"{live_server.url}/admin/games/match/")
        box, last = page.evaluate("""() => [
            document.querySelector('#changelist .results').getBoundingClientRect().right,
            document.querySelector('#result_list th.column-finished_at')
                .getBoundingClientRect().right]""")
        browser.close()
    assert last <= box + 0.5, (last, box)
