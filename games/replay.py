"""Rebuild a stored game from its per-move records and compare it with its snapshot.

The replay plays the records through the one turn path (:mod:`games.transitions`) on
an in-memory copy of the game that is never written, so a stored game is checked by
exactly the code that played it; the first step that fails is reported.
"""

from __future__ import annotations

from games import transitions
from games.models import RESIGNATIONS, Game, GamePhase, Match, MatchStatus, side_of
from games.unit_of_work import Change
from nard_site.domain import DomainError
from nardy import AskedStep

_NO_LIMIT = 10**6  # the copy's match length: the replayed game never ends the match


def _replay_offers(change: Change, game: Game, offers: list[dict], before_turn: int) -> None:
    """The stored offers that came before turn ``before_turn``, with their answers
    (S2-S5, S7), through the one turn path."""
    while offers and offers[0]["before_turn"] == before_turn:
        offer = offers.pop(0)
        if side_of(offer["by"]) != side_of(game.turn) or game.phase != GamePhase.ROLL:
            raise ValueError(f"an offer by {offer['by']} before turn {before_turn}, when "
                             f"{game.turn or 'nobody'} was to roll")
        stake = transitions.offer(change, game, side_of(offer["by"]))
        if stake != offer["stake"]:
            raise ValueError(f"an offer of {offer['stake']} where the next stake is {stake}")
        if offer.get("answer") == "accept":
            transitions.accept(change, game, side_of(game.turn))
        elif offer.get("answer") == "refuse":
            transitions.refuse(change, game, side_of(game.turn))


def replay_problems(game: Game) -> list[str]:
    """What differs between the replay of ``game``'s turns and what is stored (empty: none)."""
    match = game.match
    copy = Match(rules=match.rules, length=_NO_LIMIT, status=MatchStatus.ACTIVE, version=0,
                 hotseat=match.hotseat, stakes=match.stakes, progression=match.progression,
                 crawford_game=match.crawford_game)
    if match.length == 1:
        copy.length = 1  # S7: a 1-point match has no offers
    change = Change(copy, commit_dice=False)  # the record's dice are played
    turns = list(game.turn_records.order_by("number"))
    starter = side_of(game.starter) if game.starter else None
    replayed = transitions.new_game(change, game.number, starter)  # the roll-off decided
    resigned = game.end_reason in RESIGNATIONS  # by the player, or on the clock
    problems: list[str] = []
    offers = list(game.offers)
    for expected_number, turn in enumerate(turns, start=1):
        where = f"turn {turn.number}"
        if turn.number != expected_number:
            return [f"{where}: expected turn number {expected_number}"]
        if replayed.is_over:
            return [f"{where}: the game was already over"]
        if side_of(turn.side) != side_of(replayed.turn):
            return [f"{where}: it was {replayed.turn}'s turn, not {turn.side}'s"]
        index = 0
        try:
            _replay_offers(change, replayed, offers, turn.number)
            if replayed.is_over:
                return [f"{where}: the game was already over"]
            result = transitions.start_turn(change, replayed, (turn.dice[0], turn.dice[1]))
            for step in turn.steps:
                index += 1
                result = transitions.play(change, replayed,
                                          [AskedStep(step["from"], step["to"], step["die"])])
        except (DomainError, ValueError, KeyError, IndexError, TypeError) as exc:
            message = getattr(exc, "message", None) or str(exc)
            return [f"{where}, step {index}: {message}" if index else f"{where}: {message}"]
        last = turn is turns[-1]
        if turn.finished_at is not None:
            resigned_here = resigned and last
            if result.state is not None and not resigned_here:
                problems.append(f"{where}: the record stops while dice can still be played")
            expected_pass = transitions.NO_LEGAL_MOVE if result.passed else ""
            if turn.pass_reason != expected_pass and not resigned_here:
                problems.append(f"{where}: pass reason {turn.pass_reason!r}, "
                                f"replay says {expected_pass!r}")
            if turn.position_after and turn.position_after != replayed.position_key:
                problems.append(f"{where}: position after is {turn.position_after}, "
                                f"replay gives {replayed.position_key}")
    try:
        _replay_offers(change, replayed, offers, len(turns) + 1)
    except (DomainError, ValueError) as exc:
        return [f"after turn {len(turns)}: {getattr(exc, 'message', None) or exc}"]
    if offers:
        problems.append(f"offers {offers} do not fit the turns")
    if resigned and not replayed.is_over:
        transitions.resign(change, replayed, 1 - side_of(game.winner) if game.winner else 0,
                           game.end_reason)
    if replayed.position_key != game.position_key:
        problems.append(f"snapshot board {game.position_key} differs from the replay "
                        f"{replayed.position_key}")
    if (game.white_first_turn, game.black_first_turn) != (replayed.white_first_turn,
                                                           replayed.black_first_turn):
        problems.append("first-turn flags differ from the replay")
    if game.turns != len(turns):
        problems.append(f"snapshot counts {game.turns} turns, {len(turns)} are recorded")
    if game.phase == GamePhase.MOVE and game.turn_key != replayed.turn_key:
        problems.append("the turn in progress (dice left, head counter) differs from the replay")
    if (game.stake, game.stake_holder, game.offer_by) != (
            replayed.stake, replayed.stake_holder, replayed.offer_by):
        problems.append(f"stake {game.stake} (right: {game.stake_holder or 'both'}, offer by "
                        f"{game.offer_by or 'nobody'}) differs from the replay's "
                        f"{replayed.stake} ({replayed.stake_holder or 'both'}, "
                        f"{replayed.offer_by or 'nobody'}) (S1-S5)")
    problems += _result_problems(game, replayed)
    return problems


def _result_problems(game: Game, replayed: Game) -> list[str]:
    if not game.end_reason:
        return ["the replay ends the game, but it is still open"] if replayed.is_over else []
    if not replayed.is_over:
        return [f"recorded as {game.end_reason}, but the replay has no winner"]
    stored = (game.winner, game.points_won, game.mars, game.result, game.end_reason,
              game.stake)
    expected = (replayed.winner, replayed.points_won, replayed.mars, replayed.result,
                replayed.end_reason, replayed.stake)
    return [] if stored == expected else [f"result {stored} differs from the replay {expected}"]
