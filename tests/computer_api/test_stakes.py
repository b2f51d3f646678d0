"""The computer and stakes: it answers a person's offer (accept or refuse by the level's
rule, computer.stake_decision), and a cube match against it plays to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Event
from tests.computer_api.conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("level", ["random", "heuristic", "expert"])
def test_the_computer_answers_an_offer_and_plays_a_cube_match_to_the_end(
        immediate_tasks: None, seat: Any, seeded_dice: list[int], level: str) -> None:
    person = seat("person")
    seeded_dice.extend([1, 6])  # the computer's roll-off die, then ours: we start
    created = person.create(computer=level, length=3, stakes="cube", color="white")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    person.ok(match_id, "roll")
    state = person.get(match_id)["state"]
    assert (state["phase"], state["turn"], state["may_offer"]) == ("roll", "white", "both")

    offered = person.post(match_id, "offer", {"expected_version": person.get(match_id)["version"]})
    assert offered.status_code == 200, offered.content

    answer = Event.objects.get(match_id=match_id, type__in=("accept", "refuse"))
    assert answer.data["side"] == "black"
    assert answer.data["stake"] == (2 if answer.type == "accept" else 1)
    if level == "expert":  # its search makes a whole 3-point match long: the answer will do
        return
    final = play_out(person, match_id, random.Random(5))
    assert final["status"] == "finished"
