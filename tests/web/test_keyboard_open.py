"""From the lobby: a match created by keyboard opens with the focus on
Roll (before, on the page's body: Tabs through the top bar first), and Enter rolls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD
from tests.web.test_browser import login, match_id_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_match_created_by_keyboard_starts_on_roll(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    make_user("keys", password=PASSWORD)
    page = open_page()
    login(page, "keys")
    page.select_option("#create-mode", "hotseat")
    page.focus("#create-submit")
    page.keyboard.press("Enter")
    match_id_of(page)
    page.wait_for_selector("#roll")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'roll'")
    seeded_dice(6, 1)
    page.keyboard.press("Enter")   # White's die of the roll-off
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 6')")
