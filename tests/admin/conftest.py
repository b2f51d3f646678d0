"""Fixtures for the admin and match-record tests: real matches played through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Game, Match
from nardy import WHITE, Position, Step
from tests.dice import planned as planned_dice
from tests.games.play import play_match


@pytest.fixture
def players(make_user: Callable[..., Any]) -> tuple[Any, Any]:
    return make_user("alice"), make_user("bob")


@pytest.fixture
def finished_match(players: tuple[Any, Any]) -> Match:
    """A real 3-point match, 4-1 to White (alice): two mars games and a single win,
    with passes and bear-offs by a larger die, played through games.services."""
    match = play_match(*players)
    assert (match.status, match.score_white, match.score_black) == ("finished", 4, 1)
    assert match.games.filter(mars=True).count() == 2
    return match


@pytest.fixture
def staff_user(make_user: Callable[..., Any]) -> Any:
    return make_user("staffer", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(staff_user: Any) -> Client:
    client = Client()
    client.force_login(staff_user)
    return client


@pytest.fixture
def staff_api(staff_user: Any, client_for: Callable[[Any], APIClient]) -> APIClient:
    return client_for(staff_user)


def started_match(white: Any, black: Any, length: int = 1) -> Match:
    """An invitation accepted and the roll-off played (6-1: White starts)."""
    match = services.match_create(user=white, length=length, opponent=black.username,
                                  color="white")
    services.match_join(match_id=match.pk, user=black)
    with planned_dice([6, 1]):
        services.match_roll(match_id=match.pk, user=white)
        services.match_roll(match_id=match.pk, user=black)
    return Match.objects.get(pk=match.pk)


def resigned_match(white: Any, black: Any, *, mars: bool) -> Match:
    """A finished 1-point match: Black resigns game 1 at once (a mars, R30) or after
    bearing off three (a single win)."""
    match = started_match(white, black)
    if not mars:
        game = Game.objects.get(match=match, number=1)
        board = Position.from_perspective(WHITE, {6: 10, 5: 5, 13: -6, 14: -6}, 0, 3)
        game.position_key = board.to_id()
        game.white_first_turn = game.black_first_turn = False
        game.save()
    return services.match_resign(match_id=match.pk, user=black)


def short_match(white: Any, black: Any) -> Match:
    """A finished 1-point match of two turns: White resigns a mars after Black's turn."""
    match = started_match(white, black)
    with planned_dice([6, 5, 3, 1]):
        services.match_roll(match_id=match.pk, user=white)
        services.match_move(match_id=match.pk, user=white,
                            steps=[Step(24, 18), Step(18, 13)])
        services.match_roll(match_id=match.pk, user=black)
        services.match_move(match_id=match.pk, user=black,
                            steps=[Step(24, 21), Step(21, 20)])
    return services.match_resign(match_id=match.pk, user=white)
