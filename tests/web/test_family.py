"""The play page with what the server gained after it was first built (API.md
"Additions"): the hitting games (entering from the bar, hits, the bear-off and the
result named), backgammon's opening roll-off played at once, the choice of die when two
bear the same checker off, the computer's moves arriving live, stakes (an offer
accepted) and clocks (the countdown, presence, abort before the first roll, the claim
after the deadline). Playwright on Debian's chromium, as test_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match
from tests.support import set_board
from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import (
    api_get,
    create,
    drafted_stop,
    key,
    keys_shown,
    login,
    play_turn,
    press,
    settle,
)

pytestmark = pytest.mark.django_db(transaction=True)
IMMEDIATE = "django_tasks.backends.immediate.ImmediateBackend"


def play_step(page: Any, match_id: int, step: dict[str, int], hotseat: bool = True,
              ) -> dict[str, Any]:
    """Pick ``step``'s checker, check the landings offered are exactly its legal steps,
    land it; answer the match the page then shows."""
    match = settle(page, match_id, hotseat)
    steps = drafted_stop(page, match)["steps"]
    assert keys_shown(page, ".source") == {key(s["from"]) for s in steps}
    page.click(f'#board svg [data-key="{key(step["from"])}"]')
    assert keys_shown(page, ".landing") == {
        key(s["to"]) for s in steps if s["from"] == step["from"]}
    return press(page, f'#board svg [data-key="{key(step["to"])}"]', match_id, hotseat)


def finish_turn(page: Any, match_id: int, hotseat: bool = True) -> dict[str, Any]:
    match = settle(page, match_id, hotseat)
    while match["status"] == "active" and match["state"]["phase"] == "move":
        match = play_step(page, match_id, drafted_stop(page, match)["steps"][0], hotseat)
    return match


def roll(page: Any, match_id: int, hotseat: bool = True) -> dict[str, Any]:
    settle(page, match_id, hotseat)
    return press(page, "#roll", match_id, hotseat)


def test_a_hotseat_backgammon_game_with_a_hit_an_entry_and_a_gammon(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("gammon", password=PASSWORD)
    page = open_page()
    login(page, "gammon")
    match_id = create(page, mode="hotseat", rules="backgammon", length="1")
    settle(page, match_id, hotseat=True)
    assert "Backgammon" in page.inner_text("#match-title")

    # The roll-off (H5): White 3, Black 1, and White plays the two roll-off dice at once.
    seeded_dice(3, 1)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 3')")
    match = press(page, "#roll", match_id)
    state = match["state"]
    assert (state["phase"], state["turn"], state["dice"]) == ("move", "white", [3, 1])
    assert page.locator("#board svg .die").count() == 2
    assert page.inner_text("#dice-left") == "Dice left: 3, 1"
    assert page.locator("#board svg").get_attribute("data-perspective") == "white"
    # H1: our 24 (two back checkers) at the top right, the opponent's 6 point is our 19.
    assert page.locator('#board svg [data-key="p24"]').get_attribute("data-colour") == "white"
    assert page.locator('#board svg [data-key="p19"]').get_attribute("data-count") == "5"
    match = play_step(page, match_id, {"from": 8, "to": 5})
    match = play_step(page, match_id, {"from": 6, "to": 5})
    assert match["state"]["turn"] == "black"
    assert page.locator("#board svg").get_attribute("data-perspective") == "black"
    # The log in the numbering of the board shown: Black's now, where
    # White's 8/5 6/5 is 17/20 19/20 (H1).
    expect(page.locator("#log")).to_contain_text("White 3-1: 17/20 19/20")

    # White on the bar, a black blot on White's 20: White enters with the 5 and hits.
    set_board(match_id, {13: 5, 8: 3, 6: 5, 24: 1, 20: -1, 19: -4, 12: -5, 17: -3, 1: -2},
              bar_mine=1, turn="white")
    page.reload()
    seeded_dice(5, 3)
    match = roll(page, match_id)
    assert keys_shown(page, ".source") == {"bar"}
    bar = page.locator('#board svg [data-key="bar"]')
    assert bar.get_attribute("aria-label") == "bar, 1 white checker, can move"
    bar.click()
    assert keys_shown(page, ".landing") == {"p20", "p22"}
    assert page.locator('#board svg [data-key="p20"]').get_attribute("aria-label") == (
        "point 20, 1 black checker, legal landing, hits")
    assert page.locator('#board svg [data-key="p20"] .hit-mark').count() == 1
    shot(page, "backgammon")
    match = press(page, '#board svg [data-key="p20"]', match_id)
    match = finish_turn(page, match_id)
    expect(page.locator("#toast")).to_contain_text("Hit!")   # once the turn is sent

    # Black's turn, its board: the hit checker waits on Black's bar and must enter first.
    assert match["state"]["turn"] == "black"
    assert match["state"]["board"]["bar"] == {"mine": 1, "theirs": 0}
    assert page.locator("#board svg").get_attribute("data-perspective") == "black"
    assert page.locator('#board svg [data-key="bar"]').get_attribute("data-count") == "1"
    seeded_dice(2, 4)
    match = roll(page, match_id)
    assert keys_shown(page, ".source") == {"bar"}
    entry = next(s for s in match["state"]["legal_steps"] if s["from"] == 25)
    match = play_step(page, match_id, entry)
    match = finish_turn(page, match_id)
    expect(page.locator("#log")).to_contain_text(re.compile(r"White 5-3: bar/20\* "))
    # White's board now: Black's entry on its 23 or 21 is White's 2 or 4 (H1).
    expect(page.locator("#log")).to_contain_text(re.compile(r"Black 2-4: bar/[24]"))

    # The end: White's last two checkers on its 1, Black with none off and none in
    # White's home: a gammon (H15). 2-1 bears the first off with either die (the other
    # die then takes the second): the page asks which.
    if match["state"]["turn"] != "white":
        match = finish_turn(page, match_id) if match["state"]["phase"] == "move" else match
    set_board(match_id, {1: 2, 18: -15}, off_mine=13, turn="white")
    page.reload()
    seeded_dice(2, 1)
    match = roll(page, match_id)
    assert {(s["to"], s["die"]) for s in match["state"]["legal_steps"]} == {(0, 1), (0, 2)}
    page.click('#board svg [data-key="p1"]')
    assert keys_shown(page, ".landing") == {"off"}
    assert page.locator('#board svg [data-key="off"]').get_attribute("aria-label") == (
        "borne off, 13 white checkers, legal landing, with the 1 or the 2")
    version = match["state"]["version"]
    page.click('#board svg [data-key="off"]')
    choice = page.locator("#die-choice")
    expect(choice).to_be_visible()
    assert choice.locator("button[data-die]").all_inner_texts() == ["the 1", "the 2", "Cancel"]
    # Cancel puts the checker back; then bear off with the 2.
    choice.get_by_role("button", name="Cancel").click()
    expect(choice).to_be_hidden()
    page.click('#board svg [data-key="p1"]')
    page.click('#board svg [data-key="off"]')
    page.click('#die-choice button[data-die="2"]')
    # A step of the draft: the 1 is left; Done sends both steps.
    expect(page.locator("#dice-left")).to_have_text("Dice left: 1")
    page.click('#board svg [data-key="p1"]')
    page.click('#board svg [data-key="off"]')
    with page.expect_request(lambda r: "/moves/" in r.url and r.method == "POST") as sent:
        page.click("#done")
    assert sent.value.post_data_json["steps"] == [{"from": 1, "to": 0, "die": 2},
                                                  {"from": 1, "to": 0, "die": 1}]
    page.wait_for_function("v => document.querySelector('#board').dataset.version !== v",
                           arg=str(version))
    match = settle(page, match_id, hotseat=True)
    assert match["status"] == "finished" and match["score"] == {"white": 2, "black": 0}
    expect(page.locator("#result")).to_contain_text("Game 1: White wins 2 points — gammon")
    expect(page.locator("#log .game-result")).to_have_text(
        "Game 1: White wins 2 points — gammon")


def test_a_short_nardy_game_against_the_computer(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any], settings: Any) -> None:
    """The computer (level random) plays through the task queue, here the immediate
    backend: its turn runs right after our action commits and the page shows it live."""
    from playwright.sync_api import expect

    settings.TASKS = {"default": {"BACKEND": IMMEDIATE, "QUEUES": ["default"]}}
    make_user("human", password=PASSWORD)
    page = open_page()
    login(page, "human")
    page.select_option("#create-mode", "computer")
    page.select_option("#create-rules", "short_nardy")
    levels = page.eval_on_selector_all("#create-computer option", "els => els.map(e => e.value)")
    assert levels[:2] == ["random", "heuristic"], levels
    assert page.inner_text("#create-level-text").startswith("Plays a uniformly random")
    match_id = create(page, computer="random", color="white", length="1")
    match = settle(page, match_id)
    assert (match["white"], match["black"]) == ("human", "computer-random")
    expect(page.locator("#presence-black")).to_have_text("computer")

    # The roll-off: our 6, then the computer's 1 (rolled by itself): we start.
    seeded_dice(6, 1)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('Your turn')")
    for _ in range(3):
        match = play_turn(page, match_id, hotseat=False)
        # The computer answers at once; the page hears it live and it is our roll again.
        page.wait_for_selector("#roll", timeout=10_000)
        match = settle(page, match_id)
        assert match["state"]["turn"] == "white"
    expect(page.locator("#log .turn.black")).to_have_count(3)
    shot(page, "computer")

    # The end: our last checker on our 1, the computer with none off and one still in our
    # home: koks (H15), three points. A double bears it off without a choice.
    set_board(match_id, {1: 1, 3: -1, 18: -14}, off_mine=14, turn="white")
    page.reload()
    seeded_dice(1, 1)
    match = roll(page, match_id, hotseat=False)
    match = play_step(page, match_id, {"from": 1, "to": 0}, hotseat=False)
    assert match["status"] == "finished" and match["winner"] == "white"
    expect(page.locator("#result")).to_contain_text("Game 1: White wins 3 points — koks")


def test_an_offer_accepted_in_a_cube_match(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("cuber", password=PASSWORD)
    page = open_page()
    login(page, "cuber")
    match_id = create(page, mode="hotseat", stakes="cube", length="3")
    settle(page, match_id, hotseat=True)
    stake = page.locator("#stake")
    expect(stake).to_have_text("Stake 1 (cube) · may raise: either side")
    assert page.locator("#offer").count() == 0   # not in the roll-off (S3)

    seeded_dice(5, 2)
    page.click("#roll")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 5')")
    match = press(page, "#roll", match_id)
    assert (match["state"]["phase"], match["state"]["turn"]) == ("roll", "white")
    expect(page.locator("#offer")).to_have_text("Offer a double (to 2)")
    match = press(page, "#offer", match_id)
    assert match["state"]["phase"] == "offer"
    assert match["state"]["offer"] == {"by": "white", "stake": 2}
    expect(page.locator("#status")).to_have_text(
        "White offers to raise the stake to 2; Black answers.")
    expect(page.locator("#accept")).to_be_visible()
    expect(page.locator("#refuse")).to_be_visible()
    assert page.locator("#roll").count() == 0
    shot(page, "cube-offer")
    match = press(page, "#accept", match_id)
    state = match["state"]
    assert (state["stake"], state["may_offer"], state["phase"], state["turn"]) == (
        2, "black", "roll", "white")
    expect(stake).to_have_text("Stake 2 (cube) · may raise: Black")
    # White may not raise again (S2: only the side that accepted); Black may, later.
    assert page.locator("#offer").count() == 0
    expect(page.locator("#roll")).to_be_visible()


def test_the_clock_counts_down_and_the_waiting_side_may_claim(
        open_page: Callable[..., Any], make_user: Callable[..., Any],
        seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    from tests.web.support import invite_and_accept

    # The lobby hears of the invitation (the account stream, or its polling): no reload.
    pair = invite_and_accept(
        open_page, make_user, "tick", "tock", fields={"length": "3", "clock": "30"},
        reload=False, live=False,
        before_submit=lambda page: expect(page.locator("#create-clock")).to_be_visible())
    tick, tock, match_id, match = pair.inviter, pair.guest, pair.match_id, pair.match
    assert match["turn_seconds"] == 30 and match["state"]["deadline"]

    # Before the first roll: the clock runs for both, either may abort.
    clock = tick.locator("#clock")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text(re.compile(r"Clock: You: 0:[0-3]\d left to act \(0:30 a turn\)"))
    first = int(clock.get_attribute("data-seconds"))
    assert 20 <= first <= 30, first
    # The countdown ticks: wait (bounded) for a lower reading, not a fixed time.
    tick.wait_for_function(
        "first => Number(document.querySelector('#clock').dataset.seconds) < first",
        arg=first, timeout=10_000)
    for page in (tick, tock):
        expect(page.locator("#abort")).to_be_visible()
        expect(page.locator("#presence-white")).to_have_attribute("data-online", "true")
        expect(page.locator("#presence-black")).to_have_attribute("data-online", "true")

    # The roll-off (6, 1): White to roll, the clock now White's; no abort any more.
    seeded_dice(6, 1)
    tick.click("#roll")
    tock.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('White 6')")
    press(tock, "#roll", match_id, hotseat=False)
    settle(tick, match_id)
    for page in (tick, tock):
        expect(page.locator("#abort")).to_have_count(0)
    expect(tock.locator("#clock")).to_contain_text("White: ")
    expect(tick.locator("#clock")).to_contain_text("You: ")
    assert tock.locator("#claim").count() == 0

    # White lets the deadline pass (moved into the past here rather than waiting 30 s):
    # Black's page offers the claim; White's says it is late.
    Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=2))
    tock.reload()
    tick.reload()
    settle(tock, match_id)
    expect(tock.locator("#claim")).to_have_text("Claim the game (White is late)")
    expect(tock.locator("#clock")).to_have_attribute("data-late", "true")
    expect(tick.locator("#clock")).to_contain_text("You are past the deadline")
    assert tick.locator("#claim").count() == 0
    shot(tock, "clock-claim")
    match = press(tock, "#claim", match_id, hotseat=False)
    games = api_get(tock, f"matches/{match_id}/games/")
    assert games[0]["winner"] == "black" and games[0]["result"] == "resigned"
    expect(tock.locator("#log .game-result").first).to_contain_text("Black wins")
    expect(tock.locator("#log .game-result").first).to_contain_text("resigned")


def test_the_level_list_says_which_engine_plays(open_page: Callable[..., Any],
                                                make_user: Callable[..., Any]) -> None:
    """Where the level is chosen each learned level names its engine: backgammon's the
    field engine (where installed), the nardy games' the own network; random and
    heuristic are their own engine and name none."""
    import computer

    make_user("chooser", password=PASSWORD)
    page = open_page()
    login(page, "chooser")
    page.select_option("#create-mode", "computer")
    page.select_option("#create-rules", "backgammon")
    options = dict(page.eval_on_selector_all(
        "#create-computer option", "els => els.map(e => [e.value, e.textContent])"))
    engines = computer.engines_for("backgammon")
    assert options["random"] == "Random" and options["heuristic"] == "Heuristic"
    short = "Open Sage" if engines["world-class"].startswith("Open Sage") else "own network"
    assert options["world-class"] == f"World-class — {short}"
    assert options["expert"] == f"Expert — {short}"
    page.select_option("#create-computer", "world-class")
    assert page.inner_text("#create-level-text").endswith(
        f"Engine: {engines['world-class']}.")
    page.select_option("#create-rules", "long_nardy")
    page.wait_for_function("() => document.querySelector('#create-computer option"
                           "[value=expert]').textContent === 'Expert — own network'")
    assert "world-class" not in page.eval_on_selector_all(
        "#create-computer option", "els => els.map(e => e.value)")
    assert page.errors == []
