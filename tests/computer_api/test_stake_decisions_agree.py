"""The server's computer (games.bots) and the reference bot client (computer.lab.client)
decide stakes alike, the match score first: both go through
computer.match_stake_decision, and on the same situations they give the same answer.

Each row puts a match against the computer (``heuristic``, Black) in one situation —
the options (S4, S6), the score, the stake and its holder (S2), the Crawford game (S7),
the cap (S5) and a race position whose estimate is clear — then asks both what Black
does: the server from the match, the client from the match as the API shows it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from accounts.models import User
from computer.lab.client import Api, Bot
from games import bots, selectors, services
from games.models import Game, GamePhase, Match
from nardy import BLACK
from nardy.stakes import next_stake

pytestmark = pytest.mark.django_db

AHEAD = {1: 15, 13: -15}
"""White's numbering: White on its point 1, Black on its own point 1 — Black, to roll,
wins about 78 % by the race formula: an offer's window (computer.stakes)."""
HOPELESS = {1: 15, 16: -15}
"""Black on its own point 4, White on its 1: Black's chances are nil."""
FAIR = {2: 15, 14: -15}
"""Both on their own point 2: Black, answering before White rolls, takes (above 25 %)."""


@dataclass(frozen=True)
class Case:
    name: str
    phase: str  # "roll": Black to roll (may it offer?); "offer": Black answers White's
    expected: str
    points: dict[int, int]
    stakes: str = "cube"
    progression: str = "geometric"
    length: int = 5
    score: tuple[int, int] = (0, 0)  # (White, Black)
    stake: int = 1
    holder: str = ""
    crawford_game: int | None = 0  # 0: the Crawford game is past (or never was)


CASES = [
    Case("offers ahead at 0-0", "roll", "offer", AHEAD),
    Case("no dead cube: a win at 1 takes the match", "roll", "roll", AHEAD, score=(0, 4)),
    Case("no dead cube: a win at 2 takes it", "roll", "roll", AHEAD, score=(0, 3), stake=2,
         holder="black"),
    Case("a win at 2 does not take it: offers", "roll", "offer", AHEAD, score=(0, 2),
         stake=2, holder="black"),
    Case("S2: not the holder", "roll", "roll", AHEAD, stake=2, holder="white"),
    Case("S7: the Crawford game", "roll", "roll", AHEAD, score=(0, 4), crawford_game=1),
    Case("S4: dave, arithmetic 3 -> 4", "roll", "offer", AHEAD, stakes="dave",
         progression="arithmetic", stake=3, holder="black"),
    Case("S5: the cap", "roll", "roll", AHEAD, stake=64, holder="black", length=7),
    Case("no stakes", "roll", "roll", AHEAD, stakes="none"),
    Case("behind: rolls", "roll", "roll", HOPELESS),
    Case("hopeless at 0-0: refuses", "offer", "refuse", HOPELESS),
    Case("refusing at 1 loses the match: accepts", "offer", "accept", HOPELESS,
         score=(4, 0)),
    Case("refusing at 2 loses the match: accepts", "offer", "accept", HOPELESS,
         score=(3, 0), stake=2, holder="white"),
    Case("refusing at 2 does not lose it: refuses", "offer", "refuse", HOPELESS,
         score=(2, 0), stake=2, holder="white"),
    Case("fair: accepts", "offer", "accept", FAIR),
    Case("S4, S6: dave 3 -> 4, hopeless: refuses", "offer", "refuse", HOPELESS,
         stakes="dave", progression="arithmetic", stake=3, holder="white"),
]


def put(case: Case) -> Match:
    """A match of a person (White) against the heuristic computer (Black) in ``case``."""
    person = User.objects.create_user("person", password="correct-horse-battery")
    created = services.match_create(user=person, length=case.length, computer="heuristic",
                                    color="white", stakes=case.stakes,
                                    progression=case.progression)
    Match.objects.filter(pk=created.pk).update(
        score_white=case.score[0], score_black=case.score[1],
        crawford_game=case.crawford_game)
    game = Game.objects.get(pk=created.current_game_id)
    game.rolloff_white, game.rolloff_black = 1, 6
    game.white_first_turn = game.black_first_turn = False
    game.position_key = created.ruleset.position_from_perspective(0, case.points).to_id()
    game.stake, game.stake_holder = case.stake, case.holder
    if case.phase == "roll":
        game.phase, game.turn = GamePhase.ROLL, "black"
    else:
        game.phase, game.turn, game.offer_by = GamePhase.OFFER, "black", "white"
        game.offers = [{"before_turn": 1, "by": "white", "answer": None,
                        "stake": next_stake(case.progression, case.stake)}]
    game.save()
    match = selectors.match_get(created.pk)
    assert match is not None
    return match


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_server_and_the_client_decide_the_same(case: Case) -> None:
    match = put(case)
    seat = bots.seat_to_act(match)
    assert seat is not None and seat.side == BLACK

    decision = bots.decide(match, seat)
    assert decision is not None
    client = Bot(Api("http://server.invalid", "token"), seat.level,
                 username=seat.user.username)
    action = client.decide(dict(selectors.match_json(match, seat.user)))
    assert action is not None

    assert (decision.kind, action.verb) == (case.expected, case.expected)
