"""In a real chromium: keyboard play. After Enter on Roll the focus is on
the board (on a checker that may move); picking a checker puts the focus on its first
landing, a landing on the next checker that may move, the turn's last landing on Done —
so a two-step turn is a handful of keys, counted here. A refused pick says why (the
head already used, R11/R13; a point that is not yours; a checker that cannot move),
in the page and in the aria-live region."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support import set_board
from tests.web.conftest import PASSWORD
from tests.web.support import hotseat_rolled_off
from tests.web.test_browser import create, keyboard_press, login, settle

pytestmark = pytest.mark.django_db(transaction=True)


class Keys:
    """Presses keys on the page and counts them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, *names: str) -> None:
        for name in names:
            self.page.keyboard.press(name)
            self.count += 1


def focused(page: Any) -> str:
    """The focused place of the board ("p24"), or #id of the focused control."""
    return page.evaluate("""() => { const el = document.activeElement;
        return el && el.dataset && el.dataset.key ? el.dataset.key : '#' + (el ? el.id : ''); }""")


def wait_version_change(page: Any, version: str | None) -> None:
    """Until the page shows a new state and takes presses again (no write in flight)."""
    page.wait_for_function("""v => { const b = document.querySelector('#board');
        return b.dataset.version !== v && b.dataset.busy === 'false'; }""", arg=version)


def refusal(page: Any, target: str) -> str:
    """Walk to `target` by arrows, press Enter; the reason shown (also announced)."""
    # Every announcement is kept: the opponent's last move may be announced after the
    # refusal when its event arrives late.
    page.evaluate("""() => { if (window.announced) return; window.announced = [];
        const box = document.querySelector('#announce');
        new MutationObserver(() => window.announced.push(box.textContent))
            .observe(box, {childList: true, characterData: true, subtree: true}); }""")
    keyboard_press(page, target)
    hint = page.locator("#hint")
    hint.wait_for()
    text = hint.inner_text()
    page.wait_for_function("t => window.announced.includes(t)", arg=text)
    return text


