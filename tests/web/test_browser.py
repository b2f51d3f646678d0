"""The play page in a real browser (Playwright driving Debian's chromium, as the admin's
browser test does): a hotseat Long Nardy game played by clicks and keys to its end, the
gold landings checked against ``legal_steps`` at every stop, the head counter (R13),
the board's orientation (R33) wide and narrow, and two players seeing each other live.

``.ci/run`` installs ``/usr/bin/chromium``; outside CI the tests are skipped without it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.support import set_board
from tests.web.conftest import PASSWORD, shot

pytestmark = pytest.mark.django_db(transaction=True)


def key(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else f"p{point}"


def api_get(page: Any, path: str) -> Any:
    return page.evaluate(
        "path => fetch(path, {credentials: 'same-origin'}).then(r => r.json())",
        f"/api/v1/{path}")


def login(page: Any, username: str, password: str = PASSWORD) -> None:
    page.fill("#login-form [name=username]", username)
    page.fill("#login-form [name=password]", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#create-form")
    assert username in page.inner_text("#who")


def match_id_of(page: Any) -> int:
    page.wait_for_url(re.compile(r"#/match/\d+"))
    return int(page.url.rsplit("/", 1)[1])


def create(page: Any, **fields: str) -> int:
    """Fill the lobby's form (select ids: create-<name>) and create the match."""
    for name, value in fields.items():
        if name == "opponent":
            page.fill("#create-opponent", value)
        else:
            page.select_option(f"#create-{name}", value)
    page.click("#create-submit")
    return match_id_of(page)


def settle(page: Any, match_id: int, hotseat: bool = False) -> dict[str, Any]:
    """Wait until the page shows the match as the API has it now; return that match
    (in the numbering the page shows: the side to move's in hotseat)."""
    deadline = time.monotonic() + 10
    while True:
        match = api_get(page, f"matches/{match_id}/")
        state = match["state"]
        if hotseat and state["turn"]:
            match = api_get(page, f"matches/{match_id}/?perspective={state['turn']}")
            state = match["state"]
        host = page.locator("#board")
        shown = (host.get_attribute("data-version"), host.get_attribute("data-status"))
        svg = page.locator("#board svg")
        perspective = svg.get_attribute("data-perspective") if svg.count() else None
        if (shown == (str(state["version"]), match["status"])
                and perspective == state["board"]["perspective"]):
            return match
        assert time.monotonic() < deadline, (shown, state["version"], match["status"])
        time.sleep(0.05)


def press(page: Any, selector: str, match_id: int, hotseat: bool = True) -> dict[str, Any]:
    """Click something that changes the match; wait until the page shows the change. A
    landing is a step of the drafted turn: the turn's last one is sent
    with Done; before that the match on the server is unchanged."""
    host = page.locator("#board")
    version = host.get_attribute("data-version")
    drafted = host.get_attribute("data-draft") or "0"
    page.click(selector)
    page.wait_for_function("""([v, d]) => {
        const b = document.querySelector('#board');
        return b.dataset.version !== v || (b.dataset.draft || '0') !== d; }""",
                           arg=[version, drafted])
    if host.get_attribute("data-version") == version:
        done = page.locator("#done")
        if not (done.count() and done.is_enabled()):
            return settle(page, match_id, hotseat)   # a step of a turn not complete yet
        done.click()
        page.wait_for_function("v => document.querySelector('#board').dataset.version !== v",
                               arg=version)
    return settle(page, match_id, hotseat)


def drafted_stop(page: Any, match: dict[str, Any]) -> dict[str, Any]:
    """The stop of ``state.legal_tree`` the page's drafted turn has reached."""
    return match["state"]["legal_tree"][int(page.locator("#board").get_attribute("data-stop"))]


def keys_shown(page: Any, css: str) -> set[str]:
    return set(page.eval_on_selector_all(
        f"#board svg {css}", "els => els.map(e => e.dataset.key).filter(Boolean)"))


