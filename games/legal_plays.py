"""Stateless analysis: every legal play for a board and a roll, in any rule set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from games import shapes
from games.exceptions import InvalidRequest
from games.selectors import board_json
from games.transitions import step_json
from nardy import RULESETS, InvalidPositionError, Step

MAX_PLAYS: Final = 500
"""At most this many plays are listed (``count`` says how many there are): a crowded
board with a double has close to 2,000, far more than any client shows."""


def legal_plays(*, rules: str, board: Mapping[str, Any], dice: tuple[int, int],
                first_turn: bool) -> shapes.LegalPlays:
    """``{"max_dice", "count", "truncated", "plays": [{"steps", "board"}]}`` for the side
    whose perspective ``board`` is in (R10–R27, H7–H13). ``board`` is the API board as
    the rule set's codec reads it (``codec.position``: the common fields and its own).
    Raises :class:`InvalidRequest` for a board that cannot exist in ``rules``."""
    ruleset = RULESETS[rules]
    try:
        side, position = ruleset.codec.position(board)
    except (InvalidPositionError, ValueError) as exc:
        raise InvalidRequest(f"Impossible board: {exc}", details={"board": [str(exc)]}) from exc
    if ruleset.outcome(position) is not None:
        plays = []
    else:
        plays = [p for p in ruleset.legal_plays(position, side, dice, first_turn) if p.steps]
    shown = plays[:MAX_PLAYS]
    start = position.in_perspective(side)
    return {
        "max_dice": max((len(p.steps) for p in plays), default=0),
        "count": len(plays),
        "truncated": len(plays) > len(shown),
        "plays": [{"steps": _steps_json(start, p.steps), "board": board_json(p.position, side)}
                  for p in shown],
    }


def _steps_json(board: dict[int, int], steps: tuple[Step, ...]) -> list[shapes.Step]:
    """The play's steps with their hit flags: a step hits when it lands on a point
    holding exactly one opposing checker (H7), followed along the play."""
    counts = dict(board)
    out: list[shapes.Step] = []
    for step in steps:
        hit = step.dst > 0 and counts.get(step.dst, 0) == -1
        if step.src in counts:
            counts[step.src] -= 1
        if step.dst:
            counts[step.dst] = 1 if hit else counts.get(step.dst, 0) + 1
        out.append(step_json(step, hit))
    return out
