"""The computer plays its checkers for the match, not for money (computer/score.py): the
server's computer (games.bots) and the reference bot client (computer.lab.client) read the
same situation from a match and play the same move — in a 1-point match or with
``dave`` stakes (S6) the one that is best for the win alone, where money play would
choose another for its gammons."""

from __future__ import annotations

import pytest

from accounts.models import User
from computer import choose_play
from computer.lab.client import Api, Bot
from computer.levels import chooser
from computer.score import WINS_ONLY, Objective
from computer.stakes import Situation
from games import bots, selectors, services
from games.models import Game, GamePhase, Match
from nardy import BLACK, RULESETS
from tests.computer.util import sample_positions

pytestmark = pytest.mark.django_db


def black_decision():
    """A backgammon decision of Black's (not a first turn) where the ``network`` level's
    choice for the win alone differs from its money-play choice (as the server plays
    it: through the field engine where it is installed)."""
    alone = chooser("backgammon", "network", objective=Objective.for_side(BLACK, WINS_ONLY))
    money = chooser("backgammon", "network")
    for position, side, dice, first in sample_positions("backgammon", 400, seed=3):
        if side != BLACK or first:
            continue
        plays = RULESETS["backgammon"].legal_plays(position, side, dice, first)
        if len(plays) > 1 and alone(position, plays, BLACK) != money(position, plays, BLACK):
            return position, dice, plays
    raise AssertionError("no such decision of Black's among the samples")


def put(position, dice, *, length=1, stakes="none", score=(0, 0), crawford_game=None,
        ) -> Match:
    """A backgammon match of a person (White) against the ``network`` computer (Black),
    Black to move with ``dice`` in ``position``."""
    person = User.objects.create_user("person", password="correct-horse-battery")
    created = services.match_create(user=person, length=length, computer="network",
                                    color="white", stakes=stakes, rules="backgammon")
    Match.objects.filter(pk=created.pk).update(score_white=score[0], score_black=score[1],
                                               crawford_game=crawford_game)
    game = Game.objects.get(pk=created.current_game_id)
    game.rolloff_white, game.rolloff_black = 1, 6
    game.white_first_turn = game.black_first_turn = False
    game.position_key = position.to_id()
    game.phase, game.turn, game.dice = GamePhase.MOVE, "black", list(dice)
    game.turn_key = RULESETS["backgammon"].start_turn(position, BLACK, dice, False).to_id()
    game.save()
    match = selectors.match_get(created.pk)
    assert match is not None
    return match


@pytest.mark.parametrize("length,stakes", [(1, "none"), (5, "dave")])
def test_the_server_and_the_client_play_for_the_win_alone(length, stakes):
    position, dice, plays = black_decision()
    match = put(position, dice, length=length, stakes=stakes)
    seat = bots.seat_to_act(match)
    assert seat is not None and seat.side == BLACK and seat.level == "network"

    alone = plays[chooser("backgammon", "network", objective=Objective.for_side(
        BLACK, WINS_ONLY))(position, plays, BLACK)].steps
    money = choose_play("backgammon", "network", position, BLACK, dice, False)
    assert alone != money

    decision = bots.decide(match, seat)
    assert decision is not None and decision.kind == "move"
    assert decision.steps == alone

    client = Bot(Api("http://server.invalid", "token"), "network",
                 username=seat.user.username)
    action = client.decide(dict(selectors.match_json(match, seat.user)))
    assert action is not None and action.verb == "moves"
    assert [(s["from"], s["to"], s["die"]) for s in action.body["steps"]] == [
        (s.src, s.dst, s.die) for s in alone]


@pytest.mark.parametrize("score,crawford_game,after", [
    ((0, 0), None, False),
    ((4, 2), 1, True),    # this game is the Crawford game
    ((4, 3), 0, True),    # a game after it
])
def test_the_server_and_the_client_read_the_same_situation(score, crawford_game, after):
    position, dice, _ = black_decision()
    match = put(position, dice, length=5, stakes="cube", score=score,
                crawford_game=crawford_game)
    state = selectors.match_state(match, match.black, BLACK, search=False) or {}
    server = bots._situation(match, BLACK, state)
    client = Situation.of_api_match(dict(selectors.match_json(match, match.black)),
                                    "black")
    assert server == client
    assert server.after_crawford is after
    assert (server.own, server.opponent) == (score[1], score[0])
