"""The review of stored games (reviews/inputs.py)."""

from __future__ import annotations

import pytest

from games.models import Turn, rules_names
from reviews.inputs import ReviewError, game_inputs, match_context, review_stored_game
from tests.games.test_record_round_trip import _play_randomly

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rules", rules_names())
def test_every_game_of_a_random_match_is_reviewed_whole(make_user, rules):
    match = _play_randomly(make_user(), rules, 1)
    for game in match.games.order_by("number"):
        turns, _, result = game_inputs(game)
        records = game.turn_records.count()
        assert records - 1 <= len(turns) <= records  # a resigned game's unfinished last turn
        review = review_stored_game(game, 0)
        assert review["game"] == game.number
        assert len(review["turns"]) == len(turns)
        if game.winner:
            assert (result > 0) == (game.winner == "white")
        moves = sum(t["kind"] == "move" for t in review["turns"])
        assert sum(s["decisions"] for s in review["sides"]) == moves + len(review["stakes"])


def test_a_record_that_does_not_replay_is_refused(make_user):
    match = _play_randomly(make_user(), "long_nardy", 2)
    game = match.games.order_by("number").first()
    turn = Turn.objects.filter(game=game, number=1).get()
    turn.steps = [{"from": 1, "to": 0, "die": 6}]  # no checker there on the first turn
    turn.save(update_fields=["steps"])
    with pytest.raises(ReviewError):
        review_stored_game(game, 0)


@pytest.mark.parametrize("stakes", ["none", "cube"])
def test_a_match_game_is_valued_at_its_score_in_match_winning_chance(make_user, stakes):
    match = _play_randomly(make_user(), "backgammon", 3, length=3, stakes=stakes,
                           offer_at=None if stakes == "none" else 4)
    scored = {"white": 0, "black": 0}
    for game in match.games.order_by("number"):
        context = match_context(game)
        assert context is not None
        assert context.need == (3 - scored["white"], 3 - scored["black"])
        assert context.crawford == (stakes != "none")
        assert context.after_crawford == (stakes != "none" and match.crawford_game is not None
                                          and game.number >= match.crawford_game)
        review = review_stored_game(game, 0)
        assert review["match"]["need"] == list(context.need)
        for side in review["sides"]:
            assert side["mwc_lost"] is not None and side["mwc_lost"] >= 0.0
        for turn in review["turns"]:
            assert 0.0 <= turn["played"]["mwc"] <= turn["best_mwc"] + 1e-5 <= 1.0 + 1e-5
            assert turn["mwc_lost"] >= 0.0
        if game.winner:
            scored[game.winner] += game.points_won


def test_a_one_point_match_has_no_match_winning_chance(make_user):
    match = _play_randomly(make_user(), "long_nardy", 4, length=1)
    game = match.games.get()
    assert match_context(game) is None
    review = review_stored_game(game, 0)
    assert review["match"] is None
    assert all(t["mwc_lost"] is None for t in review["turns"])
