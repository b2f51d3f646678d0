"""The game reviews' queue serves requesters in turn, and caps what one account, one
address and everyone may have waiting, and the turns an account may ask for in a day.

Before, the queue was first come, first served: five accounts' three reviews each made a
sixth account's review wait behind all fifteen (380 s in the probe); now it waits behind
at most one review of each of the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult

from games import services
from games.models import Match
from reviews import services as review_services
from reviews.models import Analysis
from tests.games.test_record_round_trip import _play_randomly
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def over(user: Any) -> Match:
    """A hotseat match of ``user``'s, aborted before its first roll: over, no turns."""
    match = services.match_create(user=user, length=1, hotseat=True, rules="backgammon")
    return services.match_abort_unstarted(match_id=match.pk, user=user)


def ask(client_for: Callable[[Any], Any], user: Any, match: Match, address: str = "127.0.0.1",
        depth: int = 0) -> Any:
    return client_for(user).post(f"/api/v1/matches/{match.pk}/analysis/", {"depth": depth},
                                 format="json", REMOTE_ADDR=address)


def served_order() -> list[int]:
    """The analyses in the order the worker takes their jobs (its claim's ordering)."""
    return [job.args_kwargs["args"][0] for job in DBTaskResult.objects.ready()]


def test_requesters_are_served_in_turn(make_user: Callable[..., Any],
                                       client_for: Callable[[Any], Any],
                                       django_capture_on_commit_callbacks: Any) -> None:
    floods = [make_user(f"flood{i}") for i in range(5)]
    victim = make_user("victim")
    for user in floods:
        for _ in range(3):
            with django_capture_on_commit_callbacks(execute=True):  # queued as it commits
                answer = ask(client_for, user, over(user), f"10.0.{floods.index(user)}.1")
            assert answer.status_code == 202, answer.json()
    with django_capture_on_commit_callbacks(execute=True):
        answer = ask(client_for, victim, over(victim), "10.0.1.1")
    assert answer.status_code == 202, answer.json()
    order = served_order()
    assert len(order) == 16
    # Behind the five other requesters' first reviews, not behind all fifteen.
    assert order.index(Analysis.objects.get(requested_by=victim).pk) == 5


def test_the_caps_per_address_and_in_all(make_user: Callable[..., Any],
                                         client_for: Callable[[Any], Any],
                                         settings: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    settings.ANALYSES_QUEUED_PER_ADDRESS = 2
    settings.ANALYSES_QUEUED_MAX = 3
    one, two, three = make_user("one"), make_user("two"), make_user("three")
    assert ask(client_for, one, over(one), "10.0.0.1").status_code == 202
    assert ask(client_for, two, over(two), "10.0.0.1").status_code == 202
    assert_error(ask(client_for, three, over(three), "10.0.0.1"), 429, "too_many_analyses",
                 limit=2, scope="address")
    assert ask(client_for, three, over(three), "10.0.0.2").status_code == 202
    assert_error(ask(client_for, three, over(three), "10.0.0.3"), 429, "too_many_analyses",
                 limit=3, scope="everyone")


def test_a_daily_budget_of_turns(make_user: Callable[..., Any],
                                 client_for: Callable[[Any], Any],
                                 settings: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    user = make_user("reader")
    played = _play_randomly(user, "backgammon", 3, length=1)
    turns = sum(g.turn_records.count() for g in played.games.all())
    assert turns > 0
    settings.ANALYSIS_TURNS_PER_DAY = turns
    assert ask(client_for, user, played).status_code == 202
    Analysis.objects.update(state=Analysis.State.DONE)
    again = _play_randomly(user, "backgammon", 4, length=1)
    assert_error(ask(client_for, user, again), 429, "review_budget_spent",
                 budget=turns, used=turns)
