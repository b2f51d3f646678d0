"""POST analysis/legal-plays/: every opening roll, both colours, and impossible boards."""

from __future__ import annotations

import json

import pytest

from tests.conftest import assert_error

pytestmark = pytest.mark.django_db
URL = "/api/v1/analysis/legal-plays/"
OPENING = {"24": 15, "12": -15}


def board(points=None, perspective="white", mine=0, theirs=0):
    return {"perspective": perspective, "points": points or OPENING,
            "off": {"mine": mine, "theirs": theirs}, "bar": {"mine": 0, "theirs": 0}}


def ask(api, dice, first_turn=False, **board_args):
    response = api.post(URL, {"board": board(**board_args), "dice": list(dice),
                              "first_turn": first_turn}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@pytest.mark.parametrize("perspective", ["white", "black"])
@pytest.mark.parametrize("first_turn", [True, False])
@pytest.mark.parametrize("roll", ROLLS, ids=[f"{a}-{b}" for a, b in ROLLS])
def test_R11_R12_every_opening_roll(api, roll, first_turn, perspective):
    a, b = roll
    body = ask(api, roll, first_turn, perspective=perspective)
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
    body = ask(api, (6, 6), points={"8": 15, "7": -3, "6": -3, "5": -3, "4": -3, "3": -2,
                                    "2": -1})
    assert body == {"max_dice": 0, "count": 0, "truncated": False, "plays": []}


def test_bearing_off_board_and_offsets(api):
    body = ask(api, (6, 5), points={"3": 2, "1": 1, "12": -15}, mine=12)
    assert body["max_dice"] == 2
    results = {json.dumps(p["board"], sort_keys=True) for p in body["plays"]}
    assert json.dumps({"perspective": "white", "points": {"1": 1, "12": -15},
                       "off": {"mine": 14, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}},
                           sort_keys=True) in results


@pytest.mark.parametrize("payload, field", [
    ({"board": board({"24": 14, "12": -15}), "dice": [3, 1]}, "board"),  # 14 + 0 off
    ({"board": board({"24": 15, "12": -14}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": 15, "12": -15}, mine=1), "dice": [3, 1]}, "board"),
    ({"board": board({"25": 15, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"x": 15, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": 16, "12": -15}), "dice": [3, 1]}, "board"),
    ({"board": board({"24": "15", "12": -15}, perspective="red"), "dice": [3, 1]}, "board"),
    ({"board": board(), "dice": [7, 1]}, "dice"),
    ({"board": board(), "dice": [0, 1]}, "dice"),
    ({"board": board(), "dice": [3]}, "dice"),
    ({"board": board(), "dice": [3, 1, 2]}, "dice"),
    ({"board": board(), "dice": "31"}, "dice"),
    ({"dice": [3, 1]}, "board"),
])
def test_impossible_boards_and_dice_are_400(api, payload, field):
    error = assert_error(api.post(URL, payload, format="json"), 400, "validation_error")
    assert field in error["details"]


def test_both_colours_on_one_point_is_400(api):
    raw = ('{"board": {"perspective": "white", "points": {"24": 15, "12": -15, "12": 3},'
           ' "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}, "dice": [3, 1]}')
    response = api.generic("POST", URL, raw, content_type="application/json")
    assert_error(response, 400, "validation_error")
