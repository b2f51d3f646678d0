"""Test helpers shared by the suites: an API seat per player and match set-up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from games.engine import BLACK, WHITE
from games.models import Game, GamePhase, Match


class Seat:
    """One player's API client, with shortcuts for the match endpoints."""

    def __init__(self, user: Any, client: APIClient) -> None:
        self.user, self.client = user, client

    def url(self, match_id: int, action: str = "") -> str:
        return f"/api/v1/matches/{match_id}/" + (f"{action}/" if action else "")

    def create(self, **body: Any) -> Any:
        return self.client.post("/api/v1/matches/", {"length": 1, **body}, format="json")

    def get(self, match_id: int, **params: Any) -> dict[str, Any]:
        response = self.client.get(self.url(match_id), params)
        assert response.status_code == 200, response.content
        return response.json()

    def post(self, match_id: int, action: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(self.url(match_id, action), body or {}, format="json")

    def ok(self, match_id: int, action: str, body: dict[str, Any] | None = None) -> Any:
        response = self.post(match_id, action, body)
        assert response.status_code in (200, 201), response.content
        return response.json()


def start_match(white: Seat, black: Seat, length: int = 1,
                script: Callable[..., Any] | None = None, rolloff: tuple[int, int] = (6, 1)
                ) -> dict[str, Any]:
    """Invite, accept and roll off (White rolls first) so that ``rolloff`` decides."""
    created = white.create(length=length, opponent=black.user.username, color="white")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    black.ok(match_id, "join")
    if script is not None:
        script(*rolloff)
    white.ok(match_id, "roll")
    return black.ok(match_id, "roll")


def set_board(match_id: int, points: dict[int, int], *, perspective: str = "white",
              off_mine: int = 0, off_theirs: int = 0, turn: str | None = None,
              first_turn: dict[str, bool] | None = None, bar_mine: int = 0,
              bar_theirs: int = 0) -> Game:
    """Put the current game on ``points`` (signed counts in ``perspective``'s numbering).

    The game must be waiting for a roll; ``turn`` changes the side to roll, and
    ``first_turn`` the R12 flags (default: neither side is on its first turn).
    """
    match = Match.objects.get(pk=match_id)
    game = Game.objects.get(pk=match.current_game_id)
    assert game.phase == GamePhase.ROLL, game.phase
    side = WHITE if perspective == "white" else BLACK
    game.position_key = match.ruleset.position_from_perspective(
        side, points, off_mine, off_theirs, bar_mine, bar_theirs).to_id()
    flags = first_turn or {"white": False, "black": False}
    game.white_first_turn, game.black_first_turn = flags["white"], flags["black"]
    if turn is not None:
        game.turn = turn
    game.save()
    return game
