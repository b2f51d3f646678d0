"""Shared helpers for the acceptance review (tests/review): set boards, read states."""

from __future__ import annotations

from typing import Any

from games.models import Event
from tests.support import set_board

__all__ = ["set_board"]

ANALYSIS = "/api/v1/analysis/legal-plays/"


def opp(p: int) -> int:
    """R2: the opponent's number for a point."""
    return p + 12 if p <= 12 else p - 12


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
                  "off": {"mine": mine, "theirs": theirs}, "bar": {"mine": 0, "theirs": 0}},
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
