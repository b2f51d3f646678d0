"""Shared checks for the API-contract acceptance review (API.md, "to the letter")."""

from __future__ import annotations

from typing import Any

API = "/api/v1"
MATCH_KEYS = {"id", "white", "black", "length", "score", "status", "winner", "created_at",
              "finished_at", "state"}
STATE_KEYS = {"game", "phase", "turn", "dice", "dice_left", "head_may_leave", "board",
              "legal_steps", "version"}
STAT_KEYS = {"matches_played", "matches_won", "games_won", "games_lost", "mars_won",
             "mars_lost", "points_won", "points_lost"}
STATUSES = {"open", "invited", "active", "finished", "aborted"}
PHASES = {"roll-off", "roll", "move", "finished"}


def is_json(response: Any) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def error_of(response: Any, status: int | tuple[int, ...], code: str | tuple[str, ...]
             ) -> dict[str, Any]:
    """API.md: every 4xx is ``{"error": {"code", "message", "details"}}`` — as JSON."""
    statuses = status if isinstance(status, tuple) else (status,)
    codes = code if isinstance(code, tuple) else (code,)
    assert response.status_code in statuses, (response.status_code, response.content[:400])
    assert is_json(response), (response.get("Content-Type"), response.content[:200])
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert set(error) == {"code", "message", "details"}, error
    assert error["code"] in codes, error
    assert isinstance(error["message"], str) and error["message"].strip(), error
    assert isinstance(error["details"], dict), error
    return error


def assert_4xx_shape(response: Any) -> None:
    """Bad input: never a 500; a 4xx in the one error shape."""
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:400])
    assert is_json(response), (response.get("Content-Type"), response.content[:200])
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}, body
    assert isinstance(body["error"]["details"], dict)


def check_step(step: Any) -> None:
    assert isinstance(step, dict) and set(step) == {"from", "to", "die", "hit"}, step
    assert step["hit"] is False, step  # Long Nardy never hits (R6)
    assert all(type(step[k]) is int for k in ("from", "to", "die")), step
    assert 1 <= step["from"] <= 24 and 0 <= step["to"] <= 24 and 1 <= step["die"] <= 6, step


def check_board(board: Any, perspective: str | None = None) -> None:
    assert isinstance(board, dict) and set(board) == {"perspective", "points", "off", "bar"}, board
    assert board["perspective"] in ("white", "black")
    if perspective is not None:
        assert board["perspective"] == perspective, board
    assert set(board["off"]) == {"mine", "theirs"}, board
    mine, theirs = board["off"]["mine"], board["off"]["theirs"]
    assert type(mine) is int and type(theirs) is int
    points = board["points"]
    assert isinstance(points, dict)
    for key, count in points.items():
        assert isinstance(key, str) and key.isdigit() and str(int(key)) == key, key
        assert 1 <= int(key) <= 24, key
        assert type(count) is int and count != 0, (key, count)  # empty points omitted
    assert sum(c for c in points.values() if c > 0) + mine == 15, board
    assert -sum(c for c in points.values() if c < 0) + theirs == 15, board


def check_state(state: Any) -> None:
    assert isinstance(state, dict) and set(state) >= STATE_KEYS, state
    assert type(state["game"]) is int and state["game"] >= 1
    assert state["phase"] in PHASES
    assert state["turn"] in (None, "white", "black")
    assert state["dice"] is None or (isinstance(state["dice"], list)
                                     and all(type(d) is int for d in state["dice"]))
    assert isinstance(state["dice_left"], list)
    assert type(state["head_may_leave"]) is int
    assert type(state["version"]) is int
    check_board(state["board"])
    assert isinstance(state["legal_steps"], list)
    for step in state["legal_steps"]:
        check_step(step)


def check_match(match: Any) -> None:
    assert isinstance(match, dict) and set(match) >= MATCH_KEYS, match
    assert type(match["id"]) is int
    assert match["length"] in (1, 3, 5, 7)
    assert set(match["score"]) >= {"white", "black"}
    assert all(type(match["score"][k]) is int for k in ("white", "black"))
    assert match["status"] in STATUSES
    assert match["winner"] in (None, "white", "black"), match["winner"]
    assert isinstance(match["created_at"], str)
    assert match["finished_at"] is None or isinstance(match["finished_at"], str)
    for side in ("white", "black"):
        assert match[side] is None or isinstance(match[side], str)
    if match["state"] is not None:
        check_state(match["state"])
        if "version" in match:
            assert match["state"]["version"] == match["version"]
