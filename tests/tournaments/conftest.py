"""The browser fixtures of tests/web (chromium through Playwright, a page per player),
for the tournaments pages' test."""

from tests.web.conftest import _doorbell_listener_ends, browser, open_page

__all__ = ["_doorbell_listener_ends", "browser", "open_page"]
