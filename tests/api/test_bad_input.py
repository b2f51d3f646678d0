"""API.md: "A request never gets a 500 for bad input" — odd bodies and queries, each
with the exact answer it gets, and a refusal changes nothing."""

from __future__ import annotations

import pytest

from games.models import Event, Match, Turn
from tests.support import ANALYSIS, MATCHES, assert_error, start_match

pytestmark = pytest.mark.django_db

GOOD_BOARD = {"perspective": "white", "points": {"24": 15, "12": -15},
              "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 0, "theirs": 0}}


def snapshot(match_id: int, client) -> tuple:
    """What a refused call must leave as it was."""
    return (client.get(f"{MATCHES}{match_id}/").json(),
            Event.objects.filter(match_id=match_id).count(), Match.objects.count(),
            list(Turn.objects.filter(game__match_id=match_id).values_list("steps", flat=True)))


# --- analysis --------------------------------------------------------------------------------

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
    # "\u00b2" (SUPERSCRIPT TWO) is a digit to str.isdigit but not to int(): no 500.
    {"board": {**GOOD_BOARD, "points": {"\u00b2": 15, "12": -15}}, "dice": [3, 1]},
    # "\u0661" (ARABIC-INDIC DIGIT ONE) is not one of the keys "1".."24" (API.md board).
    {"board": {**GOOD_BOARD, "points": {"24": 14, "12": -15, "\u0661": 1}}, "dice": [3, 1]},
]


@pytest.mark.parametrize("body", ANALYSIS_BODIES, ids=range(len(ANALYSIS_BODIES)))
def test_analysis_garbage_is_a_400_validation_error(api, body):
    api.raise_request_exception = False  # a server error should come back as a 500 answer
    assert_error(api.post(ANALYSIS, body, format="json"), 400, "validation_error")


# --- create ----------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    {}, {"length": 2}, {"length": 0}, {"length": -1}, {"length": 9}, {"length": "abc"},
    {"length": None}, {"length": [1]}, {"length": {"n": 1}}, {"length": 1.5},
    {"length": 10**30}, {"length": True},
    {"length": 1, "color": "red"}, {"length": 1, "color": None}, {"length": 1, "color": 1},
    {"length": 1, "hotseat": "perhaps"}, {"length": 1, "hotseat": None},
    {"length": 1, "hotseat": [True]},
    {"length": 1, "opponent": "nobody"}, {"length": 1, "opponent": "alice"},
    {"length": 1, "opponent": {"u": "bob"}}, {"length": 1, "opponent": ["bob"]},
    {"length": 1, "opponent": "x" * 5000}, {"length": 1, "opponent": "bob\x00"},
    {"length": 1, "opponent": "bob", "hotseat": True},
])
def test_create_bad_input_is_400_and_creates_nothing(alice, bob, body):
    count = Match.objects.count()
    assert_error(alice.client.post(MATCHES, body, format="json"), 400, "validation_error")
    assert Match.objects.count() == count


# --- moves and expected_version --------------------------------------------------------------

MOVE_BODIES = [
    {}, {"steps": []}, {"steps": None}, {"steps": "24/19"}, {"steps": {"from": 24, "to": 19}},
    {"steps": [None]}, {"steps": [[24, 19]]}, {"steps": ["24/19"]}, {"steps": [{}]},
    {"steps": [{"from": 24}]}, {"steps": [{"to": 19}]},
    {"steps": [{"from": "x", "to": 19}]}, {"steps": [{"from": 24.5, "to": 19}]},
    {"steps": [{"from": 10**30, "to": 19}]}, {"steps": [{"from": -10**30, "to": 19}]},
    {"steps": [{"from": 24, "to": -1}]}, {"steps": [{"from": 24, "to": 25}]},
    {"steps": [{"from": 24, "to": 19, "die": 0, "hit": False}]}, {"steps": [{"from": 24,
        "to": 19, "die": 7, "hit": False}]},
    {"steps": [{"from": 24, "to": 19, "die": "five", "hit": False}]},
    {"steps": [{"from": 24, "to": 19, "die": [5], "hit": False}]},
    {"steps": [{"from": 24, "to": 19, "die": 4.5, "hit": False}]},
    {"steps": [{"from": {"p": 24}, "to": 19}]}, {"steps": [{"from": None, "to": 19}]},
    {"steps": [{"from": True, "to": 19}]},
    {"steps": [{"from": 24, "to": 19}] * 1000},
]
# Well-formed steps that no die makes (24/24, 19/24, 24/19 with a 3) are the rules' to
# refuse: 400 illegal_move, invalid_step (R4), in tests/games/test_match_flow.py.
@pytest.fixture
def rolled(alice, bob, scripted_dice) -> int:
    """A match where White has rolled 5-3 and is to move."""
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 3)
    alice.ok(match_id, "roll")
    alice.client.raise_request_exception = False
    return match_id