def boxes(page: Any) -> dict[str, dict[str, float]]:
    """Every place of the board on the screen, measured at one moment."""
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#board svg [data-key]')].map(el => {
          const r = (el.querySelector('.hit') || el).getBoundingClientRect();
          return [el.dataset.key, {x: r.x, y: r.y, width: r.width, height: r.height}];
        }))""")


def box(page: Any, key_: str) -> dict[str, float]:
    return boxes(page)[key_]


def assert_own_head_top_right(page: Any) -> None:
    """R33: point 24 is the top right point of the wide board."""
    places = boxes(page)
    head = places["p24"]
    for point in range(1, 24):
        other = places[f"p{point}"]
        assert other["y"] >= head["y"] - 1, point
        if abs(other["y"] - head["y"]) < 1:
            assert other["x"] < head["x"], point


def keyboard_press(page: Any, target: str) -> None:
    """Walk the board's focus to ``target`` with the arrow keys, then press Enter."""
    for _ in range(40):
        focused = page.evaluate("() => document.activeElement?.dataset?.key || null")
        if focused is None:
            page.locator('#board svg [data-key][tabindex="0"]').focus()
            continue
        if focused == target:
            page.keyboard.press("Enter")
            return
        here, there = box(page, focused), box(page, target)
        dx, dy = there["x"] - here["x"], there["y"] - here["y"]
        if abs(dy) > 1 and not (abs(dx) > 1 and abs(dy) < 150):
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    raise AssertionError(f"the arrow keys never reached {target}")


def play_turn(page: Any, match_id: int, *, hotseat: bool = True, keyboard: bool = False,
              shots: str | None = None) -> dict[str, Any]:
    """Roll, then play the first offered step until the turn is over, checking at every
    stop that the checkers offered and the gold landings are exactly ``legal_steps``."""
    match = settle(page, match_id, hotseat)
    assert match["state"]["phase"] == "roll", match["state"]
    if keyboard:
        page.focus("#roll")
        page.keyboard.press("Enter")
    else:
        page.click("#roll")
    page.wait_for_function("v => document.querySelector('#board').dataset.version !== v",
                           arg=str(match["state"]["version"]))
    match = settle(page, match_id, hotseat)
    while match["status"] == "active" and match["state"]["phase"] == "move":
        state = match["state"]
        tree = state["legal_tree"]
        assert [{k: v for k, v in s.items() if k != "next"} for s in tree[0]["steps"]] == \
            state["legal_steps"]
        stop, drafted = tree[0], 0
        while stop["steps"]:
            steps = stop["steps"]
            assert page.locator("#board svg").get_attribute("data-perspective") == state["turn"]
            assert keys_shown(page, ".source") == {key(s["from"]) for s in steps}
            assert keys_shown(page, ".landing") == set()
            head = stop["head_may_leave"]
            counter = page.locator("#head-counter")
            if head:
                assert counter.inner_text() == f"{head} may leave"
            else:
                assert not counter.is_visible()
            dice_left = ", ".join(str(d) for d in stop["dice_left"])
            assert page.inner_text("#dice-left") == f"Dice left: {dice_left}"
            step = steps[0]
            if keyboard:
                keyboard_press(page, key(step["from"]))
            else:
                page.click(f'#board svg [data-key="{key(step["from"])}"]')
            assert keys_shown(page, ".selected") == {key(step["from"])}
            assert keys_shown(page, ".landing") == {
                key(s["to"]) for s in steps if s["from"] == step["from"]}
            label = page.locator(f'#board svg [data-key="{key(step["to"])}"]').get_attribute(
                "aria-label")
            # A landing two dice reach (bearing off with either) names them.
            assert re.search(r"legal landing(, hits)?(, with the \d( or the \d)*)?$",
                             label), label
            if shots:
                shot(page, shots)
                shots = None
            if keyboard:
                keyboard_press(page, key(step["to"]))
            else:
                page.click(f'#board svg [data-key="{key(step["to"])}"]')
            drafted += 1
            # Two dice reaching the landing (bearing off) ask which one: the step's own.
            page.wait_for_function("""n => document.querySelector('#board').dataset.draft === n
                                     || !document.querySelector('#die-choice').hidden""",
                                   arg=str(drafted))
            if page.locator("#die-choice").is_visible():
                page.click(f'#die-choice button[data-die="{step["die"]}"]')
                page.wait_for_function(
                    "n => document.querySelector('#board').dataset.draft === n",
                    arg=str(drafted))
            stop = tree[step["next"]]
        # The turn is complete: Done sends it; by keyboard the focus
        # is already on it.
        if keyboard:
            assert page.evaluate("() => document.activeElement.id") == "done"
            page.keyboard.press("Enter")
        else:
            page.click("#done")
        page.wait_for_function("v => document.querySelector('#board').dataset.version !== v",
                               arg=str(state["version"]))
        match = settle(page, match_id, hotseat)
    return match


