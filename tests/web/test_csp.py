"""The play page and the API docs are served with a strict
Content-Security-Policy (``default-src 'self'``, no inline script or style), and work
under it in a real browser: every ``securitypolicyviolation`` event is collected from
the first script on, and there is none — on the lobby, on a board in play, on Swagger UI
with the schema loaded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from nard_site.api.csp import POLICY
from tests.web.conftest import PASSWORD
from tests.web.test_browser import login, match_id_of, press, settle

pytestmark = pytest.mark.django_db(transaction=True)

COLLECT = """window.__violations = [];
document.addEventListener('securitypolicyviolation', e => window.__violations.push(
  `${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`));"""


def violations(page: Any) -> list[str]:
    return list(page.evaluate("() => window.__violations"))


@pytest.mark.parametrize("path", ["/play/", "/api/v1/docs/", "/api/v1/docs/?script="])
def test_the_pages_carry_the_policy(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == POLICY
    assert "default-src 'self'" in POLICY and "unsafe-inline" not in POLICY
    assert "unsafe-eval" not in POLICY


def test_the_api_answers_carry_none() -> None:
    assert "Content-Security-Policy" not in Client().get("/api/v1/health/")


def test_the_play_page_runs_under_its_policy(open_page: Callable[..., Any],
                                             make_user: Callable[..., Any],
                                             seeded_dice: Callable[..., Any]) -> None:
    """The lobby, then a hotseat board with its roll-off and a roll: drawn, no refusal."""
    make_user("strict", password=PASSWORD)
    page = open_page()
    page.add_init_script(COLLECT)
    page.reload()
    login(page, "strict")
    assert violations(page) == []
    page.select_option("#create-mode", "hotseat")
    page.click("#create-submit")
    match_id = match_id_of(page)
    seeded_dice(6, 1, 6, 5)
    settle(page, match_id, hotseat=True)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 6')")
    press(page, "#roll", match_id)
    press(page, "#roll", match_id)
    assert page.locator("#board svg").count() == 1
    assert violations(page) == []


def test_the_api_docs_run_under_their_policy(browser: Any, live_server: Any) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.add_init_script(COLLECT)
    page.goto(f"{live_server.url}/api/v1/docs/")
    page.wait_for_selector(".swagger-ui .opblock-tag", timeout=30_000)  # the schema, drawn
    page.locator(".swagger-ui .opblock-summary").first.click()  # an operation opened
    page.wait_for_selector(".swagger-ui .opblock-body")
    assert violations(page) == []
    assert errors == []
    page.close()
