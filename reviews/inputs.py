"""Game review of stored games: a finished game's records → the review.

The game's records are walked once, by the one replay of a stored game
(:class:`games.replay.GameReplay`); :func:`game_inputs` maps its turns and offers to
:class:`computer.review.TurnInput` / ``StakeInput`` values, which
:func:`computer.review.review_game` reviews. A record that does not replay raises
:class:`~computer.review.ReviewError` before anything is reviewed: never a half review.
The last turn of a resigned game, left unfinished, is not reviewed. :func:`match_context`
gives the match score a game was played at (the review's MWC).
"""

from __future__ import annotations

from typing import Any

from computer.review import MatchContext, ReviewError, StakeInput, TurnInput, review_game
from games.models import Game, Stakes, side_of
from games.replay import GameReplay, ReplayError
from nardy.stakes import mars_counts

__all__ = ["ReviewError", "game_inputs", "match_context", "review_stored_game"]


def game_inputs(game: Game) -> tuple[list[TurnInput], list[StakeInput], float]:
    """The game's turns and stake decisions as the engine's values, and White's result
    per unit of stake. Raises :class:`ReviewError` when the record does not replay."""
    replay = GameReplay(game)
    turns: list[TurnInput] = []
    decisions: list[StakeInput] = []
    try:
        for turn in replay.turns():
            decisions += [StakeInput(turn.number, turn.before, offer.by, turn.first_turn,
                                     offer.stake_before, offer.stake, offered=True,
                                     accepted=None if offer.answer is None
                                     else offer.answer == "accept")
                          for offer in turn.offers]
            last = turn.record is replay.records[-1]
            if not turn.complete and not (replay.resigned and last):
                raise ReviewError(f"turn {turn.number} stops while dice can still be played")
            if turn.complete:
                turns.append(TurnInput(turn.before, turn.side, turn.dice, turn.first_turn,
                                       turn.steps, turn.stake))
    except ReplayError as error:
        raise ReviewError(f"turn {error.turn} does not replay: {error.message}") from None
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
