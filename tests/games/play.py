"""Drive whole matches and games with planned dice (test helper): through the services
(:func:`play_match`) or through the HTTP API (:func:`play_game`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games import services
from games.demo import DEMO_PLANS, DicePlan, fair, favour
from games.models import Color, GamePhase, Match, MatchStatus
from nardy import DEFAULT_RULES
from tests.dice import planned
from tests.support import Seat

__all__ = ["fair", "favour", "play_game", "play_match"]


def play_match(white: Any, black: Any, *, length: int = 3, rules: str = DEFAULT_RULES,
               plans: Sequence[DicePlan] = DEMO_PLANS, seed: int = 0,
               max_turns: int = 4000) -> Match:
    """A whole match played through the services as the API plays it, with the demo's
    dice (:mod:`games.demo`): White wins every roll-off 6-1, game ``n`` rolls with
    ``plans[n - 1]`` (the last plan repeats) and each turn plays the first legal step
    until the turn ends."""
    rng = random.Random(seed)
    queue: list[int] = []
    with planned(queue):
        match = services.match_create(user=white, length=length, opponent=black.username,
                                      color=Color.WHITE, rules=rules)
        services.match_join(match_id=match.pk, user=black)
        for _ in range(max_turns):
            match = Match.objects.select_related("current_game").get(pk=match.pk)
            if match.status != MatchStatus.ACTIVE:
                return match
            game = match.current_game
            assert game is not None
            if game.phase == GamePhase.ROLL_OFF:  # White starts (R7, H4-H5)
                queue += [6] if game.rolloff_white is None else [1]
                roller = white if game.rolloff_white is None else black
                services.match_roll(match_id=match.pk, user=roller)
                continue
            player = white if game.turn == Color.WHITE else black
            if game.phase == GamePhase.MOVE:  # backgammon's opening roll, played at once
                state = game.turn_state()
            else:
                plan = plans[min(game.number, len(plans)) - 1]
                queue.extend(plan(game.turn, rng))
                state = services.match_roll(match_id=match.pk, user=player).state
            if state is None:  # the roll passed at once (R23)
                continue
            steps = []
            while not state.is_turn_over():
                step = state.legal_steps()[0]
                steps.append(step)
                state = state.apply(step)
            services.match_move(match_id=match.pk, user=player, steps=steps)
    raise AssertionError("the match did not finish")


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
