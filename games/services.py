"""The only write path for matches.

Each service runs in one transaction with the match row locked
(``select_for_update``), checks its guards in a fixed order — the match exists,
the caller plays in it, ``expected_version`` is current, the match is active, it
is the caller's turn, the phase fits — then asks the engine, and saves the
snapshot, the per-turn record and the events together.  A refusal raises a
:mod:`games.exceptions` error before anything is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import dice as dice_source
from games import notify, store
from games.engine import (
    BLACK,
    WHITE,
    IllegalMoveError,
    NotationError,
    Outcome,
    Position,
    Side,
    Step,
    TurnState,
    match_winner,
    other,
    resign_outcome,
)
from games.exceptions import (
    IllegalMove,
    InvalidRequest,
    NotFound,
    NotYourTurn,
    PermissionDenied,
    VersionConflict,
    WrongPhase,
)
from games.models import (
    MATCH_LENGTHS,
    Color,
    EndReason,
    Event,
    Game,
    GamePhase,
    Match,
    MatchStatus,
    Turn,
    color_of,
    side_of,
)

NO_LEGAL_MOVE = "no legal move"
MAX_TURNS_PER_GAME = 2000  # a ply cap: no game may grow without bound


# --- the unit of work ----------------------------------------------------------------


@dataclass
class Change:
    """What one service call writes: the locked match, its events, and dirty rows."""

    match: Match
    now: datetime = field(default_factory=timezone.now)
    events: list[Event] = field(default_factory=list)

    def log(self, type_: str, **data: Any) -> None:
        self.match.last_event_seq += 1
        self.events.append(Event(match=self.match, seq=self.match.last_event_seq, type=type_,
                                 at=self.now, data=data))

    def commit(self, *rows: Any) -> Match:
        """Save the changed rows, bump the version and append the events; listeners
        hear of them once the transaction commits (:mod:`games.notify`)."""
        self.match.version += 1
        store.save(self.match, rows, self.events)
        match, events = self.match, list(self.events)
        transaction.on_commit(lambda: notify.committed(match, events))
        return self.match


def _lock(match_id: int) -> Match:
    """The match, locked for this transaction, with its players, game and turn."""
    match = store.lock_match(match_id)
    if match is None:
        raise NotFound(f"No match with id {match_id}.")
    return match


def _check_version(match: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != match.version:
        raise VersionConflict(
            f"The match is at version {match.version}, not {expected_version}.",
            details={"version": match.version, "expected_version": expected_version})


def _acting_sides(match: Match, user: User) -> tuple[Side, ...]:
    sides = match.sides_of(user)
    if not sides:
        raise PermissionDenied("Only the players of this match may do that.")
    return sides


def _active_game(match: Match) -> Game:
    if match.status != MatchStatus.ACTIVE or match.current_game is None:
        raise WrongPhase(f"The match is {match.status}, not active.",
                         details={"status": match.status})
    return match.current_game


def _new_game(match: Match, number: int, starter: Side | None, now: datetime) -> Game:
    game = Game(match=match, number=number, position=Position.initial(), started_at=now,
                phase=GamePhase.ROLL_OFF if starter is None else GamePhase.ROLL,
                turn="" if starter is None else color_of(starter),
                starter="" if starter is None else color_of(starter))
    game.save()
    return game


def start_first_game(change: Change) -> None:
    match = change.match
    match.status = MatchStatus.ACTIVE
    match.started_at = change.now
    match.current_game = _new_game(match, 1, None, change.now)
    change.log("game_start", game=1, starter=None, roll_off=True)


# --- creating and joining ------------------------------------------------------------


def match_create(*, user: User, length: int, opponent: str | None = None,
                 hotseat: bool = False, color: str = "random",
                 rematch_of: Match | None = None) -> Match:
    """An open seek, an invitation to ``opponent``, or a hotseat match (active at once)."""
    if length not in MATCH_LENGTHS:
        raise InvalidRequest("A match is 1, 3, 5 or 7 points.",
                             details={"length": ["Must be one of 1, 3, 5, 7."]})
    if color not in ("white", "black", "random"):
        raise InvalidRequest("Colour must be white, black or random.",
                             details={"color": ["Must be white, black or random."]})
    invited = None
    if hotseat and opponent:
        raise InvalidRequest("A hotseat match has no opponent account.",
                             details={"opponent": ["Not allowed with hotseat."]})
    if opponent:
        invited = User.objects.named(opponent).filter(is_active=True).first()
        if invited is None:
            raise InvalidRequest(f"No player named {opponent!r}.",
                                 details={"opponent": [f"No player named {opponent!r}."]})
        if invited.pk == user.pk:
            raise InvalidRequest("You cannot invite yourself; use hotseat to play both sides.",
                                 details={"opponent": ["You cannot invite yourself."]})
    if color == "random":
        color = secrets.choice(("white", "black"))
    with transaction.atomic():
        match = Match(created_by=user, length=length, hotseat=hotseat, invited=invited,
                      rematch_of=rematch_of, version=0)  # the commit below makes it 1
        if hotseat:
            match.white = match.black = user
        elif color == "white":
            match.white, match.black = user, invited
        else:
            match.white, match.black = invited, user
        match.status = (MatchStatus.ACTIVE if hotseat
                        else MatchStatus.INVITED if invited else MatchStatus.OPEN)
        match.save()
        change = Change(match)
        change.log("match_created", length=length, hotseat=hotseat, by=user.username,
                   white=match.white.username if match.white else None,
                   black=match.black.username if match.black else None,
                   invited=invited.username if invited else None,
                   rematch_of=rematch_of.pk if rematch_of else None)
        if hotseat:
            start_first_game(change)
        return change.commit()


def match_join(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """Take the free seat of an open seek, or accept an invitation."""
    with transaction.atomic():
        match = _lock(match_id)
        _check_version(match, expected_version)
        if match.status == MatchStatus.INVITED:
            if match.invited_id != user.pk:
                raise PermissionDenied("Only the invited player may accept this invitation.")
        elif match.status == MatchStatus.OPEN:
            if match.created_by_id == user.pk:
                raise PermissionDenied("You cannot join your own seek.")
        else:
            raise WrongPhase(f"The match is {match.status}; only open seeks and invitations "
                             "can be joined.", details={"status": match.status})
        if match.status == MatchStatus.OPEN:  # an invitation has both seats already
            if match.white_id is None:
                match.white = user
            else:
                match.black = user
        side = WHITE if match.white_id == user.pk else BLACK
        change = Change(match)
        change.log("joined", user=user.username, color=color_of(side))
        start_first_game(change)
        return change.commit()


def match_cancel(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """Withdraw a seek or invitation (its creator) or decline an invitation (the invitee)."""
    with transaction.atomic():
        match = _lock(match_id)
        if user.pk not in (match.created_by_id, match.invited_id):
            raise PermissionDenied("Only the creator or the invited player may cancel this.")
        _check_version(match, expected_version)
        if match.status not in (MatchStatus.OPEN, MatchStatus.INVITED):
            raise WrongPhase("Only a match that has not started can be cancelled.",
                             details={"status": match.status})
        match.status = MatchStatus.ABORTED
        match.finished_at = timezone.now()
        change = Change(match)
        declined = user.pk == match.invited_id
        change.log("aborted", by=user.username, reason="declined" if declined else "cancelled")
        return change.commit()


def match_abort(*, match_id: int, by: User, reason: str = "aborted by staff") -> Match:
    """Staff stop a stuck match where it stands (no score changes)."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise WrongPhase(f"The match is already {match.status}.")
        match.status = MatchStatus.ABORTED
        match.finished_at = timezone.now()
        change = Change(match)
        change.log("aborted", by=by.username, reason=reason)
        return change.commit()


