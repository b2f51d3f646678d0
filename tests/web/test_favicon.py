"""The site's icon: /favicon.ico answers (the admin's pages, which name no icon, made
the browser ask for it and log a 404), and the play page names it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_admin_asks_for_no_missing_icon(browser: Any, live_server: Any) -> None:
    page = browser.new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(f"{live_server.url}/admin/login/")
    icon = page.request.get(f"{live_server.url}/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert b"<svg" in icon.body()
    page.goto(f"{live_server.url}/play/")
    assert page.locator("link[rel=icon]").get_attribute("href") == "/favicon.ico"
    assert not missing, missing
    page.close()
