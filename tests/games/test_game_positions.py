"""GET matches/{id}/games/{n}/positions/ — the board before each turn
and after it, for the page's replay, as the engine replays the record."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import rules_names
from games.selectors import board_json
from nardy import BLACK, WHITE
from reviews.inputs import game_inputs
from tests.games.test_record_round_trip import _play_randomly

pytestmark = pytest.mark.django_db


def _url(match, number, query=""):
    return f"/api/v1/matches/{match.pk}/games/{number}/positions/{query}"


@pytest.mark.parametrize("rules", rules_names())
def test_each_turn_s_board_is_the_engine_s_replay(make_user, rules):
    user = make_user()
    match = _play_randomly(user, rules, 3, length=1)
    game = match.games.get(number=1)
    body = APIClient().get(_url(match, 1)).json()   # anyone may read it
    assert [p["turn"] for p in body] == list(range(game.turns + 1))
    assert body[0]["side"] is None
    assert [p["side"] for p in body[1:]] == list(
        game.turn_records.order_by("number").values_list("side", flat=True))
    # The position before each complete turn, replayed by the engine from the steps.
    turns, _, _ = game_inputs(game)
    assert len(turns) >= 2
    for i, turn in enumerate(turns):
        assert body[i]["board"] == board_json(turn.position, WHITE), f"before turn {i + 1}"
    assert body[-1]["board"] == board_json(game.position, WHITE)
    black = APIClient().get(_url(match, 1, "?perspective=black")).json()
    assert black[-1]["board"] == board_json(game.position, BLACK)
    assert black[-1]["board"] != body[-1]["board"]


def test_a_player_sees_their_own_numbering_and_unknown_games_are_404(make_user):
    from games import services

    alice, bob = make_user(), make_user()
    match = services.match_create(user=alice, length=1, opponent=bob.username,
                                  color="black")
    services.match_join(match_id=match.pk, user=bob)
    client = APIClient()
    client.force_authenticate(alice)
    body = client.get(_url(match, 1)).json()
    assert body[0]["board"]["perspective"] == "black"
    assert APIClient().get(_url(match, 1)).json()[0]["board"]["perspective"] == "white"
    missing = APIClient().get(_url(match, 9))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    bad = APIClient().get(_url(match, 1, "?perspective=red"))
    assert bad.status_code == 400
