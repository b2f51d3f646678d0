"""Shared helpers for the acceptance review (tests/review): set boards, read states."""

from __future__ import annotations

from typing import Any

from games.engine import BLACK, WHITE, Position
from games.models import Event, Game, GamePhase, Match

ANALYSIS = "/api/v1/analysis/legal-plays/"


def opp(p: int) -> int:
    """R2: the opponent's number for a point."""
    return p + 12 if p <= 12 else p - 12


def set_board(match_id: int, points: dict[int, int], *, perspective: str = "white",
              off_mine: int = 0, off_theirs: int = 0, turn: str | None = None,
              first_turn: dict[str, bool] | None = None) -> Game:
    """Put the current game on ``points`` (signed counts in ``perspective``'s numbering).

    The game must be waiting for a roll; ``turn`` changes the side to roll, and
    ``first_turn`` the R12 flags (default: neither side is on its first turn).
    """
    match = Match.objects.get(pk=match_id)
    game = Game.objects.get(pk=match.current_game_id)
    assert game.phase == GamePhase.ROLL, game.phase
    side = WHITE if perspective == "white" else BLACK
    game.position = Position.from_perspective(side, points, off_mine, off_theirs)
    flags = first_turn or {"white": False, "black": False}
    game.white_first_turn, game.black_first_turn = flags["white"], flags["black"]
    if turn is not None:
        game.turn = turn
    game.save()
    return game


def steps_of(state: dict[str, Any]) -> set[tuple[int, int, int]]:
    return {(s["from"], s["to"], s["die"]) for s in state["legal_steps"]}


def event_types(match_id: int) -> list[str]:
    return [e.type for e in Event.objects.filter(match_id=match_id).order_by("seq")]


def events(match_id: int, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in Event.objects.filter(match_id=match_id, type=type_).order_by("seq")]


def analyse(api: Any, points: dict[int, int], dice: tuple[int, int], *,
            perspective: str = "white", first_turn: bool = False, mine: int = 0,
            theirs: int = 0) -> dict[str, Any]:
    response = api.post(ANALYSIS, {
        "board": {"perspective": perspective, "points": {str(p): n for p, n in points.items()},
                  "off": {"mine": mine, "theirs": theirs}},
        "dice": list(dice), "first_turn": first_turn}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def result_boards(body: dict[str, Any]) -> set[tuple[tuple[tuple[int, int], ...], int, int]]:
    """The plays' result boards as hashable (sorted points, off mine, off theirs)."""
    out = set()
    for play in body["plays"]:
        board = play["board"]
        out.add((tuple(sorted((int(p), n) for p, n in board["points"].items())),
                 board["off"]["mine"], board["off"]["theirs"]))
    return out


def as_result(points: dict[int, int], mine: int = 0, theirs: int = 0):
    return (tuple(sorted((p, n) for p, n in points.items() if n)), mine, theirs)


def first_steps(body: dict[str, Any]) -> set[tuple[int, int, int]]:
    return {(p["steps"][0]["from"], p["steps"][0]["to"], p["steps"][0]["die"])
            for p in body["plays"] if p["steps"]}


def all_steps(body: dict[str, Any]) -> list[tuple[int, int, int]]:
    return [(s["from"], s["to"], s["die"]) for p in body["plays"] for s in p["steps"]]
