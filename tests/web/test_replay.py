"""In a real chromium: a finished game stepped on the board turn by turn
with ← → Home End and the buttons, every position equal to the server's
(GET games/{n}/positions/), reached from the lobby's finished matches and the match
page, with the match export linked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.games.test_record_round_trip import _play_randomly
from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import api_get, login

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN_BOARD = """() => {
  const svg = document.querySelector('#board svg');
  const mine = svg.dataset.perspective;
  const points = {};
  for (const g of svg.querySelectorAll('g.pt')) {
    const n = Number(g.dataset.count);
    if (n) points[g.dataset.point] = g.dataset.colour === mine ? n : -n;
  }
  const count = (sel) => {
    const g = svg.querySelector(sel);
    return g ? Number(g.dataset.count) : 0;
  };
  return { perspective: mine, points,
           off: { mine: count('g.off.mine'), theirs: count('g.off.theirs') },
           bar: { mine: count('g.bar.mine'), theirs: count('g.bar.theirs') } };
}"""


def shown_board(page: Any) -> dict[str, Any]:
    """The board the page draws, in the API's board shape."""
    return page.evaluate(SHOWN_BOARD)


def api_board(board: dict[str, Any]) -> dict[str, Any]:
    """The API's board with empty points left out, as :func:`shown_board` writes it."""
    return {"perspective": board["perspective"],
            "points": {p: n for p, n in board["points"].items() if n},
            "off": {"mine": board["off"]["mine"], "theirs": board["off"]["theirs"]},
            "bar": {"mine": board["bar"]["mine"], "theirs": board["bar"]["theirs"]}}


def at_index(page: Any, index: int) -> None:
    page.wait_for_selector(f'#board[data-index="{index}"] svg')


def finished_match(make_user: Callable[..., Any], rules: str = "long_nardy", seed: int = 5,
                   username: str = "alice") -> Any:
    """A finished 1-point hotseat match of ``username``'s, played at random."""
    from accounts.models import User

    user = User.objects.filter(username=username).first() or make_user(username,
                                                                        password=PASSWORD)
    return _play_randomly(user, rules, seed, length=1)


def open_replay(page: Any, match_id: int, number: int = 1) -> None:
    page.evaluate("hash => { location.hash = hash; }", f"#/matches/{match_id}/replay/{number}")
    at_index(page, 0)


@pytest.mark.parametrize("rules", ["long_nardy", "backgammon"])
def test_step_through_a_finished_game_with_the_keys(open_page, make_user, rules):
    match = finished_match(make_user, rules, seed=5 if rules == "long_nardy" else 8)
    game = match.games.get(number=1)
    assert game.turns >= 4
    page = open_page()
    open_replay(page, match.pk)
    positions = api_get(page, f"matches/{match.pk}/games/1/positions/")
    assert len(positions) == game.turns + 1
    moves = api_get(page, f"matches/{match.pk}/games/1/moves/")
    assert shown_board(page) == api_board(positions[0]["board"])
    # → through the whole game: each turn's board is the server's, its move in the list.
    for index in range(1, len(positions)):
        page.keyboard.press("ArrowRight")
        at_index(page, index)
        assert shown_board(page) == api_board(positions[index]["board"]), f"after turn {index}"
        current = page.locator("#replay-moves li.current")
        assert current.get_attribute("data-turn") == str(index)
        assert page.locator("#replay-where").get_attribute("data-turn") == str(index)
        turn = moves[index - 1]
        if turn["steps"]:   # the turn's move is marked on the board
            assert page.locator("#board svg [data-last=to]").count() >= 1
    page.keyboard.press("ArrowRight")   # the last position stays
    at_index(page, len(positions) - 1)
    page.keyboard.press("ArrowLeft")
    at_index(page, len(positions) - 2)
    assert shown_board(page) == api_board(positions[-2]["board"])
    page.keyboard.press("Home")
    at_index(page, 0)
    page.keyboard.press("End")
    at_index(page, len(positions) - 1)
    # The buttons do the same; a click in the move list goes to that turn.
    page.click("#replay-first")
    at_index(page, 0)
    page.click("#replay-next")
    at_index(page, 1)
    page.click("#replay-moves li[data-turn='3']")
    at_index(page, 3)
    assert shown_board(page) == api_board(positions[3]["board"])
    page.click("#replay-prev")
    at_index(page, 2)
    # Flipped: Black's numbering, the server's Black board.
    page.click("#replay-flip")
    page.wait_for_selector('#board svg[data-perspective="black"]')
    black = api_get(page, f"matches/{match.pk}/games/1/positions/?perspective=black")
    assert shown_board(page) == api_board(black[2]["board"])
    # The export is linked.
    assert page.locator("#replay-export-txt").get_attribute("href") == (
        f"/api/v1/matches/{match.pk}/export/")
    assert page.locator("#replay-export-json").get_attribute("href") == (
        f"/api/v1/matches/{match.pk}/export/?format=json")
    if rules == "long_nardy":
        page.click("#replay-flip")
        page.wait_for_selector('#board svg[data-perspective="white"]')
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        at_index(page, len(positions) - 2)
        shot(page, "replay")


def test_reached_from_the_lobby_history_and_the_match_page(open_page, make_user):
    match = finished_match(make_user)
    page = open_page()
    login(page, "alice")
    row = page.locator(f'#my-matches .match-row[data-match="{match.pk}"]')
    row.locator("a.replay-link").click()
    page.wait_for_url(f"**#/matches/{match.pk}/replay/1")
    at_index(page, 0)
    page.click("#replay-match")   # back to the match page: each finished game linked
    page.wait_for_url(f"**#/match/{match.pk}")
    link = page.locator(f'#replays a.replay-link[data-replay="{match.pk}/1"]')
    link.click()
    page.wait_for_url(f"**#/matches/{match.pk}/replay/1")
    at_index(page, 0)
    assert page.locator("#replay-title").inner_text() == f"Replay: match #{match.pk}, game 1"


