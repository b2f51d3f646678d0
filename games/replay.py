"""Rebuild a stored game from its per-move records and compare it with its snapshot."""

from __future__ import annotations

from games.engine import (
    WHITE,
    EngineError,
    Position,
    Step,
    TurnState,
    other,
    resign_outcome,
)
from games.models import EndReason, Game, GamePhase, side_of


def replay_problems(game: Game) -> list[str]:
    """What differs between the replay of ``game``'s turns and what is stored (empty: none)."""
    problems: list[str] = []
    position = Position.initial()
    first = {0: True, 1: True}
    state: TurnState | None = None
    turns = list(game.turn_records.order_by("number"))
    for expected_number, turn in enumerate(turns, start=1):
        where = f"turn {turn.number}"
        if turn.number != expected_number:
            return [f"{where}: expected turn number {expected_number}"]
        side = side_of(turn.side)
        index = 0
        try:
            state = TurnState.start(position, side, (turn.dice[0], turn.dice[1]), first[side])
            for step in turn.steps:
                index += 1
                state = state.apply(Step(step["from"], step["to"], step["die"]))
        except (EngineError, ValueError, KeyError, IndexError, TypeError) as exc:
            return [f"{where}, step {index}: {exc}"]
        ended_game = state.position.outcome() is not None
        if turn.finished_at is not None:
            expected_pass = state.pass_reason() or ""
            resigned_here = game.end_reason == EndReason.RESIGNED and turn is turns[-1]
            if not (ended_game or resigned_here) and not state.is_turn_over():
                problems.append(f"{where}: the record stops while dice can still be played")
            if turn.pass_reason != expected_pass and not resigned_here:
                problems.append(f"{where}: pass reason {turn.pass_reason!r}, "
                                f"replay says {expected_pass!r}")
            if turn.position_after and turn.position_after != state.position.to_id():
                problems.append(f"{where}: position after is {turn.position_after}, "
                                f"replay gives {state.position.to_id()}")
            first[side] = False
        position = state.position
    if position != game.position:
        problems.append(f"snapshot board {game.position.to_id()} differs from the replay "
                        f"{position.to_id()}")
    if (game.white_first_turn, game.black_first_turn) != (first[WHITE], first[1 - WHITE]):
        problems.append("first-turn flags differ from the replay")
    if game.turns != len(turns):
        problems.append(f"snapshot counts {game.turns} turns, {len(turns)} are recorded")
    if game.phase == GamePhase.MOVE and state is not None and (
            tuple(game.dice_left) != state.dice_left or game.head_left != state.head_left):
        problems.append("dice left or head counter differ from the replay")
    problems += _result_problems(game, position)
    return problems


def _result_problems(game: Game, position: Position) -> list[str]:
    outcome = position.outcome()
    if game.end_reason == EndReason.BORNE_OFF:
        if outcome is None:
            return ["recorded as borne off, but the replay has no winner"]
        expected = (outcome.winner, outcome.points, outcome.mars)
    elif game.end_reason == EndReason.RESIGNED:
        if not game.winner:
            return ["recorded as resigned without a winner"]
        expected_outcome = resign_outcome(position, other(side_of(game.winner)))
        expected = (expected_outcome.winner, expected_outcome.points, expected_outcome.mars)
    else:
        return ["the replay ends the game, but it is still open"] if outcome else []
    stored = (side_of(game.winner), game.points_won, game.mars)
    return [] if stored == expected else [f"result {stored} differs from the replay {expected}"]
