"""Hypothesis garbage against analysis and moves: only 4xx, always in the one error shape."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import start_match

pytestmark = pytest.mark.django_db

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                         st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=12)
point_keys = st.one_of(st.integers(-2, 27).map(str), st.text(max_size=3))
counts = st.one_of(st.integers(-20, 20), json_scalars)
boards = st.one_of(
    json_values,
    st.fixed_dictionaries({
        "perspective": st.one_of(st.sampled_from(["white", "black"]), json_scalars),
        "points": st.one_of(st.dictionaries(point_keys, counts, max_size=26), json_values),
        "off": st.one_of(st.fixed_dictionaries({"mine": counts, "theirs": counts}),
                         json_values),
    }),
)
dice = st.one_of(st.lists(st.integers(-1, 8), max_size=4), json_values)
steps = st.one_of(
    st.lists(st.fixed_dictionaries(
        {"from": st.one_of(st.integers(-2, 27), json_scalars),
         "to": st.one_of(st.integers(-2, 27), json_scalars)},
        optional={"die": st.one_of(st.integers(-1, 8), json_scalars)}), max_size=5),
    json_values)
FUZZ = settings(max_examples=150, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def assert_answer(response) -> None:
    assert response.status_code < 500, response.content
    body = response.json()
    if response.status_code >= 400:
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
        assert isinstance(body["error"]["code"], str) and body["error"]["message"]


def test_garbage_boards_against_analysis(api):
    @FUZZ
    @given(board=boards, dice=dice, first_turn=json_values)
    def run(board, dice, first_turn):
        response = api.post("/api/v1/analysis/legal-plays/",
                            {"board": board, "dice": dice, "first_turn": first_turn},
                            format="json")
        assert_answer(response)

    run()


def test_garbage_steps_against_moves(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(5, 5)
    alice.ok(match_id, "roll")  # 5-5: White is to move, the state stays put on refusals

    @FUZZ
    @given(steps=steps, version=st.one_of(st.none(), st.integers(-3, 10**12), json_scalars))
    def run(steps, version):
        body = {"steps": steps} if version is None else {"steps": steps,
                                                         "expected_version": version}
        assert_answer(alice.post(match_id, "moves", body))

    run()
