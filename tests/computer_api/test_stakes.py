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
    seeded_dice.extend([6, 1])  # our roll-off die, then the computer's: we start
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


def _post_crawford(match_id: int, person: int, computer: int) -> None:
    """The match at ``person``–``computer`` (White–Black) of 7, its Crawford game past."""
    from games.models import Match

    Match.objects.filter(pk=match_id).update(score_white=person, score_black=computer,
                                             crawford_game=0)


def test_the_computer_takes_when_refusing_would_lose_the_match(
        immediate_tasks: None, seat: Any, seeded_dice: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """White needs 1 point of 7: a refusal (1 point, S4) loses the match, so Black takes
    whatever its estimate says (here: one that would refuse)."""
    monkeypatch.setattr("computer.stake_decision", lambda *a, **k: False)
    person = seat("person")
    seeded_dice.extend([6, 1])  # our roll-off die, then the computer's: we start
    match_id = person.create(computer="heuristic", length=7, stakes="cube",
                             color="white").json()["id"]
    _post_crawford(match_id, person=6, computer=2)
    person.ok(match_id, "roll")
    offered = person.post(match_id, "offer", {"expected_version": person.get(match_id)["version"]})
    assert offered.status_code == 200, offered.content
    answer = Event.objects.get(match_id=match_id, type__in=("accept", "refuse"))
    assert (answer.type, answer.data["side"]) == ("accept", "black")


def test_the_computer_does_not_raise_a_dead_cube(
        immediate_tasks: None, seat: Any, seeded_dice: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Black needs 1 point of 7: a single win at stake 1 takes the match, so it rolls
    instead of offering even when its estimate says offer; needing 2, it offers."""
    monkeypatch.setattr("computer.stake_decision", lambda *a, **k: True)
    offers = {}
    for needs in (1, 2):
        person = seat(f"person{needs}")
        seeded_dice.extend([1, 6])  # our roll-off die, then the computer's: it starts
        match_id = person.create(computer="heuristic", length=7, stakes="cube",
                                 color="white").json()["id"]
        _post_crawford(match_id, person=2, computer=7 - needs)
        person.ok(match_id, "roll")  # the computer won the roll-off and acts at once
        offers[needs] = Event.objects.filter(match_id=match_id, type="offer").count()
        assert Event.objects.filter(match_id=match_id, type="roll").exists() or offers[needs]
    assert offers == {1: 0, 2: 1}