def test_a_two_step_turn_is_a_handful_of_keys(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    make_user("keys", password=PASSWORD)
    page = open_page()
    login(page, "keys")
    match_id = create(page, mode="hotseat")
    settle(page, match_id, hotseat=True)
    seeded_dice(6, 1, 6, 5, 4, 2)
    page.focus("#roll")
    host = page.locator("#board")

    # The roll-off: Enter for White's die, the focus stays on Roll for Black's.
    roll_off = Keys(page)
    version = host.get_attribute("data-version")
    roll_off("Enter")
    wait_version_change(page, version)
    assert "White 6" in page.inner_text("#status")
    assert focused(page) == "#roll"
    version = host.get_attribute("data-version")
    roll_off("Enter")
    wait_version_change(page, version)
    settle(page, match_id, hotseat=True)
    assert focused(page) == "#roll"   # White starts: its Roll, focused

    # White's 6-5 from the head: Enter ×6 — roll, pick, land, pick, land, Done.
    turn = Keys(page)
    version = host.get_attribute("data-version")
    turn("Enter")                                    # Roll
    wait_version_change(page, version)
    page.wait_for_function("() => document.activeElement?.dataset?.key === 'p24'")
    turn("Enter")                                    # pick the head's checker
    first = focused(page)
    assert page.locator(f'#board svg [data-key="{first}"]').get_attribute(
        "class").split().count("landing") == 1, first
    turn("Enter")                                    # land (a step of the draft)
    page.wait_for_function("() => document.querySelector('#board').dataset.draft === '1'")
    # On to the checker that may move: the one just landed (the head is used).
    assert focused(page) == first
    assert "source" in page.locator(f'#board svg [data-key="{first}"]').get_attribute("class")
    turn("Enter")                                    # pick it
    turn("Enter")                                    # land it
    page.wait_for_function("() => document.querySelector('#board').dataset.draft === '2'")
    assert focused(page) == "#done"
    version = host.get_attribute("data-version")
    turn("Enter")                                    # Done: the turn is sent
    wait_version_change(page, version)
    match = settle(page, match_id, hotseat=True)
    assert match["state"]["turn"] == "black" and match["state"]["phase"] == "roll"
    assert turn.count == 6
    # Hotseat: Black's Roll, focused.
    page.wait_for_function("() => document.activeElement?.id === 'roll'")
    print(f"\nkeys: roll-off {roll_off.count}, a two-step turn {turn.count}")

    # Black's 4-2: one checker off the head, then the head is used — refused, and why.
    version = host.get_attribute("data-version")
    page.keyboard.press("Enter")
    wait_version_change(page, version)
    page.wait_for_function("() => document.activeElement?.dataset?.key === 'p24'")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#board').dataset.draft === '1'")
    assert refusal(page, "p24") == (
        "The head is used: no more checkers may leave the head this turn.")
    assert page.locator("#board svg .selected").count() == 0
    # White's head is Black's 12 (R2).
    assert refusal(page, "p12") == "Point 12 is not yours: the opponent's checkers are there."
    assert refusal(page, "p7") == "Point 7 has none of your checkers to move."
    # Picked, then a point that is not a landing: put back, and said.
    source = page.evaluate("() => document.querySelector('#board svg .source').dataset.key")
    keyboard_press(page, source)
    assert page.locator("#hint").is_hidden()   # a good pick clears the reason
    keyboard_press(page, "p7")
    assert page.locator("#hint").inner_text() == (
        f"Point 7 is not a landing for the checker on point {source[1:]}.")
    # N goes to the next checker that may move; with one picked, to its next landing;
    # a die's digit lands it with that die; Backspace takes the step back.
    page.keyboard.press("n")
    assert "source" in page.locator(f'#board svg [data-key="{focused(page)}"]').get_attribute(
        "class")
    page.keyboard.press("Enter")
    picked = focused(page)
    assert page.locator("#board svg .selected").count() == 1
    page.keyboard.press("2")
    page.wait_for_function("() => document.querySelector('#board').dataset.draft === '2'")
    assert focused(page) == "#done"
    keyboard_press(page, "p13")   # back on the board (any point), then Backspace
    page.keyboard.press("Backspace")
    page.wait_for_function("() => document.querySelector('#board').dataset.draft === '1'")
    assert picked


def test_a_checker_that_cannot_move_says_so(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    page, match_id = hotseat_rolled_off(open_page, make_user, seeded_dice, "stuck", 6, 1, 6, 5)
    # A checker on White's 3 with 6-5 and checkers outside home: it cannot bear off.
    set_board(match_id, {24: 14, 3: 1, 12: -15}, turn="white")
    page.reload()
    settle(page, match_id, hotseat=True)
    page.focus("#roll")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.dataset?.key === 'p24'")
    assert refusal(page, "p3") == "The checker on point 3 cannot move with 6, 5."
    assert page.locator("#hint").is_visible()


def test_after_the_computers_reply_the_focus_is_on_roll(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any], settings: Any) -> None:
    """A whole turn by keys against the computer: when its reply brings our Roll, the
    focus is there (Enter rolls again), not on the board a Tab away."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
                                  "QUEUES": ["default"]}}
    make_user("keyed", password=PASSWORD)
    page = open_page()
    login(page, "keyed")
    page.select_option("#create-mode", "computer")
    match_id = create(page, computer="random", color="white", length="1")
    settle(page, match_id)
    host = page.locator("#board")
    seeded_dice(6, 1, 6, 5)   # our roll-off die, the computer's: we start with 6-5
    page.focus("#roll")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board[data-turn=white][data-phase=roll]")
    page.wait_for_function("() => document.activeElement.id === 'roll'")
    version = host.get_attribute("data-version")
    page.keyboard.press("Enter")   # the turn's roll: the focus goes to the board
    wait_version_change(page, version)
    for _ in range(2):   # pick and land, twice; then the focus is on Done
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    assert focused(page) == "#done"
    page.keyboard.press("Enter")
    # The computer plays its turn; our Roll comes back, focused.
    page.wait_for_selector("#board[data-turn=white][data-phase=roll]")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'roll'")