def match_rematch(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """After a finished match: the same opponent, the same length, colours swapped."""
    with transaction.atomic():
        match = _lock(match_id)
        sides = _acting_sides(match, user)
        _check_version(match, expected_version)
        if match.status != MatchStatus.FINISHED:
            raise WrongPhase("A rematch is offered only after the match has finished.",
                             details={"status": match.status})
        if Match.objects.filter(rematch_of=match).exists():
            raise WrongPhase("A rematch of this match already exists.")
        if match.hotseat:
            return match_create(user=user, length=match.length, hotseat=True,
                                rematch_of=match)
        my_side = sides[0]
        opponent = match.player(other(my_side))
        new_color = color_of(other(my_side))  # colours swapped
        return match_create(user=user, length=match.length, opponent=opponent.username,
                            color=new_color, rematch_of=match)


# --- playing ---------------------------------------------------------------------------


def _roll_off(change: Change, game: Game, sides: tuple[Side, ...]) -> dict[str, Any]:
    pending = [s for s in sides
               if (game.rolloff_white if s == WHITE else game.rolloff_black) is None]
    if not pending:
        raise NotYourTurn("You have rolled in this roll-off; waiting for the opponent.")
    side = pending[0]
    die = dice_source.roll_die()
    if side == WHITE:
        game.rolloff_white = die
    else:
        game.rolloff_black = die
    white, black = game.rolloff_white, game.rolloff_black
    result = "pending"
    if white is not None and black is not None:
        if white == black:
            result = "tie"
            game.rolloff_white = game.rolloff_black = None
        else:
            starter = WHITE if white > black else BLACK
            result = color_of(starter)
            game.starter = game.turn = color_of(starter)
            game.phase = GamePhase.ROLL
    change.log("roll_off", game=game.number, side=color_of(side), die=die, white=white,
               black=black, result=result)
    return {"kind": "roll-off", "side": color_of(side), "die": die, "result": result}


def match_roll(*, match_id: int, user: User,
               expected_version: int | None = None) -> tuple[Match, dict[str, Any]]:
    """A roll-off die (R7), or the two dice of the turn; passes at once if nothing plays."""
    with transaction.atomic():
        match = _lock(match_id)
        sides = _acting_sides(match, user)
        _check_version(match, expected_version)
        game = _active_game(match)
        change = Change(match)
        if game.phase == GamePhase.ROLL_OFF:
            roll = _roll_off(change, game, sides)
            return change.commit(game), roll
        side = side_of(game.turn)
        if side not in sides:
            raise NotYourTurn(f"It is {game.turn}'s turn.", details={"turn": game.turn})
        if game.phase != GamePhase.ROLL:
            raise WrongPhase("The dice are rolled; play your steps.",
                             details={"phase": game.phase})
        if game.turns >= MAX_TURNS_PER_GAME:
            raise WrongPhase("This game has reached the turn limit.")
        dice = (dice_source.roll_die(), dice_source.roll_die())
        state = TurnState.start(game.position, side, dice, game.first_turn(side))
        game.turns += 1
        turn = Turn(game=game, number=game.turns, side=game.turn, dice=list(dice),
                    started_at=change.now)
        game.current_turn = turn  # saved by the commit, before the game
        game.phase, game.dice = GamePhase.MOVE, list(dice)
        change.log("roll", game=game.number, turn=turn.number, side=game.turn, dice=list(dice))
        after_steps(change, game, turn, state)
        passed = turn.pass_reason != ""
        return change.commit(turn, game), {"kind": "turn", "side": color_of(side),
                                           "dice": list(dice), "passed": passed}


def match_move(*, match_id: int, user: User, steps: list[Mapping[str, Any]],
               expected_version: int | None = None) -> tuple[Match, list[Step]]:
    """Apply one or more steps of the turn, all or none (R10–R28)."""
    with transaction.atomic():
        match = _lock(match_id)
        sides = _acting_sides(match, user)
        _check_version(match, expected_version)
        game = _active_game(match)
        if game.phase == GamePhase.ROLL_OFF:
            raise WrongPhase("The roll-off comes first.", details={"phase": game.phase})
        side = side_of(game.turn)
        if side not in sides:
            raise NotYourTurn(f"It is {game.turn}'s turn.", details={"turn": game.turn})
        if game.phase != GamePhase.MOVE:
            raise WrongPhase("Roll the dice first.", details={"phase": game.phase})
        state = game.turn_state()
        assert state is not None
        applied: list[Step] = []
        for index, wanted in enumerate(steps):
            src, dst, die = wanted["from"], wanted["to"], wanted.get("die")
            try:
                step = state.resolve(src, dst) if die is None else Step(src, dst, die)
                state = state.apply(step)
            except (IllegalMoveError, NotationError) as exc:
                reason = getattr(exc, "reason", "invalid_step")
                shown = f"{src}/{'off' if dst == 0 else dst}"
                raise IllegalMove(
                    f"Step {index + 1} ({shown}) is illegal: {exc}",
                    details={"reason": reason, "index": index,
                             "step": {"from": src, "to": dst, "die": die},
                             "legal_steps": [step_json(s) for s in state.legal_steps()]},
                ) from exc
            applied.append(step)
        change = Change(match)
        turn = game.current_turn
        assert turn is not None
        for step in applied:
            change.log("step", game=game.number, turn=turn.number, side=game.turn,
                       **step_json(step))
        turn.steps = [*turn.steps, *(step_json(s) for s in applied)]
        after_steps(change, game, turn, state)
        return change.commit(game, turn), applied


def step_json(step: Step) -> dict[str, int]:
    """A step as the API and the per-move records write it."""
    return {"from": step.src, "to": step.dst, "die": step.die}


def after_steps(change: Change, game: Game, turn: Turn, state: TurnState) -> None:
    """Store the state; end the turn (with a pass, R23) or the game (R28) when due."""
    game.position = state.position
    game.dice_left = list(state.dice_left)
    game.head_left = state.head_left
    game.keep_turn_state(state)
    outcome = state.position.outcome()
    if outcome is not None:
        _end_turn(change, game, turn, state, reason="")
        end_game(change, game, outcome, EndReason.BORNE_OFF)
    elif state.is_turn_over():
        reason = state.pass_reason() or ""
        if reason:
            change.log("pass", game=game.number, turn=turn.number, side=game.turn,
                       reason=reason, dice_left=list(state.dice_left))
        _end_turn(change, game, turn, state, reason=reason)


def _end_turn(change: Change, game: Game, turn: Turn, state: TurnState, reason: str) -> None:
    side = state.side
    turn.pass_reason = reason
    turn.position_after = state.position.to_id()
    turn.finished_at = change.now
    if side == WHITE:
        game.white_first_turn = False
    else:
        game.black_first_turn = False
    game.turn = color_of(other(side))
    game.phase = GamePhase.ROLL
    game.dice, game.dice_left, game.head_left = None, [], 0
    game.current_turn = None


def end_game(change: Change, game: Game, outcome: Outcome, reason: str) -> None:
    """Score the game (R29/R30), then end the match (R31) or start the next game (R8)."""
    match = change.match
    game.winner = color_of(outcome.winner)
    game.points_won, game.mars = outcome.points, outcome.mars
    game.end_reason = reason
    game.finished_at = change.now
    game.phase, game.turn = GamePhase.FINISHED, ""
    game.dice, game.dice_left, game.head_left, game.current_turn = None, [], 0, None
    if outcome.winner == WHITE:
        match.score_white += outcome.points
    else:
        match.score_black += outcome.points
    score = {"white": match.score_white, "black": match.score_black}
    change.log("game_over", game=game.number, winner=game.winner, points=outcome.points,
               mars=outcome.mars, reason=reason, score=score)
    winner = match_winner((match.score_white, match.score_black), match.length)
    if winner is not None:
        match.status, match.winner, match.finished_at = (
            MatchStatus.FINISHED, color_of(winner), change.now)
        change.log("match_over", winner=match.winner, score=score)
        return
    loser = other(outcome.winner)  # R8: the loser starts the next game
    match.current_game = _new_game(match, game.number + 1, loser, change.now)
    change.log("game_start", game=game.number + 1, starter=color_of(loser), roll_off=False)


def match_resign(*, match_id: int, user: User, side: str | None = None,
                 expected_version: int | None = None) -> Match:
    """Concede the current game (R30): 2 points if nothing is borne off yet, else 1."""
    with transaction.atomic():
        match = _lock(match_id)
        sides = _acting_sides(match, user)
        _check_version(match, expected_version)
        game = _active_game(match)
        if side is not None:
            resigning = side_of(side)
            if resigning not in sides:
                raise PermissionDenied(f"You do not play {side}.")
        elif len(sides) == 1:
            resigning = sides[0]
        else:  # hotseat: the side to move resigns (White during the roll-off)
            resigning = side_of(game.turn) if game.turn else WHITE
        change = Change(match)
        turn = game.current_turn
        resign_game(change, game, resigning)
        return change.commit(game, *([turn] if turn is not None else []))


def resign_game(change: Change, game: Game, resigning: Side) -> None:
    """End ``game`` by resignation (R30); a turn in progress ends here (the caller saves it)."""
    turn = game.current_turn
    if turn is not None:  # it was that side's turn taken, so its first turn is used up
        turn.position_after = game.position.to_id()
        turn.finished_at = change.now
        if side_of(turn.side) == WHITE:
            game.white_first_turn = False
        else:
            game.black_first_turn = False
    change.log("resign", game=game.number, side=color_of(resigning))
    end_game(change, game, resign_outcome(game.position, resigning), EndReason.RESIGNED)


__all__ = [
    "NO_LEGAL_MOVE",
    "Change",
    "Color",
    "after_steps",
    "end_game",
    "match_abort",
    "match_cancel",
    "match_create",
    "match_join",
    "match_move",
    "match_rematch",
    "match_resign",
    "match_roll",
    "resign_game",
    "start_first_game",
    "step_json",
]
