"""Game review of stored games: a finished game's records → the review.

Reads a :class:`~games.models.Game`'s per-move records and offers, replays them
through the engine into :class:`computer.review.TurnInput` / ``StakeInput`` values and
reviews them with :func:`computer.review.review_game`. A record that does not replay
raises :class:`~computer.review.ReviewError` before anything is reviewed: never a
half review. The last turn of a resigned game, left unfinished, is not reviewed.
:func:`match_context` gives the match score a game was played at (the review's MWC).
"""

from __future__ import annotations

from typing import Any

from computer.board import ruleset
from computer.review import MatchContext, ReviewError, StakeInput, TurnInput, review_game
from games.models import RESIGNATIONS, Game, Stakes, side_of
from nardy import Step
from nardy.stakes import mars_counts

__all__ = ["ReviewError", "game_inputs", "match_context", "review_stored_game"]


def game_inputs(game: Game) -> tuple[list[TurnInput], list[StakeInput], float]:
    """The game's turns and stake decisions as the engine's values, and White's result
    per unit of stake. Raises :class:`ReviewError` when the record does not replay."""
    rs = ruleset(game.match.rules)
    position = rs.initial()
    first = [True, True]
    turns: list[TurnInput] = []
    offers = list(game.offers)
    decisions: list[StakeInput] = []
    stake = 1
    records = list(game.turn_records.order_by("number"))
    resigned = game.end_reason in RESIGNATIONS
    for number, record in enumerate(records, start=1):
        side = side_of(record.side)
        while offers and offers[0]["before_turn"] == number:
            offer = offers.pop(0)
            answer = offer.get("answer")
            decisions.append(StakeInput(number, position, side_of(offer["by"]), first[side],
                                        stake, int(offer["stake"]), offered=True,
                                        accepted=None if answer is None else answer == "accept"))
            if answer == "accept":
                stake = int(offer["stake"])
        dice = (int(record.dice[0]), int(record.dice[1]))
        try:
            steps = tuple(Step(int(s["from"]), int(s["to"]), int(s.get("die") or 0))
                          for s in record.steps)
            turn = rs.start_turn(position, side, dice, first[side]).apply_all(steps)
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise ReviewError(f"turn {number} does not replay: {error}") from None
        last = record is records[-1]
        complete = turn.is_turn_over() or turn.outcome() is not None
        if not complete and not (resigned and last):
            raise ReviewError(f"turn {number} stops while dice can still be played")
        if complete:
            turns.append(TurnInput(position, side, dice, first[side], steps, stake))
        first[side] = False
        position = turn.position
    result = 0.0
    if game.winner and game.points_won is not None:
        per_stake = game.points_won / max(game.stake, 1)
        result = per_stake if side_of(game.winner) == 0 else -per_stake
    return turns, decisions, result


def match_context(game: Game) -> MatchContext | None:
    """The match score ``game`` started at: each side's points needed (the length minus
    the points of the match's earlier games it won), whether S7's Crawford game applies
    (the match has stakes) and whether this game is it or later. ``None`` for a 1-point
    match."""
    match = game.match
    if match.length <= 1:
        return None
    scored = [0, 0]
    for winner, points in (match.games.filter(number__lt=game.number)
                           .exclude(winner="").values_list("winner", "points_won")):
        scored[side_of(winner)] += points or 0
    crawford = match.stakes != Stakes.NONE
    after = crawford and match.crawford_game is not None and game.number >= match.crawford_game
    return MatchContext(match.length, (max(match.length - scored[0], 1),
                                       max(match.length - scored[1], 1)), crawford, after)


def review_stored_game(game: Game, depth: int, progress: Any = None) -> dict[str, Any]:
    """The review of ``game`` at ``depth`` as JSON (:meth:`GameReview.as_dict`)."""
    turns, decisions, result = game_inputs(game)
    review = review_game(game.match.rules, turns, depth, stake_decisions=decisions,
                         result=result, mars=mars_counts(game.match.stakes), progress=progress,
                         match=match_context(game))
    return {"game": game.number, **review.as_dict()}
