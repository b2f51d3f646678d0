"""Who may do what: anonymous, stranger, opponent, player to move, staff × every action.

The match is active, in the roll phase, with White (alice) to move; Black is bob.
Each cell gets a fresh match, so a cell that changes state cannot affect another.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import token_obtain
from tests.support import start_match

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "stranger", "opponent", "to_move", "staff")
OK, CREATED = 200, 201
UNAUTH = (401, "not_authenticated")
DENIED = (403, "permission_denied")
TURN = (409, "not_your_turn")
PHASE = (409, "wrong_phase")

# action: (method, path, body, {actor: expected})
MATRIX = {
    "read match": ("get", "", None, dict.fromkeys(ACTORS, OK)),
    "read games": ("get", "games/", None, dict.fromkeys(ACTORS, OK)),
    "read moves": ("get", "games/1/moves/", None, dict.fromkeys(ACTORS, OK)),
    "read events": ("get", "events/", None, dict.fromkeys(ACTORS, OK)),
    "roll": ("post", "roll/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                   "opponent": TURN, "to_move": OK, "staff": DENIED}),
    "moves": ("post", "moves/", {"steps": [{"from": 24, "to": 18}]},
              {"anonymous": UNAUTH, "stranger": DENIED, "opponent": TURN,
               "to_move": PHASE, "staff": DENIED}),
    "resign": ("post", "resign/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                       "opponent": OK, "to_move": OK, "staff": DENIED}),
    "join": ("post", "join/", {}, {"anonymous": UNAUTH, "stranger": PHASE, "opponent": PHASE,
                                   "to_move": PHASE, "staff": PHASE}),
    "cancel": ("post", "cancel/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                       "opponent": PHASE, "to_move": PHASE, "staff": DENIED}),
    "decline": ("post", "decline/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                         "opponent": PHASE, "to_move": PHASE,
                                         "staff": DENIED}),
    "rematch": ("post", "rematch/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                         "opponent": PHASE, "to_move": PHASE,
                                         "staff": DENIED}),
    # No stakes in this match (S1-S7): an offer is the wrong phase for the side to roll;
    # with no offer waiting, accept and refuse are too (tests/games/test_stakes.py has the
    # matrix of a match with the cube).
    "offer": ("post", "offer/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                     "opponent": TURN, "to_move": PHASE, "staff": DENIED}),
    "accept": ("post", "accept/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                       "opponent": TURN, "to_move": PHASE, "staff": DENIED}),
    "refuse": ("post", "refuse/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                       "opponent": TURN, "to_move": PHASE, "staff": DENIED}),
    # Offers to resign with a result: the side to move may offer a single (a mars would
    # be conceded); with none waiting, their answers are the wrong phase.
    "resign offer": ("post", "resign/", {"offer": "single"},
                     {"anonymous": UNAUTH, "stranger": DENIED, "opponent": TURN,
                      "to_move": OK, "staff": DENIED}),
    "resign accept": ("post", "resign/accept/", {},
                      {"anonymous": UNAUTH, "stranger": DENIED, "opponent": TURN,
                       "to_move": PHASE, "staff": DENIED}),
    "resign refuse": ("post", "resign/refuse/", {},
                      {"anonymous": UNAUTH, "stranger": DENIED, "opponent": TURN,
                       "to_move": PHASE, "staff": DENIED}),
    # No clock in this match: a claim is the wrong phase for both players; the
    # roll-off is over, so abort is too (tests/games/test_clocks.py has the clocked cases).
    "claim": ("post", "claim/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                     "opponent": PHASE, "to_move": PHASE, "staff": DENIED}),
    "abort": ("post", "abort/", {}, {"anonymous": UNAUTH, "stranger": DENIED,
                                     "opponent": PHASE, "to_move": PHASE, "staff": DENIED}),
    "create": ("post", None, {"length": 3}, {"anonymous": UNAUTH, "stranger": CREATED,
                                             "opponent": CREATED, "to_move": CREATED,
                                             "staff": CREATED}),
}
CELLS = [(action, actor) for action in MATRIX for actor in ACTORS]


@pytest.mark.parametrize("action, actor", CELLS, ids=[f"{a}-{b}" for a, b in CELLS])
def test_authorization_matrix(action, actor, alice, bob, seat, make_user, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(3, 1)
    clients = {"anonymous": APIClient(), "to_move": alice.client, "opponent": bob.client,
               "stranger": seat("stranger").client}
    staff = make_user("staffer", is_staff=True)
    clients["staff"] = APIClient()
    clients["staff"].credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=staff).key}")
    method, path, body, expected = MATRIX[action]
    url = "/api/v1/matches/" if path is None else f"/api/v1/matches/{match_id}/{path}"
    client = clients[actor]
    response = (client.get(url) if method == "get"
                else client.post(url, body, format="json"))
    want = expected[actor]
    if isinstance(want, int):
        assert response.status_code == want, response.content
    else:
        assert (response.status_code, response.json()["error"]["code"]) == want
