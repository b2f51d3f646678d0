"""The match's controls drawn again (every read, every animated step of the computer's)
keep the buttons that did not change: a Roll swapped between the press and the release
loses the click (Playwright saw "element was detached from the DOM" for seconds while the
computer's move was drawn)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.support import hotseat_rolled_off

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_redraw_keeps_the_same_roll_button(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    page, match_id = hotseat_rolled_off(open_page, make_user, seeded_dice, "steady", 6, 1)
    page.evaluate("() => { window.__roll = document.querySelector('#roll'); }")
    # A read of the match that changes nothing (the network is back): the state, then
    # the log read after it is drawn.
    with page.expect_request(re.compile(rf"/matches/{match_id}/games/$")):
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
    assert page.evaluate("() => document.querySelector('#roll') === window.__roll")
    page.locator("#roll").click()   # and it still rolls
    page.wait_for_selector("#done")
