"""In a real chromium: pip counts for both sides in every rule set (nard:
the distance to home), the stake drawn on the board with its value and holder, and
"thinking…" while the computer has the move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import nardy
from tests.web.conftest import PASSWORD
from tests.web.test_browser import create, login, settle

pytestmark = pytest.mark.django_db(transaction=True)


def start_pips(name: str) -> int:
    d = nardy.descriptor_of(name)
    top = 0 if d.bears_off else max(d.home)
    return sum(n * max(0, p - top) for p, n in d.start.items())


def test_pip_counts_and_the_stake_on_the_board(open_page: Callable[..., Any],
                                                make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("counter", password=PASSWORD)
    page = open_page()
    login(page, "counter")
    for d in nardy.descriptors():
        page.goto(page.url.split("#")[0] + "#/")
        page.wait_for_selector("#create-form")
        page.select_option("#create-rules", d.name)
        if d.name == nardy.DEFAULT_RULES:
            page.select_option("#create-stakes", "cube")
        match_id = create(page, mode="hotseat", length="3")
        settle(page, match_id, hotseat=True)
        pips = start_pips(d.name)
        word = "Pips" if d.bears_off else "To home"
        expect(page.locator("#pips")).to_have_text(f"{word}: White {pips} · Black {pips}")
        if d.name == nardy.DEFAULT_RULES:
            cube = page.locator("#board svg .cube")
            assert (cube.get_attribute("data-stake"), cube.get_attribute("data-holder")) == (
                "1", "both")
        else:
            assert page.locator("#board svg .cube").count() == 0


def test_thinking_while_the_computer_has_the_move(open_page: Callable[..., Any],
                                                 make_user: Callable[..., Any],
                                                 seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("patient", password=PASSWORD)
    page = open_page()
    login(page, "patient")
    match_id = create(page, mode="computer", computer="random", color="white")
    settle(page, match_id)
    assert page.locator("#status[data-thinking]").count() == 0
    seeded_dice(6)
    page.click("#roll")   # our roll-off die; the computer's is its own (no worker here)
    expect(page.locator("#status")).to_have_text("The computer is thinking…")
