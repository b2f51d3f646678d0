"""POST analysis/legal-plays/: every opening roll, both colours, tricky boards — primes
(R14-R18), bearing off (R25-R27), game-end edges (R19/R21 with R28) — and impossible boards.

The tricky boards are given in the mover's own numbering and asked in both perspectives:
the answers must be identical (R2, R33). Every returned play is replayed here, die by die,
against the rules as RULES.md words them. Garbage bodies: tests/api/test_bad_input.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support import ANALYSIS, assert_error

pytestmark = pytest.mark.django_db
OPENING = {24: 15, 12: -15}

Result = tuple[tuple[tuple[int, int], ...], int, int]


def board(points: dict[Any, int] | None = None, perspective: str = "white", mine: int = 0,
          theirs: int = 0) -> dict[str, Any]:
    """The API's board shape; point keys may be ints or strings."""
    return {"perspective": perspective,
            "points": {str(p): n for p, n in (OPENING if points is None else points).items()},
            "off": {"mine": mine, "theirs": theirs}, "bar": {"mine": 0, "theirs": 0}}


def ask(api, points: dict[Any, int] | None, dice: tuple[int, int], *, first_turn: bool = False,
        perspective: str = "white", mine: int = 0, theirs: int = 0) -> dict[str, Any]:
    """The one analysis request: 200 and its body."""
    response = api.post(ANALYSIS, {"board": board(points, perspective, mine, theirs),
                                   "dice": list(dice), "first_turn": first_turn}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def opp(p: int) -> int:
    """R2: the opponent's number for a point."""
    return p + 12 if p <= 12 else p - 12


def result_boards(body: dict[str, Any]) -> set[Result]:
    """The plays' result boards as hashable (sorted points, off mine, off theirs)."""
    return {(tuple(sorted((int(p), n) for p, n in play["board"]["points"].items())),
             play["board"]["off"]["mine"], play["board"]["off"]["theirs"])
            for play in body["plays"]}


def as_result(points: dict[int, int], mine: int = 0, theirs: int = 0) -> Result:
    return (tuple(sorted((p, n) for p, n in points.items() if n)), mine, theirs)


def first_steps(body: dict[str, Any]) -> set[tuple[int, int, int]]:
    return {(p["steps"][0]["from"], p["steps"][0]["to"], p["steps"][0]["die"])
            for p in body["plays"] if p["steps"]}


# --- the opening ------------------------------------------------------------------------------


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@pytest.mark.parametrize("perspective", ["white", "black"])
@pytest.mark.parametrize("first_turn", [True, False])
@pytest.mark.parametrize("roll", ROLLS, ids=[f"{a}-{b}" for a, b in ROLLS])
def test_R11_R12_every_opening_roll(api, roll, first_turn, perspective):
    a, b = roll
    body = ask(api, None, roll, first_turn=first_turn, perspective=perspective)
    results = [play["board"]["points"] for play in body["plays"]]
    assert all(play["board"]["perspective"] == perspective for play in body["plays"])
    if a != b:  # one checker leaves the head and plays both dice (R10, R11)
        assert body["max_dice"] == 2
        assert results == [{"24": 14, str(24 - a - b): 1, "12": -15}]
        return
    expected = {
        # die: (max dice, resulting boards) — Black's head on our 12 blocks 18->12 etc.
        1: (4, [{"24": 14, "20": 1, "12": -15}]),
        2: (4, [{"24": 14, "16": 1, "12": -15}]),
        5: (4, [{"24": 14, "12": -15, "4": 1}]),
    }
    if first_turn:  # R12: 6-6, 4-4 and 3-3 let two checkers leave on the first turn
        expected |= {
            3: (4, [{"24": 13, "21": 1, "15": 1, "12": -15}, {"24": 13, "18": 2, "12": -15}]),
            4: (4, [{"24": 13, "16": 2, "12": -15}]),
            6: (2, [{"24": 13, "18": 2, "12": -15}]),
        }
    else:
        expected |= {
            3: (3, [{"24": 14, "15": 1, "12": -15}]),
            4: (2, [{"24": 14, "16": 1, "12": -15}]),
            6: (1, [{"24": 14, "18": 1, "12": -15}]),
        }
    max_dice, boards = expected[a]
    assert body["max_dice"] == max_dice
    key = lambda points: json.dumps(points, sort_keys=True)  # noqa: E731
    assert sorted(map(key, results)) == sorted(map(key, boards))
    for play in body["plays"]:
        assert len(play["steps"]) == max_dice
        assert all(s["die"] == a and s["from"] - s["to"] == a for s in play["steps"])


def test_no_legal_move_gives_no_plays(api):
    body = ask(api, {8: 15, 7: -3, 6: -3, 5: -3, 4: -3, 3: -2, 2: -1}, (6, 6))
    assert body == {"max_dice": 0, "count": 0, "truncated": False, "plays": []}


def test_bearing_off_board_and_offsets(api):
    body = ask(api, {3: 2, 1: 1, 12: -15}, (6, 5), mine=12)
    assert body["max_dice"] == 2
    results = {json.dumps(p["board"], sort_keys=True) for p in body["plays"]}
    assert json.dumps({"perspective": "white", "points": {"1": 1, "12": -15},
                       "off": {"mine": 14, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}},
                           sort_keys=True) in results


# --- primes, bearing off and the end of a game, in both perspectives ---------------------


def _full_windows(board: dict[int, int]) -> set[int]:
    return {k for k in range(1, 20) if all(board.get(p, 0) > 0 for p in range(k, k + 6))}


def _ahead(board: dict[int, int], k: int) -> bool:
    lowest = min(opp(p) for p in range(k, k + 6))
    return any(n < 0 and opp(p) < lowest for p, n in board.items())


def replay(board: dict[int, int], steps: list[dict[str, int]], allowance: int) -> dict:
    """Apply steps one die at a time, asserting each is legal by the letter of the rules."""
    board = dict(board)
    left_head = 0
    for step in steps:
        src, dst, die = step["from"], step["to"], step["die"]
        assert board.get(src, 0) > 0, step
        if src == 24:
            left_head += 1
            assert left_head <= allowance, ("R11", step)
        before = _full_windows(board)
        board[src] -= 1
        if dst:
            assert src - dst == die, step
            assert board.get(dst, 0) >= 0, ("R6", step)
            board[dst] = board.get(dst, 0) + 1
            for k in _full_windows(board) - before:
                assert _ahead(board, k), ("R15-R18", k, step)
        else:
            assert not any(board.get(p, 0) > 0 for p in range(7, 25)), ("R25", step)
            assert die == src or (die > src and not any(
                board.get(p, 0) > 0 for p in range(src + 1, 25))), ("R26", step)
        board = {p: n for p, n in board.items() if n}
    return board


def ask_both(api, points, dice, **kw):
    """Ask in both perspectives; they must agree; replay every play."""
    white = ask(api, points, dice, perspective="white", **kw)
    black = ask(api, points, dice, perspective="black", **kw)
    strip = lambda body: sorted(  # noqa: E731
        (tuple((s["from"], s["to"], s["die"]) for s in p["steps"]),
         tuple(sorted(p["board"]["points"].items())), tuple(p["board"]["off"].items()))
        for p in body["plays"])
    assert white["max_dice"] == black["max_dice"]
    assert strip(white) == strip(black)
    assert all(p["board"]["perspective"] == "black" for p in black["plays"])
    allowance = 2 if kw.get("first_turn") and dice[0] == dice[1] and dice[0] in (3, 4, 6) else 1
    for play in white["plays"]:
        final = replay(points, play["steps"], allowance)
        assert {int(p): n for p, n in play["board"]["points"].items()} == final
        assert len(play["steps"]) == white["max_dice"] or play["board"]["off"]["mine"] == 15
    assert len(result_boards(white)) == len(white["plays"])  # one play per position
    return white


def test_R16_prime_at_an_intermediate_stop_is_refused(api):
    # White 6..2 and one on 10; Black all on White's 9 (opp 21): nothing is ahead of the
    # window 2..7 (opp 14..19). 10/9 is blocked, 10/7 builds the prime, so the checker
    # on 10 cannot play 10/7/6 — even though the final board would have no prime.
    points = {10: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -15}
    body = ask_both(api, points, (3, 1))
    assert body["max_dice"] == 2
    results = result_boards(body)
    assert as_result({6: 2, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -15}) not in results
    # 6/5 first opens the window: then 10/7 is fine.
    assert as_result({7: 1, 5: 2, 4: 1, 3: 1, 2: 1, 1: 9, 9: -15}) in results
    assert (10, 7, 3) not in first_steps(body)


def test_R15_the_same_prime_is_allowed_with_an_opposing_checker_ahead(api):
    # As above, but one Black checker on White's 20 (opp 8 < 14): the prime is legal.
    points = {10: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -14, 20: -1}
    body = ask_both(api, points, (3, 1))
    assert as_result({6: 2, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -14, 20: -1}) in result_boards(body)
    assert (10, 7, 3) in first_steps(body)


def test_R15_a_checker_on_the_near_side_of_the_prime_is_not_ahead(api):
    # Black on White's 8 (opp 20) is behind the window 2..7 (opp 14..19): still refused.
    points = {10: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -14, 8: -1}
    body = ask_both(api, points, (3, 1))
    assert as_result({6: 2, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -14, 8: -1}) not in result_boards(
        body)


def test_R15_a_borne_off_opponent_checker_is_not_ahead(api):
    # Black: 14 on White's 9 and one borne off; nothing on the board ahead of 2..7.
    points = {10: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 9, 9: -14}
    body = ask_both(api, points, (3, 1), theirs=1)
    assert (10, 7, 3) not in first_steps(body)


def test_R18_seam_prime_is_never_legal_even_with_checkers_everywhere_ahead(api):
    # White 16,15,14,13,11,10; a 4 from 16 to 12 would fill 10..15 (12 and 13 inside).
    # Black has checkers on White's 17..23 (opp 5..11) and 1..6: no use, nothing is
    # below opp 1.
    points = {16: 1, 15: 1, 14: 1, 13: 1, 11: 1, 10: 1, 9: 9,
              23: -2, 22: -2, 21: -2, 20: -2, 19: -2, 18: -2, 17: -1, 5: -1, 3: -1}
    body = ask_both(api, points, (4, 2))
    for play in body["plays"]:
        board = {int(p): n for p, n in play["board"]["points"].items()}
        assert not {8, 9, 10, 11, 12} & _full_windows(board), play
    assert (16, 12, 4) not in first_steps(body)
    assert (14, 12, 2) in first_steps(body)  # 14 empties: no window is full


def test_R17_R18_extending_a_prime_to_seven_is_judged(api):
    # White's prime 24..19 stands. Landing on 18 creates the new window 18..23 (opp 6..11).
    base = {24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 1: 3}
    # (a) Black on White's 17 (opp 5) is ahead of 18..23: 19/18 and 20/18 are fine.
    body = ask_both(api, {**base, 17: -1, 10: -14}, (2, 1))
    assert {(19, 18, 1), (20, 18, 2)} <= first_steps(body)
    assert as_result({24: 2, 23: 2, 22: 2, 21: 2, 20: 1, 19: 2, 18: 1, 17: -1, 10: -14, 1: 3},
                     ) not in result_boards(body)  # 20/18 alone would leave a die unplayed
    assert any({int(p) for p, n in play["board"]["points"].items() if n > 0} >= set(
        range(18, 25)) for play in body["plays"])
    # (b) Black on White's 5 (opp 17) and 10 (opp 22): nothing ahead -> no landing on 18
    # while 19..23 stand.
    body = ask_both(api, {**base, 5: -1, 10: -14}, (2, 1))
    assert not {(19, 18, 1), (20, 18, 2)} & first_steps(body)
    for play in body["plays"]:
        board = {int(p): n for p, n in play["board"]["points"].items()}
        assert 18 not in _full_windows(board)


def test_R17_existing_prime_stays_and_may_be_rearranged(api):
    # White's prime 7..2 exists with nothing ahead (Black only on White's 9). Moving
    # spare checkers inside it creates no new window, so it is allowed.
    points = {7: 2, 6: 1, 5: 1, 4: 1, 3: 2, 2: 1, 1: 7, 9: -15}
    body = ask_both(api, points, (4, 1))
    results = result_boards(body)
    assert as_result({7: 1, 6: 1, 5: 1, 4: 1, 3: 2, 2: 2, 1: 7, 9: -15}) in results  # 7/3/2
    assert as_result({7: 1, 6: 2, 4: 1, 3: 2, 2: 1, 1: 8, 9: -15}) in results  # 7/6 5/1


def test_R14_R18_five_in_a_row_is_always_allowed(api):
    # Black only on White's 1 (opp 13): nothing is ahead of any window in 13..24.
    points = {24: 11, 23: 1, 22: 1, 21: 1, 16: 1, 1: -15}
    body = ask_both(api, points, (4, 1))
    assert as_result({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 15: 1, 1: -15}) in result_boards(body)


def test_R18_a_wall_with_a_gap_is_allowed_but_filling_the_gap_is_not(api):
    points = {24: 6, 23: 1, 22: 1, 21: 1, 20: 1, 18: 1, 17: 1, 16: 1, 15: 2, 1: -15}
    body = ask_both(api, points, (5, 3))
    results = result_boards(body)
    # 18/15 and 20/15: the walls 24..21 and 17..15 with gaps.
    assert as_result({24: 6, 23: 1, 22: 1, 21: 1, 17: 1, 16: 1, 15: 4, 1: -15}) in results
    # 24/19 with the 5 would fill the gap: 24..15 all taken, nothing ahead -> never.
    for play in body["plays"]:
        board = {int(p): n for p, n in play["board"]["points"].items()}
        assert not _full_windows(board), play


def test_R26_bearing_off_over_roll_and_ambiguity(api):
    body = ask_both(api, {5: 2, 3: 1, 12: -15}, (6, 4), mine=12)
    assert body["max_dice"] == 2
    assert result_boards(body) == {as_result({3: 1, 1: 1, 12: -15}, mine=13)}
    body = ask_both(api, {5: 2, 3: 1, 12: -15}, (6, 5), mine=12)
    assert result_boards(body) == {as_result({3: 1, 12: -15}, mine=14)}


def test_R25_R26_R27_home_with_an_opposing_checker(api):
    # White 6 x2 (13 off), Black on White's 4: 6/off only, the 2 cannot play (R27, R6).
    body = ask_both(api, {6: 2, 4: -1, 20: -14}, (6, 2), mine=13)
    assert body["max_dice"] == 1
    assert result_boards(body) == {as_result({6: 1, 4: -1, 20: -14}, mine=14)}


def test_R25_the_die_that_brings_the_last_checker_home_lets_the_next_bear_off(api):
    body = ask_both(api, {8: 1, 2: 2, 12: -15}, (6, 2), mine=12)
    assert body["max_dice"] == 2
    assert result_boards(body) == {as_result({2: 2, 12: -15}, mine=13)}


def test_R28_last_checker_ends_the_play_with_a_die_left(api):
    body = ask_both(api, {1: 1, 12: -15}, (6, 5), mine=14)
    assert [[(s["from"], s["to"], s["die"]) for s in p["steps"]] for p in body["plays"]] == [
        [(1, 0, 6)]]
    assert body["plays"][0]["board"]["off"] == {"mine": 15, "theirs": 0}


def test_R12_first_turn_flag_in_analysis_for_black(api):
    body = ask_both(api, {24: 15, 12: -15}, (6, 6), first_turn=True)
    assert body["max_dice"] == 2
    assert result_boards(body) == {as_result({24: 13, 18: 2, 12: -15})}


def test_analysis_max_dice_counts_the_two_dice_play_that_exists(api):
    # Last White checker on 2, roll 2-1: 2/1 then 1/off is a legal play of both dice
    # (R19), so the most dice a legal play uses is 2, whatever the status of 2/off.
    body = ask(api, {2: 1, 12: -15}, (2, 1), mine=14)
    assert body["max_dice"] == 2, body
    assert all(len(p["steps"]) == 2 for p in body["plays"]), body


def test_a_finished_board_has_no_plays(api):
    body = ask(api, {12: -15}, (3, 1), mine=15)
    assert body == {"max_dice": 0, "count": 0, "truncated": False, "plays": []}


# --- impossible boards ------------------------------------------------------------------------


@pytest.mark.parametrize("payload, field", [
    ({"board": board({"24": 14, "12": -15}), "dice": [3, 1]}, "board"),  # 14 + 0 off
    ({"board": board({"24": 15, "12": -14}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": 15, "12": -15}, mine=1), "dice": [3, 1]}, "board"),
    ({"board": board({"25": 15, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"x": 15, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": 16, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": "15", "12": -15}, perspective="red"), "dice": [3, 1]}, "board"),
    ({"board": board({"24": 15, "12": -15, "1": -1}), "dice": [3, 1]}, "board"),  # 16 Black
    ({"board": board(theirs=1), "dice": [3, 1]}, "board"),
    ({"board": board(mine=-1), "dice": [3, 1]}, "board"),
    ({"board": board(mine=15), "dice": [3, 1]}, "board"),
    ({"board": board({"0": 15, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": 15, "12": -15, "13": 0, "1": 1}), "dice": [3, 1]}, "board"),
    ({"board": {"perspective": "white", "points": {"24": 15, "12": -15}}, "dice": [3, 1]},
     "board"),
    ({"board": {**board(), "points": [15]}, "dice": [3, 1]}, "board"),
    ({"board": board(), "dice": [7, 1]}, "dice"),
    ({"board": board(), "dice": [0, 1]}, "dice"),
    ({"board": board(), "dice": [3]}, "dice"),
    ({"board": board(), "dice": [3, 1, 2]}, "dice"),
    ({"board": board(), "dice": "31"}, "dice"),
    ({"dice": [3, 1]}, "board"),
])
def test_impossible_boards_and_dice_are_400(api, payload, field):
    error = assert_error(api.post(ANALYSIS, payload, format="json"), 400, "validation_error")
    assert field in error["details"]


def test_both_colours_on_one_point_is_400(api):
    raw = ('{"board": {"perspective": "white", "points": {"24": 15, "12": -15, "12": 3},'
           ' "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}, "dice": [3, 1]}')
    response = api.generic("POST", ANALYSIS, raw, content_type="application/json")
    assert_error(response, 400, "validation_error")
