"""The match list fits a 1400 px window: no column, "Finished at" the last, is cut off,
with the computer's long account names and every rule set in it."""

from __future__ import annotations

import os
from typing import Any

import pytest

from games.models import Match
from tests.admin.conftest import resigned_match
from tests.admin.test_rule_sets import active_match
from tests.support import CHROMIUM_ARGS


@pytest.mark.django_db(transaction=True)
def test_every_column_of_the_match_list_fits_1400_px(
        chromium: str, live_server: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    for n in range(3):
        resigned_match(make_user(f"white{n}"), make_user(f"black{n}"), mars=bool(n % 2))
    # What a real list holds: the computer's long account names as winners, every rule
    # set, a two-digit score.
    demo = make_user("demo")
    heuristic, expert = make_user("computer-heuristic"), make_user("computer-expert")
    resigned_match(demo, heuristic, mars=True)
    won = resigned_match(heuristic, demo, mars=False)
    Match.objects.filter(pk=won.pk).update(score_white=96)
    for rules in ("short_nardy", "backgammon", "nard"):
        active_match(expert, demo, rules)
    make_user("chief", password="chief-long-secret-1", is_staff=True, is_superuser=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 800})
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", "chief")
        page.fill("#id_password", "chief-long-secret-1")
        page.click("input[type=submit]")
        page.goto(f"{live_server.url}/admin/games/match/")
        if os.environ.get("WEB_SCREENSHOTS"):
            page.screenshot(path=os.path.join(os.environ["WEB_SCREENSHOTS"],
                                              "admin-match-list.png"), full_page=True)
        box, last = page.evaluate("""() => [
            document.querySelector('#changelist .results').getBoundingClientRect().right,
            document.querySelector('#result_list th.column-finished')
                .getBoundingClientRect().right]""")
        browser.close()
    assert last <= box + 0.5, (last, box)
