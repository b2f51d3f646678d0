"""In a real chromium: the steps of a turn are a draft on the page until
Done — undo one step, undo the whole turn, landings from ``state.legal_tree`` after each
tentative step, the whole turn sent in one ``moves`` call, and the opt-in auto-confirm
remembered in localStorage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD
from tests.web.test_browser import create, keys_shown, login, press, settle

pytestmark = pytest.mark.django_db(transaction=True)


def count(page: Any, key: str) -> str:
    return page.locator(f'#board svg [data-key="{key}"]').get_attribute("data-count")


def test_a_turn_is_a_draft_until_done(open_page: Callable[..., Any], make_user: Any,
                                      seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("drafter", password=PASSWORD)
    page = open_page()
    login(page, "drafter")
    match_id = create(page, mode="hotseat", length="1")
    settle(page, match_id, hotseat=True)
    seeded_dice(5, 2, 3, 1, 4, 2)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 5')")
    press(page, "#roll", match_id)
    match = press(page, "#roll", match_id)
    version = match["state"]["version"]
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r.post_data_json)
            if "/moves/" in r.url and r.method == "POST" else None)

    # Nothing drafted: Done and the undos are there but idle.
    expect(page.locator("#done")).to_be_disabled()
    expect(page.locator("#undo")).to_be_disabled()
    page.click('#board svg [data-key="p24"]')
    page.click('#board svg [data-key="p21"]')
    assert (count(page, "p24"), count(page, "p21")) == ("14", "1")
    assert page.inner_text("#dice-left") == "Dice left: 1"
    # After the tentative 24/21 only the 1 is left: the checker on 21 may go on to 20.
    assert "p21" in keys_shown(page, ".source")
    expect(page.locator("#done")).to_be_disabled()
    page.click("#undo")
    assert (count(page, "p24"), count(page, "p21")) == ("15", "0")
    assert page.inner_text("#dice-left") == "Dice left: 3, 1"

    # Two steps, then the whole turn undone: the board is the server's again.
    page.click('#board svg [data-key="p24"]')
    page.click('#board svg [data-key="p21"]')
    page.click('#board svg [data-key="p21"]')
    page.click('#board svg [data-key="p20"]')
    expect(page.locator("#status")).to_have_text("Turn complete: press Done, or undo a step.")
    expect(page.locator("#done")).to_be_enabled()
    page.click("#undo-turn")
    assert (count(page, "p24"), count(page, "p20")) == ("15", "0")
    assert posts == []
    assert settle(page, match_id, hotseat=True)["state"]["version"] == version

    # Played again and confirmed: one moves call with the whole turn.
    page.click('#board svg [data-key="p24"]')
    page.click('#board svg [data-key="p21"]')
    page.click('#board svg [data-key="p21"]')
    match = press(page, '#board svg [data-key="p20"]', match_id)
    assert [p["steps"] for p in posts] == [[{"from": 24, "to": 21, "die": 3},
                                            {"from": 21, "to": 20, "die": 1}]]
    assert match["state"]["turn"] == "black"

    # The auto-confirm: opt in, and the last die sends the turn without Done.
    press(page, "#roll", match_id)
    page.check("#auto-confirm")
    page.reload()
    settle(page, match_id, hotseat=True)
    expect(page.locator("#auto-confirm")).to_be_checked()   # remembered
    page.click('#board svg [data-key="p24"]')
    page.click('#board svg [data-key="p20"]')
    assert page.locator("#board").get_attribute("data-draft") == "1"
    assert len(posts) == 1   # a step short of the turn: nothing sent
    page.click('#board svg [data-key="p20"]')
    page.click('#board svg [data-key="p18"]')
    page.wait_for_selector("#roll")
    assert len(posts) == 2 and len(posts[1]["steps"]) == 2
    assert settle(page, match_id, hotseat=True)["state"]["turn"] == "white"