def test_a_hotseat_long_nardy_game_through_the_page(
        open_page: Callable[..., Any], seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    page = open_page()
    # Register from the page: the account is made and the page logs in with it.
    page.fill("#register-form [name=username]", "hotseater")
    page.fill("#register-form [name=password]", PASSWORD)
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#create-form")
    assert "hotseater" in page.inner_text("#who")
    shot(page, "lobby")

    match_id = create(page, mode="hotseat", length="1")
    settle(page, match_id, hotseat=True)
    assert page.locator("#head-counter").is_hidden()

    # The roll-off (R7): White 5, Black 2, so White starts; its first roll is 6-6 and two
    # checkers may leave the head (R12).
    seeded_dice(5, 2, 6, 6)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 5')")
    match = press(page, "#roll", match_id)
    assert (match["state"]["phase"], match["state"]["turn"]) == ("roll", "white")
    assert page.locator("#board svg").get_attribute("data-perspective") == "white"
    assert_own_head_top_right(page)

    match = press(page, "#roll", match_id)
    assert match["state"]["head_may_leave"] == 2
    assert page.inner_text("#head-counter") == "2 may leave"
    assert page.locator("svg .head-badge").text_content() == "2 may leave"
    page.click('#board svg [data-key="p24"]')
    assert keys_shown(page, ".landing") == {"p18"}
    match = press(page, '#board svg [data-key="p18"]', match_id)
    # A step of the draft: drawn, counted, not sent yet.
    assert match["state"]["board"]["points"].get("18", 0) == 0
    assert page.locator('#board svg [data-key="p18"]').get_attribute("data-count") == "1"
    assert page.inner_text("#head-counter") == "1 may leave"
    page.click('#board svg [data-key="p24"]')
    match = press(page, '#board svg [data-key="p18"]', match_id)

    # Black's turn: the board has turned (R33), Black's head at the top right.
    assert match["state"]["turn"] == "black"
    assert page.locator("#board svg").get_attribute("data-perspective") == "black"
    assert_own_head_top_right(page)
    assert page.locator('#board svg [data-key="p24"]').get_attribute("data-colour") == "black"
    for turn in range(10):
        match = play_turn(page, match_id, keyboard=turn == 3,
                          shots="long-nardy" if turn == 6 else None)
        assert_own_head_top_right(page)
    assert page.locator("#log .turn").count() >= 11

    # To the end: White to roll with one checker left on its point 1 and Black with none
    # borne off, so the bear-off wins a mars (R29) and the 1-point match.
    if match["state"]["turn"] != "white":
        match = play_turn(page, match_id)
    set_board(match_id, {1: 1, 18: -15}, off_mine=14, turn="white")
    page.reload()
    settle(page, match_id, hotseat=True)
    seeded_dice(3, 2)
    match = play_turn(page, match_id)
    assert match["status"] == "finished" and match["winner"] == "white"
    assert match["score"] == {"white": 2, "black": 0}
    expect(page.locator("#result")).to_contain_text("Game 1: White wins 2 points — mars")
    expect(page.locator("#result")).to_contain_text("Match over: White wins 2–0")
    # The rule set's explanation of the mars (GET rules/).
    expect(page.locator("#result")).to_contain_text("The loser had borne off no checker.")
    assert "(R29)" not in page.inner_text("#result")   # the rule book's code is not for players
    expect(page.locator("#log .game-result")).to_have_text("Game 1: White wins 2 points — mars")
    expect(page.locator("#status")).to_have_text("Match over: White wins 2–0.")
    assert page.locator("#rematch").is_visible()
    assert page.locator("#board svg .pt.source").count() == 0


def test_the_narrow_board_folds_the_head_above_home(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    make_user("phone", password=PASSWORD)
    page = open_page(width=390, height=844)
    login(page, "phone")
    page.select_option("#create-mode", "hotseat")
    page.click("#create-submit")
    match_id = match_id_of(page)
    seeded_dice(6, 1, 6, 5)
    settle(page, match_id, hotseat=True)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 6')")
    press(page, "#roll", match_id)
    press(page, "#roll", match_id)
    svg = page.locator("#board svg")
    assert svg.get_attribute("data-layout") == "narrow"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    # Rows top to bottom: 13–18, 12–7, then 19–24 with the head at its right end, then
    # home 6–1 (R33 "the head folds to the right-hand end of the row just above home").
    rows = [[f"p{p}" for p in range(13, 19)], [f"p{p}" for p in range(12, 6, -1)],
            [f"p{p}" for p in range(19, 25)], [f"p{p}" for p in range(6, 0, -1)]]
    tops = []
    places = boxes(page)
    for row in rows:
        row_boxes = [places[k] for k in row]
        assert len({round(b["y"]) for b in row_boxes}) == 1, row
        assert [b["x"] for b in row_boxes] == sorted(b["x"] for b in row_boxes), row
        tops.append(row_boxes[0]["y"])
    assert tops == sorted(tops)
    head, home_row = places["p24"], [places[f"p{p}"] for p in range(1, 7)]
    assert head["x"] == max(places[f"p{p}"]["x"] for p in range(19, 25))
    assert head["x"] + head["width"] <= 390
    assert all(b["y"] > head["y"] for b in home_row)
    page.click('#board svg [data-key="p24"]')
    page.wait_for_selector('#board svg .pt.landing')
    assert keys_shown(page, ".landing") == {"p18", "p19"}
    shot(page, "long-nardy-phone")


def test_two_players_see_each_other_live(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    from tests.web.support import invite_and_accept

    pair = invite_and_accept(open_page, make_user)
    alice, bob, match_id = pair.inviter, pair.guest, pair.match_id

    # The roll-off, each from their own screen: White 6, Black 1; then White rolls 3-1.
    seeded_dice(6, 1, 3, 1)
    alice.click("#roll")
    bob.wait_for_function("() => document.querySelector('#status').textContent"
                          ".includes('White 6')")
    bob.click("#roll")
    alice.wait_for_selector("#roll")
    press(alice, "#roll", match_id, hotseat=False)
    assert bob.locator("#roll").count() == 0
    assert bob.locator("#board svg").get_attribute("data-perspective") == "black"
    assert_own_head_top_right(bob)
    assert bob.locator('#board svg [data-key="p24"]').get_attribute("data-colour") == "black"

    # Alice drafts 24/21: a draft is hers alone, Bob sees nothing yet.
    alice.click('#board svg [data-key="p24"]')
    alice.click('#board svg [data-key="p21"]')
    assert alice.locator('#board svg [data-key="p21"]').get_attribute("data-count") == "1"
    assert alice.locator("#done").is_disabled()
    assert bob.locator('#board svg [data-key="p9"]').get_attribute("data-count") == "0"

    # A cut: Bob's page says so, and after it catches up from the last event seen.
    bob.context.set_offline(True)
    bob.wait_for_selector("#live[data-state=reconnecting]", timeout=10_000)
    assert bob.inner_text("#live") == "reconnecting…"
    alice.click('#board svg [data-key="p21"]')
    press(alice, '#board svg [data-key="p20"]', match_id, hotseat=False)
    bob.context.set_offline(False)
    bob.wait_for_selector("#live[data-state=live]", timeout=15_000)
    bob.wait_for_selector('#board svg [data-key="p8"][data-count="1"][data-colour="white"]')
    match = settle(bob, match_id)
    assert (match["state"]["turn"], match["state"]["phase"]) == ("black", "roll")
    bob.wait_for_selector("#roll")
    # The log and the announcement in Bob's numbering (White's 24/21
    # 21/20 is Black's 12/9 9/8, R2); Alice's own log keeps hers.
    expect(bob.locator("#log")).to_contain_text("White 3-1: 12/9 9/8")
    expect(bob.locator("#announce")).to_contain_text("White played 9/8")
    expect(alice.locator("#log")).to_contain_text("White 3-1: 24/21 21/20")
    # The last turn stays marked, with its dice on White's half, until Bob rolls.
    expect(bob.locator('#board svg [data-key="p12"]')).to_have_attribute("data-last", "from")
    expect(bob.locator('#board svg [data-key="p8"]')).to_have_attribute("data-last", "to")
    assert bob.locator("#board svg .last-dice .die").evaluate_all(
        "els => els.map(e => e.dataset.value)") == ["3", "1"]
    assert bob.locator("#board svg .last-dice").get_attribute("data-owner") == "theirs"
    press(bob, "#roll", match_id, hotseat=False)
    assert bob.locator("#board svg [data-last=to]").count() == 0
    assert bob.locator("#board svg .last-dice").count() == 0
    assert bob.locator("#board svg .dice").get_attribute("data-owner") == "mine"


def test_the_board_enters_from_the_bar_and_hits_in_a_hitting_game(
        open_page: Callable[..., Any]) -> None:
    """The board component alone, fed a backgammon position (H1, H2, H7, H9) as the API
    describes it: our checkers on the bar are the only ones offered, entering onto the
    opponent's home (our 19–24) with a blot there to hit."""
    page = open_page()
    page.evaluate("""async () => {
      const { Board } = await import('/static/web/board.js');
      const host = document.createElement('div');
      host.id = 'board';
      host.className = 'board-host';
      document.getElementById('app').replaceChildren(host);
      window.played = [];
      const board = new Board(host, { onMove: (step) => window.played.push(step) });
      board.update({
        board: { perspective: 'black', bar: { mine: 1, theirs: 2 },
                 points: { '24': 1, '13': 4, '8': 3, '6': 5, '20': -1, '19': -3, '12': -5,
                           '17': -2, '1': -2 },
                 off: { mine: 1, theirs: 0 } },
        legalSteps: [{ from: 25, to: 20, die: 5 }, { from: 25, to: 22, die: 3 }],
        interactive: true, dice: [5, 3], diceLeft: [5, 3], hitting: true, headMayLeave: 0,
      });
    }""")
    svg = page.locator("#board svg")
    assert svg.get_attribute("data-perspective") == "black"
    assert keys_shown(page, ".source") == {"bar"}
    bar = page.locator('#board svg [data-key="bar"]')
    assert bar.get_attribute("aria-label") == "bar, 1 black checker, can move"
    assert page.locator("#board svg .bar.theirs").get_attribute("data-count") == "2"
    bar.click()
    assert keys_shown(page, ".landing") == {"p20", "p22"}
    assert page.locator('#board svg [data-key="p20"]').get_attribute("aria-label") == (
        "point 20, 1 white checker, legal landing, hits")
    assert page.locator('#board svg [data-key="p20"] .hit-mark').count() == 1
    places = boxes(page)
    assert places["bar"]["y"] < places["p1"]["y"]  # ours wait near where they enter
    assert places["p24"]["x"] > places["p19"]["x"] > places["bar"]["x"]
    page.click('#board svg [data-key="p20"]')
    assert page.evaluate("window.played") == [{"from": 25, "to": 20, "die": 5}]
