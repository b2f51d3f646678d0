"""A match against each level plays to the end through the API, the computer's turns
running on the task queue: eagerly (each job at once, after the commit that enqueued it)
and with the real database worker driven between the person's actions. The person plays
random legal steps; the dice are seeded.

The searching levels (``strong``, ``expert``: up to a second or two a move in the middle
game) play from a bear-off race, set up during the roll-off, so the suite stays short;
every other level plays whole games from the opening.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import computer
from games.models import Event, Match
from games.replay import replay_problems
from nardy import WHITE
from tests.computer_api.conftest import my_colour, play_out, run_worker

pytestmark = pytest.mark.django_db(transaction=True)

SEARCHING = {"strong", "expert"}
CASES = [("long_nardy", level) for level in computer.levels_for("long_nardy")] + [
    ("backgammon", level) for level in computer.levels_for("backgammon")]


RACE = {"long_nardy": {6: 2, 5: 2, 4: 1, 18: -2, 17: -2, 16: -1},
        "backgammon": {6: 2, 5: 2, 4: 1, 19: -2, 20: -2, 21: -1}}
"""Five checkers each in the home board, ten borne off (White's numbering)."""


def _race(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    game = match.current_game
    assert game is not None and game.phase == "roll-off"
    game.position_key = match.ruleset.position_from_perspective(
        WHITE, RACE[match.rules], 10, 10, 0, 0).to_id()
    game.white_first_turn = game.black_first_turn = False
    game.save()


def _computer_played_legally(match_id: int, bot: str, raced: bool) -> None:
    """The computer took turns, and every game replays through the rules as stored (a
    race set up by hand does not replay from the opening)."""
    match = Match.objects.get(pk=match_id)
    colour = "white" if match.white.username == bot else "black"
    assert Event.objects.filter(match=match, type="roll", data__side=colour).exists()
    for game in match.games.all() if not raced else ():
        assert replay_problems(game) == [], game.number


@pytest.mark.parametrize(("rules", "level"), CASES)
def test_a_match_against_each_level_plays_to_the_end(immediate_tasks: None, seat: Any,
                                                    seeded_dice: list[int], rules: str,
                                                    level: str) -> None:
    person = seat("person")
    seeded_dice.extend([6, 1])  # our roll-off die, then the computer's (rolled after ours)
    colour = "white" if len(level) % 2 else "black"
    created = person.create(computer=level, rules=rules, color=colour)
    assert created.status_code == 201, created.content
    body = created.json()
    bot = f"computer-{level}"
    assert body["status"] == "active"
    assert body[colour] == "person" and body["black" if colour == "white" else "white"] == bot
    assert body["invited"] is None and body["rules"] == rules
    if level in SEARCHING:
        _race(body["id"])

    final = play_out(person, body["id"], random.Random(f"{rules}-{level}"))

    assert final["status"] == "finished"
    assert final["winner"] in ("white", "black")
    assert final["score"][final["winner"]] >= 1
    _computer_played_legally(body["id"], bot, raced=level in SEARCHING)
    profile = person.client.get(f"/api/v1/accounts/users/{bot}/")
    assert profile.status_code == 200
    assert profile.json()["is_bot"] is True
    assert profile.json()["stats"]["matches_played"] == 1


def test_a_match_plays_to_the_end_with_the_real_worker(database_tasks: None,
                                                      seat: Any) -> None:
    person = seat("person")
    created = person.create(computer="heuristic", rules="short_nardy", color="black")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert created.json()["white"] == "computer-heuristic"

    final = play_out(person, match_id, random.Random(7), between=run_worker)

    assert final["status"] == "finished"
    from django_tasks_db.models import DBTaskResult

    assert DBTaskResult.objects.exclude(status="SUCCESSFUL").count() == 0
    outcomes = set(DBTaskResult.objects.values_list("return_value", flat=True))
    assert {"roll", "move"} <= outcomes


def test_the_computer_accepts_a_rematch_by_itself(immediate_tasks: None, seat: Any) -> None:
    person = seat("person")
    match_id = person.create(computer="random", color="white").json()["id"]
    play_out(person, match_id, random.Random(3))

    rematch = person.post(match_id, "rematch")

    assert rematch.status_code == 201, rematch.content
    again = person.get(rematch.json()["id"])
    assert again["status"] == "active"
    assert again["white"] == "computer-random" and again["black"] == "person"
    assert my_colour(again, person) == "black"
