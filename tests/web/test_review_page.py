"""In a real chromium: the review beside the replay — each move's mark
and equity lost in the move list, the equity graph (a click on a point goes to that
turn), the best play drawn on the board on request, the luck of each roll, the summary
per side; and, without a review, "Analyse" for a player of the match, with its progress
until it is done."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from reviews import services as review_services
from reviews import tasks as review_tasks
from reviews.models import Analysis
from tests.web.conftest import elsewhere, shot
from tests.web.test_browser import api_get, login
from tests.web.test_replay import api_board, at_index, finished_match, open_replay, shown_board

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def no_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """Analyses are queued but not run: the test runs each (the task's own work)."""
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)


def analysed(make_user: Any, seed: int = 5) -> Any:
    match = finished_match(make_user, seed=seed)
    analysis = review_services.request_analysis(match_id=match.pk, user=match.white,
                                                 depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    return match


def test_marks_graph_best_play_luck_and_summary(open_page, make_user, no_queue):
    match = analysed(make_user)
    page = open_page(1280, 1000)
    open_replay(page, match.pk)
    page.wait_for_selector("#review-table")
    review = api_get(page, f"matches/{match.pk}/analysis/")["games"][0]
    turns = {t["number"]: t for t in review["turns"]}
    marked = {n for n, t in turns.items() if t["mark"]}
    assert marked, "a game played at random has marked moves"
    # Each move's mark and equity lost in the move list, as the review has them.
    for n, t in turns.items():
        li = page.locator(f'#replay-moves li[data-turn="{n}"]')
        assert li.get_attribute("data-mark") == (t["mark"] or "")
        if t["mark"]:
            assert li.locator(".mark").inner_text().strip().endswith(f"{t['loss']:.3f}")
        assert li.locator(".luck").count() == 1
    # The summary per side.
    table = page.locator("#review-table")
    for i, colour in enumerate(("white", "black")):
        cells = table.locator(f'td[data-side="{colour}"]')
        side = review["sides"][i]
        assert cells.nth(0).inner_text() == f"{side['error_rate']:.4f}"
        assert cells.nth(1).inner_text() == f"{side['rating']:.1f}"
        assert cells.nth(5).inner_text() == str(side["marks"]["blunder"])
    # The graph: a point per turn; a click on one goes to that turn.
    assert page.locator("#equity-graph circle[data-turn]").count() == len(turns)
    target = max(marked)
    page.locator(f'#equity-graph circle[data-turn="{target}"]').click()
    at_index(page, target)
    positions = api_get(page, f"matches/{match.pk}/games/1/positions/")
    assert shown_board(page) == api_board(positions[target]["board"])
    assert page.locator(f'#equity-graph circle.current[data-turn="{target}"]').count() == 1
    assert page.locator("#review-turn").get_attribute("data-turn") == str(target)
    assert "lost" in page.locator("#review-turn").inner_text()
    # A 1-point match: no match-winning chance anywhere, the page as before them.
    assert review["match"] is None and review["sides"][0]["mwc_lost"] is None
    assert all(t["mwc_lost"] is None and t["played"]["mwc"] is None for t in turns.values())
    assert "MWC" not in page.locator("#review").inner_text()
    assert page.locator("#review-mwc-lost, #review-match").count() == 0
    assert table.locator("tbody tr").count() == 7
    # The best play on request: the board before the turn, an arrow per step of it.
    best = turns[target]["best"][0]
    page.click("#review-best")
    page.wait_for_selector('#board[data-best="true"] svg .hint')
    assert shown_board(page) == api_board(positions[target - 1]["board"])
    hint = page.locator("#board svg .hint")
    assert hint.get_attribute("data-steps") == str(len(best["steps"]))
    arrows = hint.locator(".hint-arrow")
    assert arrows.count() == len(best["steps"])
    # In White's numbering (the board's): Long Nardy turns Black's point p into p ± 12 (R2).
    def white(point: int) -> int:
        if turns[target]["side"] == "white" or point in (0, 25):
            return point
        return point - 12 if point > 12 else point + 12

    def parse(text: str) -> tuple[int, int]:
        src, dst = text.rstrip("*").split("(")[0].split("/")
        return (25 if src == "bar" else int(src), 0 if dst == "off" else int(dst))

    drawn = [(int(arrows.nth(i).get_attribute("data-from")),
              int(arrows.nth(i).get_attribute("data-to"))) for i in range(arrows.count())]
    assert drawn == [tuple(map(white, parse(step))) for step in best["steps"]]
    assert page.locator("#review-best").get_attribute("aria-pressed") == "true"
    shot(page, "review")
    page.keyboard.press("ArrowLeft")   # still shown for the turn stepped to, if it has one
    at_index(page, target - 1)
    page.click("#review-best")
    page.wait_for_selector('#board[data-best="false"]')
    assert page.locator("#board svg .hint").count() == 0


def test_a_player_asks_for_the_review_and_sees_it_arrive(open_page, make_user, no_queue):
    match = finished_match(make_user, seed=6)
    spectator = open_page()
    open_replay(spectator, match.pk)
    spectator.wait_for_selector("#review[data-state=none]")
    assert spectator.locator("#review-ask").count() == 0   # not a player: no button
    page = open_page()
    login(page, "alice")
    open_replay(page, match.pk)
    page.wait_for_selector("#review[data-state=none]")
    page.click("#review-ask")
    page.wait_for_selector("#review[data-state=queued]")
    assert "queued" in page.locator("#review-state").inner_text()
    deadline = time.monotonic() + 10
    while not Analysis.objects.filter(match=match).exists():
        assert time.monotonic() < deadline, "no analysis was asked for"
        time.sleep(0.05)
    analysis = Analysis.objects.get(match=match)
    assert analysis.depth == review_services.DEFAULT_DEPTH
    # The depth the server chose is what it would run; here it runs at 0 plies, fast.
    Analysis.objects.filter(pk=analysis.pk).update(depth=0)
    assert elsewhere(review_tasks.run_analysis, analysis_id=analysis.pk) == "done"
    page.wait_for_selector("#review[data-state=done] #review-table", timeout=20_000)
    assert page.locator("#equity-graph circle[data-turn]").count() == len(
        api_get(page, f"matches/{match.pk}/analysis/")["games"][0]["turns"])


def test_a_backgammon_review_says_its_engine_and_shows_the_pr(open_page, make_user,
                                                              no_queue):
    """Backgammon reviewed by the field engine: the summary names it and shows each
    side's PR; a Long Nardy review names the project's network and has no PR row."""
    from computer import field

    match = finished_match(make_user, rules="backgammon", seed=5)
    analysis = review_services.request_analysis(match_id=match.pk, user=match.white,
                                                 depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    page = open_page(1280, 1000)
    open_replay(page, match.pk)
    page.wait_for_selector("#review-table")
    review = api_get(page, f"matches/{match.pk}/analysis/")["games"][0]
    engine = page.locator("#review-engine")
    if not field.available():  # the fallback: the network reviewed, no PR
        assert engine.get_attribute("data-engine") == "network"
        assert page.locator("#review-pr").count() == 0
        return
    assert review["engine"] == "field"
    assert engine.get_attribute("data-engine") == "field"
    assert "Open Sage" in engine.inner_text()
    cells = page.locator("#review-pr td")
    assert [cells.nth(i).inner_text() for i in range(2)] == [
        f"{side['pr']:.1f}" for side in review["sides"]]
    other = analysed(make_user, seed=6)
    open_replay(page, other.pk)
    page.wait_for_selector('#review-engine[data-engine="network"]')
    assert page.locator("#review-pr").count() == 0


def test_the_review_page_in_russian(open_page, make_user, no_queue):
    from tests.web.test_i18n import untranslated

    match = analysed(make_user)
    page = open_page(locale="ru-RU")
    assert page.locator("html").get_attribute("lang") == "ru"
    open_replay(page, match.pk)
    page.wait_for_selector("#review-table")
    page.keyboard.press("End")
    at_index(page, match.games.get(number=1).turns)
    page.click("#review-best")
    page.wait_for_selector('#board[data-best="true"]')
    assert page.locator("#review-h").inner_text() == "Разбор партии"
    # Not words to translate: the username, "JSON", the language switch's own name and
    # the keys' names (Enter, Home, End, Backspace).
    assert untranslated(page, {"API", "JSON", "alice", "English", "Enter", "Home", "End",
                                  "Backspace"}) == []


def test_stake_decisions_in_the_move_list(open_page, make_user, no_queue):
    """The review's stake decisions (S2-S4: the offer and its answer), each a line before
    the turn it came before, with the right choice and a mark."""
    from tests.games.test_record_round_trip import _play_randomly

    user = make_user("alice")
    match = _play_randomly(user, "backgammon", 3, length=3, stakes="cube", offer_at=3)
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    page = open_page()
    open_replay(page, match.pk)
    page.wait_for_selector("#review-table")
    review = api_get(page, f"matches/{match.pk}/analysis/")["games"][0]
    assert [s["question"] for s in review["stakes"]] == ["offer", "accept"]
    lines = page.locator("#replay-moves li.stake-review")
    assert lines.count() == 2
    assert "right:" in lines.nth(0).inner_text() and "answers" in lines.nth(1).inner_text()
    # Before turn 3: the turn lines around them are turns 2 and 3.
    assert page.locator("#replay-moves li.stake-review + li.turn").first.get_attribute(
        "data-turn") == "3"
    for i, decision in enumerate(review["stakes"]):
        assert lines.nth(i).get_attribute("data-mark") == (decision["mark"] or "")


PERCENT = r"(\d+\.\d+)\u00a0%"


def mwc_text(word: str, best: str, top: str) -> str:
    """The turn's MWC sentence: "MWC 48.1 % (best 51.3 %, −3.2)." or "MWC 51.3 % (the
    best).", the words in the page's language."""
    return rf"{word} {PERCENT} \((?:{best} {PERCENT}, \u2212(\d+\.\d+)|{top})\)\."


def near(shown: str, value: float) -> bool:
    """A percentage as the page writes it (1 decimal, 2 under 0.05) against the API's 0..1."""
    digits = len(shown.split(".")[1])
    return abs(float(shown) - 100 * value) <= 0.51 * 10 ** -digits


def test_match_winning_chances_in_a_longer_match(open_page, make_user, no_queue):
    """A game of a 3-point match: each side's MWC lost in the summary, the match's score,
    and each turn's MWC — the play made's, the best one's and what was lost — in words,
    in English and in Russian (figures checked against the API's, not fixed values: the
    computer's weights may change)."""
    from tests.games.test_record_round_trip import _play_randomly
    from tests.web.test_i18n import untranslated

    user = make_user("alice")
    match = _play_randomly(user, "long_nardy", 5, length=3)
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    page = open_page(1280, 1000)
    open_replay(page, match.pk)
    page.wait_for_selector("#review-table")
    review = api_get(page, f"matches/{match.pk}/analysis/")["games"][0]
    assert review["match"]["length"] == 3 and review["match"]["need"] == [3, 3]
    assert page.locator("#review-match").inner_text() == (
        "Match to 3 points: White needs 3, Black 3.")
    row = page.locator("#review-table #review-mwc-lost")
    assert row.locator("th").inner_text() == "MWC lost"
    for i, colour in enumerate(("white", "black")):
        shown = re.fullmatch(PERCENT, row.locator(f'td[data-side="{colour}"]').inner_text())
        assert shown, row.inner_text()
        assert near(shown.group(1), review["sides"][i]["mwc_lost"])
    english = mwc_text("MWC", "best", "the best")
    turns = {t["number"]: t for t in review["turns"]}
    moves = [t for t in turns.values() if t["kind"] == "move"]
    lost = max(moves, key=lambda t: t["mwc_lost"])
    assert lost["mwc_lost"] > 0, "a game played at random loses match-winning chance"
    best = next((t for t in moves if t["mwc_lost"] == 0), None)
    other = next((t for t in turns.values() if t["kind"] != "move"), None)
    for t in (lost, best, other):
        if t is None:
            continue
        page.locator(f'#equity-graph circle[data-turn="{t["number"]}"]').click()
        at_index(page, t["number"])
        text = page.locator("#review-turn").inner_text()
        if t["kind"] != "move":
            found = re.search(rf"MWC {PERCENT}\. Luck of the roll", text)
            assert found, text
            assert near(found.group(1), t["played"]["mwc"])
            continue
        found = re.search(english, text)
        assert found and text.index(found.group(0)) < text.index("Luck of the roll"), text
        assert near(found.group(1), t["played"]["mwc"])
        if t["mwc_lost"] > 0:
            assert near(found.group(2), t["best_mwc"]) and near(found.group(3), t["mwc_lost"])
        else:
            assert found.group(2) is None and "(the best)" in found.group(0)
    shot(page, "review-match")

    russian = open_page(1280, 1000, locale="ru-RU")
    open_replay(russian, match.pk)
    russian.wait_for_selector("#review-table")
    assert russian.locator("#review-match").inner_text() == (
        "Матч до 3 очков: белым нужно 3, чёрным — 3.")
    assert russian.locator("#review-mwc-lost th").inner_text() == "Потеря шанса на матч"
    russian.locator(f'#equity-graph circle[data-turn="{lost["number"]}"]').click()
    at_index(russian, lost["number"])
    text = russian.locator("#review-turn").inner_text()
    assert re.search(mwc_text("Шанс выиграть матч", "при лучшем ходе", "наибольший"),
                     text), text
    assert untranslated(russian, {"API", "JSON", "alice", "English", "Enter", "Home", "End",
                                  "Backspace"}) == []


def test_the_crawford_game_is_named(open_page, make_user, no_queue):
    """A 3-point match with stakes (S7): its second game, a side 1 away, is the Crawford
    game; the first is not."""
    from tests.games.test_record_round_trip import _play_randomly

    user = make_user("alice")
    match = _play_randomly(user, "backgammon", 3, length=3, stakes="cube")
    analysis = review_services.request_analysis(match_id=match.pk, user=user, depth=0)
    assert review_tasks.run_analysis(analysis.pk) == "done"
    page = open_page()
    games = api_get(page, f"matches/{match.pk}/analysis/")["games"]
    assert [g["match"]["after_crawford"] for g in games] == [False, True], games
    need = games[1]["match"]["need"]
    open_replay(page, match.pk, 2)
    page.wait_for_selector("#review-table")
    assert page.locator("#review-match").inner_text() == (
        f"Match to 3 points: White needs {need[0]}, Black {need[1]}. Crawford game.")
    open_replay(page, match.pk, 1)
    page.wait_for_function("() => document.querySelector('#review-match') && !document"
                           ".querySelector('#review-match').textContent.includes('Crawford')")
    assert page.locator("#review-match").inner_text() == (
        "Match to 3 points: White needs 3, Black 3.")
