"""The browser fixtures of tests/web (chromium through Playwright, a page per player),
for the tournaments pages' test; and, as for the rating update's own tests, no minimum of
turns for a rated match (``RATED_MIN_TURNS``): the tournaments' tests finish their
matches by resigning at once."""

from typing import Any

import pytest

from tests.web.conftest import _doorbell_listener_ends, browser, open_page


@pytest.fixture(autouse=True)
def rated_without_turns(settings: Any) -> None:
    settings.RATED_MIN_TURNS = 0

__all__ = ["_doorbell_listener_ends", "browser", "open_page"]