@pytest.mark.parametrize("body", MOVE_BODIES, ids=range(len(MOVE_BODIES)))
def test_moves_garbage_is_400_validation_error_and_changes_nothing(alice, rolled, body):
    before = snapshot(rolled, alice.client)
    assert_error(alice.post(rolled, "moves", body), 400, "validation_error")
    assert snapshot(rolled, alice.client) == before


def _ready_for(action, alice, bob, scripted_dice):
    """A match where ``action`` by the returned seat would succeed."""
    if action == "join":
        return alice.create(length=1, opponent="bob", color="white").json()["id"], bob
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    if action == "rematch":
        alice.ok(match_id, "resign")
    return match_id, alice


@pytest.mark.parametrize("payload", [
    {"expected_version": "v"}, {"expected_version": 1.5}, {"expected_version": -1},
    {"expected_version": [1]}, {"expected_version": {"v": 1}}, {"expected_version": True},
    {"expected_version": "1" * 2000},
])
@pytest.mark.parametrize("action", ["join", "roll", "resign", "rematch"])
def test_garbage_expected_version_is_400_and_changes_nothing(alice, bob, scripted_dice,
                                                            action, payload):
    match_id, who = _ready_for(action, alice, bob, scripted_dice)
    before = snapshot(match_id, who.client)
    scripted_dice(4, 2)
    assert_error(who.post(match_id, action, payload), 400, "validation_error")
    assert snapshot(match_id, who.client) == before


# --- queries ---------------------------------------------------------------------------------


@pytest.mark.parametrize("query, status, code", [
    # DRF's page number pagination: a page that is not a page number of the list.
    ("page=abc", 404, "not_found"), ("page=0", 404, "not_found"),
    ("page=-1", 404, "not_found"), ("page=99999", 404, "not_found"),
    ("page=1.5", 404, "not_found"), ("page=" + "9" * 50, 404, "not_found"),
    ("status=bogus", 400, "validation_error"), ("status=OPEN", 400, "validation_error"),
    ("player=" + "x" * 5000, 400, "validation_error"),
    ("player=a%00b", 400, "validation_error"), ("perspective=red", 400, "validation_error"),
])
def test_list_garbage_queries_are_refused(api, alice, query, status, code):
    alice.create(length=1)
    assert_error(api.get(f"{MATCHES}?{query}"), status, code)


@pytest.mark.parametrize("query", ["page_size=abc", "page_size=-5", "page_size=" + "9" * 50])
def test_list_garbage_page_size_falls_back_to_the_default_page(api, alice, query):
    seek = alice.create(length=1).json()["id"]
    response = api.get(f"{MATCHES}?{query}")
    assert response.status_code == 200, response.content
    assert [m["id"] for m in response.json()["results"]] == [seek]


def test_list_repeated_status_takes_the_last(api, alice, bob):
    seek = alice.create(length=1).json()["id"]
    hotseat = bob.create(length=1, hotseat=True).json()["id"]
    response = api.get(f"{MATCHES}?status=open&status=active")
    assert response.status_code == 200, response.content
    assert [m["id"] for m in response.json()["results"]] == [hotseat]
    response = api.get(f"{MATCHES}?status=active&status=open")
    assert [m["id"] for m in response.json()["results"]] == [seek]


@pytest.mark.parametrize("query", ["after=x", "after=abc", "after=-1", "after=1.5", "after=1e3",
                                   f"after={10**30}", "limit=0", "limit=many"])
def test_events_query_garbage_is_400(alice, bob, scripted_dice, api, query):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    assert_error(api.get(f"{MATCHES}{match_id}/events/?{query}"), 400, "validation_error")


def test_events_empty_after_is_the_whole_log(alice, bob, scripted_dice, api):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    url = f"{MATCHES}{match_id}/events/"
    response = api.get(f"{url}?after=")
    assert response.status_code == 200, response.content
    assert response.json() == api.get(url).json()
