"""API.md: "A request never gets a 500 for bad input" — odd bodies and queries."""

from __future__ import annotations

import pytest

from tests.review.helpers import ANALYSIS
from tests.support import start_match

pytestmark = pytest.mark.django_db

GOOD_BOARD = {"perspective": "white", "points": {"24": 15, "12": -15},
              "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}

ANALYSIS_BODIES = [
    {"board": {**GOOD_BOARD, "points": {"24": 15.5, "12": -15}}, "dice": [3, 1]},
    {"board": {**GOOD_BOARD, "points": {"24": True, "12": -15}}, "dice": [3, 1]},
    {"board": {**GOOD_BOARD, "points": {"24": 10**30, "12": -15}}, "dice": [3, 1]},
    {"board": {**GOOD_BOARD, "points": {" 24": 15, "12": -15}}, "dice": [3, 1]},
    {"board": {**GOOD_BOARD, "points": None}, "dice": [3, 1]},
    {"board": {**GOOD_BOARD, "off": None}, "dice": [3, 1]},
    {"board": {**GOOD_BOARD, "off": {"mine": "a", "theirs": 0}, "bar": {"mine": 0,
        "theirs": 0}}, "dice": [3, 1]},
    {"board": GOOD_BOARD, "dice": [True, 1]},
    {"board": GOOD_BOARD, "dice": [None, 1]},
    {"board": GOOD_BOARD, "dice": [3, 1], "first_turn": "perhaps"},
    {"board": "P1-AAAB", "dice": [3, 1]},
    {"board": GOOD_BOARD, "dice": {"a": 3}},
]


@pytest.mark.parametrize("body", ANALYSIS_BODIES, ids=range(len(ANALYSIS_BODIES)))
def test_analysis_garbage_is_a_400_validation_error(api, body):
    api.raise_request_exception = False  # a server error should come back as a 500 answer
    response = api.post(ANALYSIS, body, format="json")
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert response.json()["error"]["code"] == "validation_error"


def test_analysis_superscript_digit_point_key_is_a_400_not_a_500(api):
    api.raise_request_exception = False
    body = {"board": {**GOOD_BOARD, "points": {"\u00b2": 15, "12": -15}}, "dice": [3, 1]}
    response = api.post(ANALYSIS, body, format="json")
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert response.json()["error"]["code"] == "validation_error"


def test_analysis_non_ascii_digit_is_not_a_point_number(api):
    # "\u0661" is ARABIC-INDIC DIGIT ONE: not one of the keys "1".."24" (API.md board shape).
    body = {"board": {**GOOD_BOARD, "points": {"24": 14, "12": -15, "\u0661": 1}},
            "dice": [3, 1]}
    response = api.post(ANALYSIS, body, format="json")
    assert response.status_code == 400, (response.status_code, response.content[:300])


MOVE_BODIES = [
    {"steps": [{"from": 24, "to": 20, "die": 4.5, "hit": False}]},
    {"steps": [{"from": 10**30, "to": 20}]},
    {"steps": [{"from": 24, "to": -1}]},
    {"steps": [{"from": 24, "to": 20, "die": 0, "hit": False}]},
    {"steps": [[24, 20]]},
    {"steps": ["24/20"]},
    {"steps": [{"from": 24, "to": 20}], "expected_version": 10**30},
]


@pytest.mark.parametrize("body", MOVE_BODIES, ids=range(len(MOVE_BODIES)))
def test_moves_garbage_is_a_4xx_in_the_error_shape(alice, bob, scripted_dice, body):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(4, 2)
    rolled = alice.ok(match_id, "roll")
    response = alice.post(match_id, "moves", body)
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    assert set(response.json()["error"]) == {"code", "message", "details"}
    assert alice.get(match_id)["version"] == rolled["version"]


@pytest.mark.parametrize("query", [{"after": "x"}, {"after": 10**30}, {"limit": 0},
                                   {"limit": "many"}])
def test_events_query_garbage(alice, bob, scripted_dice, api, query):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    response = api.get(f"/api/v1/matches/{match_id}/events/", query)
    assert response.status_code in (200, 400), (response.status_code, response.content[:300])
