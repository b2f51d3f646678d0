"""Drive whole games through the HTTP API with planned dice (test helper)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.dice import DicePlan, fair, favour
from tests.support import Seat

__all__ = ["fair", "favour", "play_game"]


def play_game(seats: dict[str, Seat], match_id: int, plan: DicePlan, rng: random.Random,
              script: Callable[..., Any], max_turns: int = 400) -> dict[str, Any]:
    """Roll and play the first offered step, one request a step, until the game changes."""
    observer = next(iter(seats.values()))
    match = observer.get(match_id)
    game = match["state"]["game"]
    for _ in range(max_turns):
        state = match["state"]
        if match["status"] != "active" or state["game"] != game:
            return match
        mover = seats[state["turn"]]
        assert state["phase"] == "roll", state
        script(*plan(state["turn"], rng))
        match = mover.ok(match_id, "roll")
        while (match["status"] == "active" and match["state"]["game"] == game
               and match["state"]["phase"] == "move"):
            steps = match["state"]["legal_steps"]
            assert steps, match["state"]
            match = mover.ok(match_id, "moves", {"steps": [steps[0]],
                                                 "expected_version": match["version"]})
    raise AssertionError("the game did not end")
