"""``state.resign`` says what resigning now would cost, as the server
then scores it (R30: a mars while no checker of the resigning side is off)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import Seat, start_match

pytestmark = pytest.mark.django_db


def test_the_state_says_what_resigning_costs_and_the_resignation_agrees(
        alice: Seat, bob: Seat, scripted_dice: Any) -> None:
    match = start_match(alice, bob, length=3, script=scripted_dice)
    match_id = match["id"]
    # At the start nobody is off: a resignation concedes a mars (R30), 2 points.
    white = alice.get(match_id)["state"]["resign"]
    black = bob.get(match_id)["state"]["resign"]
    # White, to roll, may offer a single instead; Black, not in turn, may not.
    assert white == {"side": "white", "points": 2, "result": "mars",
                     "offers": [{"result": "single", "points": 1}]}
    assert black == {"side": "black", "points": 2, "result": "mars", "offers": []}
    finished = bob.ok(match_id, "resign")
    assert finished["score"] == {"white": 2, "black": 0}


def test_a_spectator_and_a_list_have_no_resign_cost(alice: Seat, bob: Seat, seat: Any,
                                                    scripted_dice: Any) -> None:
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    carol = seat("carol")
    assert carol.get(match_id)["state"]["resign"] is None
    listed = alice.client.get("/api/v1/matches/", {"player": "alice"}).json()["results"]
    assert listed[0]["state"]["resign"] is None
