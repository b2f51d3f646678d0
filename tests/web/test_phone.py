"""In a real chromium: a phone plays without scrolling. At 390×844
(portrait) and 844×390 (landscape) the board, its dice, Roll / Done / Undo and the
status are all inside the viewport with no document scroll; the controls are within
thumb reach (the lower half in portrait, the right-hand side in landscape); a toast
never covers the board, the controls or the top bar's links."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import shot
from tests.web.support import hotseat_rolled_off
from tests.web.test_browser import press

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = {"portrait": (390, 844), "landscape": (844, 390)}

MEASURE = """sels => {
  const out = {};
  for (const sel of sels) {
    const el = document.querySelector(sel);
    if (!el) { out[sel] = null; continue; }
    const r = el.getBoundingClientRect();
    out[sel] = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }
  out.page = { scrollHeight: document.scrollingElement.scrollHeight,
               scrollWidth: document.scrollingElement.scrollWidth,
               innerHeight, innerWidth };
  return out; }"""

BOARD = "#board svg"
DICE = "#board svg .dice"
STATUS = "#status"


def measure(page: Any, *selectors: str) -> dict[str, Any]:
    return page.evaluate(MEASURE, list(selectors))


def inside(b: dict[str, float], width: int, height: int) -> bool:
    return b["left"] >= 0 and b["top"] >= 0 and b["right"] <= width and b["bottom"] <= height


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["right"] <= b["left"] or b["right"] <= a["left"]
                or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])


def centre(b: dict[str, float]) -> tuple[float, float]:
    return (b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2


def check_one_screen(page: Any, orientation: str, controls: list[str],
                     dice: bool = True) -> dict[str, Any]:
    """Everything needed for a turn inside the viewport, no scrolling, the controls
    (and the dice, once rolled) at the thumb. Returns the boxes measured."""
    width, height = PHONES[orientation]
    boxes = measure(page, BOARD, DICE, STATUS, *controls)
    if not dice:
        assert boxes.pop(DICE) is None   # not rolled yet
        controls_and_dice = list(controls)
    else:
        controls_and_dice = [DICE, *controls]
    metrics = boxes["page"]
    assert metrics["scrollHeight"] <= metrics["innerHeight"] == height, metrics
    assert metrics["scrollWidth"] <= metrics["innerWidth"] == width, metrics
    for sel in (BOARD, STATUS, *controls_and_dice):
        assert boxes[sel] is not None, sel
        assert inside(boxes[sel], width, height), (sel, boxes[sel])
    for sel in controls_and_dice:
        x, y = centre(boxes[sel])
        if orientation == "portrait":
            assert y >= height / 2, (sel, boxes[sel])   # the lower half: the thumb's
        else:
            assert x >= width / 2 or sel == DICE, (sel, boxes[sel])   # the right side
    if orientation == "landscape" and dice:
        # The dice are drawn on our half of the board: its right-hand half.
        board, drawn = boxes[BOARD], boxes[DICE]
        assert centre(drawn)[0] >= (board["left"] + board["right"]) / 2, (drawn, board)
    if orientation == "landscape":
        # The controls beside the board, not under it.
        board = boxes[BOARD]
        assert all(boxes[sel]["left"] >= board["right"] for sel in controls)
    else:
        assert all(boxes[sel]["top"] >= boxes[BOARD]["bottom"] for sel in controls)
    return boxes


@pytest.mark.parametrize("orientation", sorted(PHONES))
def test_a_turn_fits_one_phone_screen(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any], orientation: str) -> None:
    width, height = PHONES[orientation]
    page, match_id = hotseat_rolled_off(open_page, make_user, seeded_dice, "thumb", 6, 1, 6, 5,
                                        width=width, height=height)   # White starts
    # A toast says who starts: at the top, clear of the board and the controls.
    toast = page.locator("#toast.show")
    toast.wait_for()
    before = check_one_screen(page, orientation, ["#roll"], dice=False)
    toast_box = measure(page, "#toast")["#toast"]
    assert inside(toast_box, width, height), toast_box
    for sel in (BOARD, "#roll", STATUS):
        assert not overlap(toast_box, before[sel]), (sel, toast_box, before[sel])
    if orientation == "portrait":   # a one-line toast leaves the players' names readable
        players = measure(page, "#players")["#players"]
        assert not overlap(toast_box, players), (toast_box, players)
    # Nor over the top bar's links (the languages, log out): controls as well.
    for sel, link in measure(page, "#languages", "#who").items():
        if sel != "page":
            assert link and not overlap(toast_box, link), (sel, toast_box, link)

    press(page, "#roll", match_id)   # White's 6-5
    page.click('#board svg [data-key="p24"]')
    page.click('#board svg [data-key="p18"]')   # one step drafted: Done, Undo shown
    page.wait_for_selector("#undo:enabled")
    controls = ["#done", "#undo", "#undo-turn", "#dice-left"]
    boxes = check_one_screen(page, orientation, controls)
    # A hit-style toast while the draft is open stays clear of Done / Undo too.
    page.evaluate("""() => { const t = document.getElementById('toast');
        t.textContent = 'Hit! 23/21*: the blot goes to the bar. ' .repeat(2);
        t.className = 'toast show hit'; }""")
    toast_box = measure(page, "#toast")["#toast"]
    for sel in (BOARD, STATUS, *controls):
        assert not overlap(toast_box, boxes[sel]), (sel, toast_box, boxes[sel])
    page.evaluate("() => { document.getElementById('toast').className = 'toast'; }")
    page.wait_for_function("() => getComputedStyle(document.getElementById('toast'))"
                           ".opacity === '0'")
    print(f"\nphone {orientation} {width}x{height}: " + json.dumps(
        {k: {n: round(v) for n, v in b.items()} if b else None for k, b in boxes.items()}))
    shot(page, f"phone-{orientation}")
