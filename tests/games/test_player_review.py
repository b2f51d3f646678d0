"""A player's game-review averages over their last N analysed games per
rule set (``GET accounts/users/{username}/review/``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Match, rules_names
from reviews.models import Analysis
from reviews.selectors import player_review

pytestmark = pytest.mark.django_db
RULES = rules_names()


def _side(decisions, loss, luck, inaccuracy=0, mistake=0, blunder=0):
    return {"decisions": decisions, "loss": loss, "error_rate": loss / decisions,
            "rating": 500 * loss / decisions, "luck": luck,
            "marks": {"inaccuracy": inaccuracy, "mistake": mistake, "blunder": blunder}}


def _analysed(white, black, rules, games, *, depth=0, minutes=0, hotseat=False):
    """A finished match of ``rules`` with a done analysis whose games' sides are
    ``games`` [(White's, Black's)]."""
    match = services.match_create(user=white, length=3, opponent=black.username, rules=rules)
    Match.objects.filter(pk=match.pk).update(
        white=white, black=black, status="finished", winner="white", hotseat=hotseat,
        finished_at=timezone.now() - timedelta(days=1) + timedelta(minutes=minutes))
    Analysis.objects.create(match=match, depth=depth, state=Analysis.State.DONE,
                            results=[{"game": n, "sides": list(sides), "turns": []}
                                     for n, sides in enumerate(games, start=1)])
    return match


def test_the_averages_pool_the_last_games_per_rule_set(make_user):
    alice, bob = make_user(), make_user()
    first, second = RULES[0], RULES[1]
    _analysed(alice, bob, first, [(_side(10, 0.5, 0.2, 1, 1, 0), _side(10, 1.0, -0.2))],
              minutes=1)
    newer = _analysed(bob, alice, first, [(_side(20, 2.0, 0.0), _side(30, 0.9, -0.4, 2, 0, 1))],
                      minutes=2)
    _analysed(alice, bob, second, [(_side(8, 0.8, 0.1, 0, 0, 2), _side(8, 0.0, 0.0))],
              minutes=3)
    mine = player_review(alice, 20)["by_rules"]
    assert set(mine) == {first, second}
    a = mine[first]
    assert a["games"] == 2 and a["decisions"] == 40
    assert a["error_rate"] == pytest.approx((0.5 + 0.9) / 40)
    assert a["rating"] == pytest.approx(500 * 1.4 / 40, abs=0.01)
    assert a["marks"] == {"inaccuracy": 3, "mistake": 1, "blunder": 1}
    assert a["marks_per_game"] == {"inaccuracy": 1.5, "mistake": 0.5, "blunder": 0.5}
    assert a["luck"] == pytest.approx((0.2 - 0.4) / 2)
    assert a["last_match"] == newer.pk
    # last=1: only the newest game (Black's side of the newer match)
    one = player_review(alice, 1)["by_rules"][first]
    assert one["games"] == 1 and one["decisions"] == 30
    assert one["error_rate"] == pytest.approx(0.03)


def test_the_pr_pools_only_the_games_the_field_engine_reviewed(make_user):
    alice, bob = make_user(), make_user()
    match = _analysed(alice, bob, "backgammon",
                      [(_side(10, 0.5, 0.0), _side(10, 0.0, 0.0)),
                       (_side(30, 0.3, 0.0), _side(10, 0.0, 0.0))])
    Analysis.objects.filter(match=match).update(results=[
        {"game": 1, "engine": "field", "sides": [_side(10, 0.5, 0.0), _side(10, 0.0, 0.0)]},
        {"game": 2, "engine": "network", "sides": [_side(30, 0.3, 0.0),
                                                   _side(10, 0.0, 0.0)]}])
    row = player_review(alice)["by_rules"]["backgammon"]
    assert row["decisions"] == 40 and row["rating"] == pytest.approx(500 * 0.8 / 40)
    assert row["pr"] == pytest.approx(500 * 0.5 / 10)  # game 1 only
    _analysed(alice, bob, "long_nardy", [(_side(10, 0.5, 0.0), _side(10, 0.0, 0.0))])
    assert player_review(alice)["by_rules"]["long_nardy"]["pr"] is None


def test_a_match_counts_once_with_its_deepest_analysis_and_hotseat_not_at_all(make_user):
    alice, bob = make_user(), make_user()
    match = _analysed(alice, bob, RULES[0], [(_side(10, 1.0, 0.0), _side(10, 0.0, 0.0))])
    Analysis.objects.create(match=match, depth=2, state=Analysis.State.DONE,
                            results=[{"game": 1, "sides": [_side(10, 0.2, 0.0),
                                                           _side(10, 0.0, 0.0)]}])
    Analysis.objects.create(match=match, depth=1, state=Analysis.State.FAILED)
    _analysed(alice, bob, RULES[0], [(_side(10, 9.0, 0.0), _side(10, 9.0, 0.0))],
              hotseat=True)
    row = player_review(alice)["by_rules"][RULES[0]]
    assert row["games"] == 1 and row["error_rate"] == pytest.approx(0.02)


def test_the_api_answers_anyone_and_refuses_bad_input(make_user):
    alice, bob = make_user(), make_user()
    _analysed(alice, bob, RULES[0], [(_side(10, 0.5, 0.0), _side(10, 0.0, 0.0))])
    body = APIClient().get(f"/api/v1/accounts/users/{alice.username.upper()}/review/?last=5")
    assert body.status_code == 200
    data = body.json()
    assert data["username"] == alice.username and data["last"] == 5
    assert data["by_rules"][RULES[0]]["rating"] == pytest.approx(25.0)
    empty = APIClient().get(f"/api/v1/accounts/users/{make_user().username}/review/").json()
    assert empty["by_rules"] == {} and empty["last"] == 20
    for bad in ("0", "101", "x"):
        answer = APIClient().get(f"/api/v1/accounts/users/{alice.username}/review/?last={bad}")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "validation_error"
    missing = APIClient().get("/api/v1/accounts/users/nobody-here/review/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
