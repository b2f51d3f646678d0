"""The computer answers an offer to resign with a result at once: it refuses a single
where it is sure of a backgammon, accepts what takes the match, and accepts a single with
the race estimate of ``heuristic`` (which sees no gammons)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Event, Game, Match
from tests.support import set_board

pytestmark = pytest.mark.django_db(transaction=True)


def computer_to_answer(seat: Any, seeded_dice: list[int], level: str,
                       name: str = "person") -> tuple[Any, int]:
    """A 3-point backgammon match against ``level``: the computer won the roll-off and
    played it; then the board is set where the person (White, to roll) is sure to lose a
    backgammon: its 15 checkers on its 19 point (the computer's home), the computer's
    last two on its own 1 point, 13 borne off."""
    person = seat(name)
    seeded_dice.extend([1, 6])  # our roll-off die, then the computer's: it starts
    match_id = person.create(computer=level, length=3, rules="backgammon",
                             color="white").json()["id"]
    person.ok(match_id, "roll")
    state = person.get(match_id)["state"]
    assert (state["phase"], state["turn"]) == ("roll", "white")
    set_board(match_id, {19: 15, 24: -2}, off_theirs=13)
    assert person.get(match_id)["state"]["resign"]["offers"] == [
        {"result": "single", "points": 1}, {"result": "gammon", "points": 2}]
    return person, match_id


def answers(match_id: int) -> list[tuple[str, str]]:
    return [(e.data["answer"], e.data["result"]) for e in
            Event.objects.filter(match_id=match_id, type="resign_answer").order_by("seq")]


def test_the_computer_refuses_too_little_and_accepts_what_takes_the_match(
        immediate_tasks: None, seat: Any, seeded_dice: list[int]) -> None:
    person, match_id = computer_to_answer(seat, seeded_dice, "network")
    refused = person.ok(match_id, "resign", {"offer": "single"})
    # The answer came with the offer's commit: play goes on, White to roll.
    assert answers(match_id) == [("refuse", "single")]
    state = person.get(match_id)["state"]
    assert (state["phase"], state["turn"], state["resign_offer"]) == ("roll", "white", None)
    assert refused["version"] < person.get(match_id)["version"]

    # At 0-2 of 3 a single is the match: the computer takes it.
    person, match_id = computer_to_answer(seat, seeded_dice, "network", name="other")
    Match.objects.filter(pk=match_id).update(score_black=2)
    person.ok(match_id, "resign", {"offer": "single"})
    assert answers(match_id) == [("accept", "single")]
    match = person.get(match_id)
    assert (match["status"], match["winner"], match["score"]) == (
        "finished", "black", {"white": 0, "black": 3})
    game = Game.objects.get(match_id=match_id, number=1)
    assert (game.result, game.end_reason, game.points_won) == ("single", "resigned", 1)


def test_the_race_estimate_takes_a_single(
        immediate_tasks: None, seat: Any, seeded_dice: list[int]) -> None:
    person, match_id = computer_to_answer(seat, seeded_dice, "heuristic")
    person.ok(match_id, "resign", {"offer": "single"})
    assert answers(match_id) == [("accept", "single")]
    assert person.get(match_id)["score"] == {"white": 0, "black": 1}