def test_a_game_the_match_does_not_have_says_so(open_page, make_user):
    match = finished_match(make_user)
    page = open_page()
    page.evaluate("hash => { location.hash = hash; }", f"#/matches/{match.pk}/replay/9")
    page.wait_for_selector("#replay-error")
    assert page.locator("#replay-error").inner_text() == f"Match {match.pk} has no game 9."


def test_on_a_phone_the_step_buttons_stay_on_screen(open_page, make_user):
    """390×844: the board fills the width and is taller than the screen's rest; the turn
    shown and ◀ ▶ stay at the screen's foot, tapped without scrolling."""
    match = finished_match(make_user)
    page = open_page(width=390, height=844)
    login(page, "alice")
    open_replay(page, match.pk)
    for _ in range(3):
        nav = page.locator("#replay-next").bounding_box()
        assert nav and nav["y"] >= 0 and nav["y"] + nav["height"] <= 844, nav
        page.mouse.click(nav["x"] + nav["width"] / 2, nav["y"] + nav["height"] / 2)
    at_index(page, 3)
    where = page.locator("#replay-where").bounding_box()
    assert where and where["y"] + where["height"] <= 844, where
    assert page.evaluate("() => scrollY") == 0
    assert "Turn 3" in page.inner_text("#replay-where")


def test_an_unreviewed_game_replays_without_a_refused_request(open_page, make_user):
    """The replay asks GET matches/{id}/analysis/ only when the positions name an analysis:
    no 404 (which chromium logs as a console error) for a game nobody reviewed; a match
    with one still shows it."""
    from reviews.models import Analysis

    match = finished_match(make_user)
    page = open_page()
    refused: list[str] = []
    errors: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    login(page, "alice")
    open_replay(page, match.pk)
    page.wait_for_selector("#review[data-state=none] #review-ask")
    assert api_get(page, f"matches/{match.pk}/games/1/positions/")[0]["analyses"] == []
    assert refused == [] and errors == []
    analysed: list[str] = []
    page.on("request", lambda r: analysed.append(r.url) if "/analysis/" in r.url else None)
    Analysis.objects.create(match=match, depth=1)   # queued
    page.evaluate("() => { location.hash = '#/'; }")
    page.wait_for_selector("#create-form")
    open_replay(page, match.pk)
    page.wait_for_selector("#review[data-state=queued]")
    assert analysed and all(u.endswith(f"matches/{match.pk}/analysis/") for u in analysed)
    positions = api_get(page, f"matches/{match.pk}/games/1/positions/")
    assert {tuple(p["analyses"][0].items()) for p in positions} == {
        (("depth", 1), ("state", "queued"))}
    assert refused == [] and errors == []


def test_a_turn_cut_short_shows_its_steps_not_a_pass(open_page, make_user):
    """A turn that played some steps and then could not go on (a pass after steps, common
    in Long Nardy) is its steps and "the rest could not be played", in the move list
    and above the board — never a plain "pass"."""
    match = finished_match(make_user, "long_nardy", seed=5)
    page = open_page()
    open_replay(page, match.pk)
    moves = api_get(page, f"matches/{match.pk}/games/1/moves/")
    cut = next(t for t in moves if t["passed"] and t["steps"])
    page.click(f"#replay-moves li[data-turn='{cut['number']}']")
    at_index(page, cut["number"])
    where = page.inner_text("#replay-where")
    line = page.inner_text(f"#replay-moves li[data-turn='{cut['number']}']")
    for text in (where, line):
        played = text.split(": ")[-1].split(" — ")[0].split()
        assert len(played) == len(cut["steps"]) and all("/" in s for s in played), text
        assert "the rest could not be played" in text, text
        assert "pass" not in text, text


def test_moves_in_each_movers_own_numbering_kept_per_player(open_page, make_user):
    """The switch beside "Moves" writes every step in its mover's own numbering (as the
    record's notation has it) in the replay and the match's log; it is kept for this
    player in this browser, not for another player."""
    from playwright.sync_api import expect

    match = finished_match(make_user, "long_nardy", seed=5)
    make_user("other", password=PASSWORD)
    page = open_page()
    login(page, "alice")
    open_replay(page, match.pk)
    moves = api_get(page, f"matches/{match.pk}/games/1/moves/")
    black = next(t for t in moves if t["side"] == "black" and t["steps"] and not t["passed"])
    line = page.locator(f"#replay-moves li[data-turn='{black['number']}']")
    assert black["notation"] not in line.inner_text()   # White's numbering: alice's board
    page.check("#own-numbering")
    expect(line).to_contain_text(f": {black['notation']}")
    page.reload()
    at_index(page, 0)
    expect(page.locator("#own-numbering")).to_be_checked()
    expect(line).to_contain_text(f": {black['notation']}")
    page.evaluate("hash => { location.hash = hash; }", f"#/match/{match.pk}")
    expect(page.locator(f"#log .turn[data-turn='{black['number']}']")).to_contain_text(
        f": {black['notation']}")
    # Another player in the same browser has the viewer's numbering until asked.
    page.click("#logout")
    login(page, "other")
    open_replay(page, match.pk)
    expect(page.locator("#own-numbering")).not_to_be_checked()
