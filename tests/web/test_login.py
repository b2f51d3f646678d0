"""In a real chromium, the log-in form under impatient hands: a double click sends one
request (the button is disabled while it is in flight), and a wrong password always
says so — never hidden behind "too many passwords at once"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_double_click_sends_one_request_and_a_wrong_password_says_so(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("hasty", password=PASSWORD)
    page = open_page()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.method)
            if r.url.endswith("/play/session/") and r.method == "POST" else None)
    button = page.locator("#login-form button[type=submit]")
    for attempt in range(2):
        page.fill("#login-form [name=username]", "hasty")
        page.fill("#login-form [name=password]", "not the password")
        button.dblclick()
        error = page.locator("#login-form .form-error")
        expect(error).to_have_text("Invalid username or password.")
        expect(button).to_be_enabled()
        assert len(sent) == attempt + 1, sent
    # Disabled while in flight: the right password, and the button is off until the answer.
    page.fill("#login-form [name=password]", PASSWORD)
    page.evaluate("""() => { window.__states = [];
        new MutationObserver(() => window.__states.push(
          document.querySelector('#login-form button[type=submit]')?.disabled))
          .observe(document.querySelector('#login-form'), {attributes: true, subtree: true}); }""")
    button.click()
    page.wait_for_selector("#create-form")
    assert True in page.evaluate("() => window.__states")
