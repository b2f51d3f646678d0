"""Issue 24: the review of stored games (games/analysis_review.py)."""

from __future__ import annotations

import pytest

from games.analysis_review import ReviewError, game_inputs, review_stored_game
from games.models import Turn, rules_names
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
