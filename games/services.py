"""The only write path for matches.

Each service runs in one transaction with the match row locked
(``select_for_update``), checks its guards in a fixed order — the match exists,
the caller plays in it, ``expected_version`` is current, the match is active, it
is the caller's turn, the phase fits — then asks the engine, and saves the
snapshot, the per-turn record and the events together. How a turn happens is
:mod:`games.transitions`' business (the one turn path); a refusal raises a
:mod:`games.exceptions` error before anything is written.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts import blocks
from accounts.models import User
from accounts.selectors import accepts_challenge_from
from games import clocks, dice, fairness, opponents, shapes, store, transitions
from games.exceptions import (
    Blocked,
    ChallengesClosed,
    InvalidRequest,
    InvitationsThrottled,
    NotFound,
    NotYourTurn,
    PermissionDenied,
    TooManyComputerMatches,
    TooManyInvitations,
    VersionConflict,
    WrongPhase,
)
from games.models import (
    Game,
    GamePhase,
    Match,
    MatchStatus,
    color_of,
    is_over,
    side_of,
)
from games.start import MatchOptions, match_start, seats
from games.unit_of_work import Change
from nard_site.api.renderers import iso_time, iso_time_or_none
from nardy import (
    BLACK,
    SIDE_NAMES,
    WHITE,
    AskedStep,
    Side,
    Step,
    Turn,
    other,
)


def _lock(match_id: int) -> Change:
    """The match, locked for this transaction, with its players, game and turn, as the
    start of a change."""
    found = store.lock_match(match_id)
    if found is None:
        raise NotFound(gettext("No match with id %(id)s.") % {"id": match_id})
    match, loaded = found
    return Change(match, loaded)


def _check_version(match: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != match.version:
        raise VersionConflict(
            gettext("The match is at version %(version)s, not %(expected)s.") % {
                "version": match.version, "expected": expected_version},
            details={"version": match.version, "expected_version": expected_version})


def _acting_sides(match: Match, user: User) -> tuple[Side, ...]:
    sides = match.sides_of(user)
    if not sides:
        raise PermissionDenied(gettext_noop("Only the players of this match may do that."))
    return sides


class _Abandoned(WrongPhase):
    """The match is past its abandonment limit: the service that found it
    settles it first (:func:`_clock_enforced`); the action itself is refused."""


def _active_game(match: Match) -> Game:
    if match.status != MatchStatus.ACTIVE or match.current_game is None:
        raise WrongPhase(gettext("The match is %(status)s, not active.") % {
                             "status": gettext(str(match.status))},
                         details={"status": match.status})
    if clocks.is_abandoned(match, timezone.now()):
        raise _Abandoned("The side to act was late by more than the clock allows: the "
                         "match is abandoned.", details={"status": match.status,
                                                         "reason": "abandoned"})
    return match.current_game


def _lock_playing(match_id: int, user: User, expected_version: int | None,
                  ) -> tuple[Change, tuple[Side, ...], Game]:
    """The start of a player's action in a game: the match locked (:func:`_lock`), then
    the guards in their fixed order — a player of it, the expected version, a game in
    play. The change (its ``match``), the user's sides and the game."""
    change = _lock(match_id)
    sides = _acting_sides(change.match, user)
    _check_version(change.match, expected_version)
    return change, sides, _active_game(change.match)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _clock_enforced(service: Callable[_P, _R]) -> Callable[_P, _R]:
    """Lazy enforcement of the clock on every action: a match found abandoned under the
    lock is settled (its own transaction, :func:`match_settle_clock`) and the action is
    refused with 409 ``wrong_phase`` (``details.reason: abandoned``)."""

    @functools.wraps(service)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return service(*args, **kwargs)
        except _Abandoned as late:
            settled = match_settle_clock(match_id=kwargs["match_id"], by="request")  # type: ignore[arg-type]
            status = settled.status if settled is not None else late.details["status"]
            raise WrongPhase(late.message, details={"status": status,
                                                    "reason": "abandoned"}) from None

    return run


def _side_to_act(game: Game, sides: tuple[Side, ...]) -> Side:
    side = side_of(game.turn)
    if side not in sides:
        raise NotYourTurn(gettext("It is White's turn.") if game.turn == "white"
                          else gettext("It is Black's turn."), details={"turn": game.turn})
    return side


# --- creating and joining ------------------------------------------------------------


def match_create(*, user: User, length: int, opponent: str | None = None,
                 hotseat: bool = MatchOptions.hotseat, color: str = "random",
                 rules: str = MatchOptions.rules, rematch_of: Match | None = None,
                 stakes: str = MatchOptions.stakes,
                 progression: str = MatchOptions.progression, computer: str | None = None,
                 turn_seconds: int | None = MatchOptions.turn_seconds,
                 rated: bool | None = MatchOptions.rated) -> Match:
    """An open seek, an invitation to ``opponent``, or a hotseat match (active at once);
    with ``computer`` (a level, :mod:`games.opponents`), a match against that level's
    account, active at once (the computer plays by itself: :mod:`games.bots`). ``color``
    is the creator's: ``white``, ``black`` or ``random``.

    The options are fixed here for the whole match; they are checked, and the match
    made, by :func:`games.start.match_start`.
    """
    options = MatchOptions(length=length, rules=rules, stakes=stakes, progression=progression,
                           turn_seconds=turn_seconds, hotseat=hotseat, rated=rated)
    options.check()
    if color not in (*SIDE_NAMES, "random"):
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
        if blocks.between(user.pk, invited.pk):
            raise Blocked(details={"opponent": invited.username})
    if computer is not None:
        if hotseat or opponent:
            raise InvalidRequest("A match against the computer has no other opponent.",
                                 details={"computer": ["Not allowed with opponent or hotseat."]})
        invited = opponents.computer_account(level=computer, rules=rules)
    if color == "random":
        color = secrets.choice(SIDE_NAMES)
    white, black = seats(user, invited, color)
    if invited is not None and computer is None:
        _check_challenge(user, invited)
    with transaction.atomic():
        if invited is not None:
            _check_open_limits(user, invited)
        return match_start(created_by=user, options=options, white=white, black=black,
                           invited=invited if computer is None else None,
                           rematch_of=rematch_of)


def _check_challenge(user: User, invited: User) -> None:
    """``invited``'s setting says who may challenge it: everyone, those it follows, or
    nobody (``accounts.selectors.accepts_challenge_from``)."""
    if not accepts_challenge_from(invited=invited, challenger=user):
        raise ChallengesClosed(details={"challenges": invited.challenges})


def _check_open_limits(user: User, invited: User) -> None:
    """Under a lock of ``user``'s row (so parallel creations
    count each other): at most ``COMPUTER_MATCHES_PER_ACCOUNT`` unfinished matches
    against the built-in computer; to people, at most ``INVITATIONS_OPEN_PER_ACCOUNT``
    open invitations, ``INVITATIONS_OPEN_PER_PLAYER`` of them to one player, and
    ``INVITATIONS_PER_HOUR`` made in the last hour."""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
    mine = Match.objects.filter(created_by=user)
    if opponents.level_of(invited):
        limit = settings.COMPUTER_MATCHES_PER_ACCOUNT
        bots = {"is_bot": True, "username__startswith": opponents.PREFIX}
        unfinished = mine.filter(status__in=(MatchStatus.ACTIVE, MatchStatus.INVITED)).filter(
            Q(**{f"white__{k}": v for k, v in bots.items()})
            | Q(**{f"black__{k}": v for k, v in bots.items()})
            | Q(**{f"invited__{k}": v for k, v in bots.items()}))
        if unfinished.count() >= limit:
            raise TooManyComputerMatches(
                f"You have {limit} unfinished matches against the computer, as many as "
                "allowed: finish or resign one first.", details={"limit": limit})
        return
    open_ = mine.filter(status=MatchStatus.INVITED)
    for reason, limit, count in (
            ("open", settings.INVITATIONS_OPEN_PER_ACCOUNT, open_.count),
            ("open_to_player", settings.INVITATIONS_OPEN_PER_PLAYER,
             open_.filter(invited=invited).count)):
        if count() >= limit:
            to = " to this player" if reason == "open_to_player" else ""
            raise TooManyInvitations(
                f"You have {limit} open invitations{to}, as many as allowed: wait for an "
                "answer or cancel one first.",
                details={"reason": reason, "limit": limit})
    limit = settings.INVITATIONS_PER_HOUR
    sent = (mine.filter(invited__isnull=False,
                        created_at__gte=timezone.now() - timedelta(hours=1))
            .exclude(invited__is_bot=True, invited__username__startswith=opponents.PREFIX))
    if sent.count() >= limit:
        raise InvitationsThrottled(f"At most {limit} invitations an hour.",
                                   details={"reason": "invitations_per_hour", "limit": limit})


def match_join(*, match_id: int, user: User, expected_version: int | None = None,
               seed: object = None) -> Match:
    """Take the free seat of an open seek, or accept an invitation. ``seed``: the
    joiner's own seed for game 1's dice, given after its commitment is drawn."""
    if seed is not None:
        _check_seed(seed)
    with transaction.atomic():
        change = _lock(match_id)
        match = change.match
        _check_version(match, expected_version)
        if match.status == MatchStatus.INVITED:
            if match.invited_id != user.pk:
                raise PermissionDenied("Only the invited player may accept this invitation.")
        elif match.status == MatchStatus.OPEN:
            if match.created_by_id == user.pk:
                raise PermissionDenied("You cannot join your own seek.")
            if blocks.between(user.pk, match.created_by_id):
                raise Blocked()
        else:
            raise WrongPhase(f"The match is {match.status}; only open seeks and invitations "
                             "can be joined.", details={"status": match.status})
        if match.status == MatchStatus.OPEN:  # an invitation has both seats already
            if match.white_id is None:
                match.white = user
            else:
                match.black = user
        if match.rated and not user.may_play_rated:  # a bot joining makes it casual
            match.rated = False
        side = WHITE if match.white_id == user.pk else BLACK
        change.log("joined", user=user.username, color=color_of(side))
        game = transitions.start_first_game(change)
        if seed is not None:
            _give_seed(change, game, side, seed)
        return change.commit()


def match_cancel(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """Withdraw a seek or invitation (its creator) or decline an invitation (the invitee)."""
    with transaction.atomic():
        change = _lock(match_id)
        match = change.match
        if user.pk not in (match.created_by_id, match.invited_id):
            raise PermissionDenied("Only the creator or the invited player may cancel this.")
        _check_version(match, expected_version)
        if match.status not in (MatchStatus.OPEN, MatchStatus.INVITED):
            raise WrongPhase("Only a match that has not started can be cancelled.",
                             details={"status": match.status})
        match.status = MatchStatus.ABORTED
        match.finished_at = change.now
        declined = user.pk == match.invited_id
        change.log("aborted", by=user.username, reason="declined" if declined else "cancelled")
        return change.commit()


def match_abort(*, match_id: int, by: User, reason: str = "aborted by staff") -> Match:
    """Staff stop a stuck match where it stands (no score changes)."""
    with transaction.atomic():
        change = _lock(match_id)
        match = change.match
        if is_over(match.status):
            raise WrongPhase(f"The match is already {match.status}.")
        match.status = MatchStatus.ABORTED
        match.finished_at = change.now
        change.log("aborted", by=by.username, reason=reason, **_reveal(match))
        return change.commit()


def _reveal(match: Match) -> dict[str, Any]:
    """An abort ends the current game too: its dice seed is revealed."""
    game = match.current_game
    if game is None or not game.dice_seed:
        return {}
    return {"game": game.number, **dice.reveal(game)}


def match_rematch(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """After a finished match: the same opponent, the same length, colours swapped."""
    with transaction.atomic():
        change = _lock(match_id)
        match = change.match
        sides = _acting_sides(match, user)
        _check_version(match, expected_version)
        if match.status != MatchStatus.FINISHED:
            raise WrongPhase("A rematch is offered only after the match has finished.",
                             details={"status": match.status})
        if Match.objects.filter(rematch_of=match).exists():
            raise WrongPhase("A rematch of this match already exists.")
        options = MatchOptions(length=match.length, rules=match.rules, stakes=match.stakes,
                               progression=match.progression, turn_seconds=match.turn_seconds,
                               hotseat=match.hotseat, rated=match.rated)
        if match.hotseat:
            return match_start(created_by=user, options=options, white=user, black=user,
                               rematch_of=match)
        my_side = sides[0]
        opponent = match.player(other(my_side))
        assert opponent is not None
        white, black = seats(user, opponent, color_of(other(my_side)))  # colours swapped
        if not opponents.level_of(opponent):
            _check_challenge(user, opponent)
        _check_open_limits(user, opponent)
        return match_start(created_by=user, options=options, white=white, black=black,
                           invited=opponent, rematch_of=match)


# --- playing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """What a roll or a move did: the match after it, and the turn's engine state
    (``None`` once the turn is over), passed on to the answer explicitly."""

    match: Match
    state: Turn | None
    roll: shapes.Roll | None = None
    applied: tuple[transitions.AppliedStep, ...] = ()


@_clock_enforced
def match_roll(*, match_id: int, user: User, expected_version: int | None = None,
               seed: object = None) -> Played:
    """A roll-off die (R7/H4), or the two dice of the turn; passes at once if nothing plays.
    ``seed``: the roller's own seed for the game's dice, only before the game's first
    die; refused with nothing rolled after it."""
    if seed is not None:
        _check_seed(seed)
    with transaction.atomic():
        change, sides, game = _lock_playing(match_id, user, expected_version)
        if game.phase == GamePhase.ROLL_OFF:
            pending = [s for s in sides
                       if (game.rolloff_white if s == WHITE else game.rolloff_black) is None]
            if not pending:
                raise NotYourTurn(gettext_noop(
                    "You have rolled in this roll-off; waiting for the opponent."))
            if seed is not None:
                _give_seed(change, game, pending[0], seed)
            rolled = transitions.roll_off(change, game, pending[0],
                                          dice.roll_off_die(game, pending[0]))
            roll: shapes.Roll = {"kind": "roll-off", "side": color_of(rolled.side),
                                 "die": rolled.die, "result": rolled.result}
            if rolled.opening is not None:
                roll["dice"] = list(rolled.opening)
            return Played(change.commit(), game.turn_state() if rolled.opening else None, roll)
        side = _side_to_act(game, sides)
        if game.phase == GamePhase.OFFER:
            raise WrongPhase(gettext_noop("An offer waits for your answer: accept or refuse "
                                          "it (S3)."),
                             details={"phase": game.phase})
        if game.phase == GamePhase.RESIGN:
            raise WrongPhase(transitions.RESIGN_OFFER_WAITS, details={"phase": game.phase})
        if game.phase != GamePhase.ROLL:
            raise WrongPhase(gettext_noop("The dice are rolled; play your steps."),
                             details={"phase": game.phase})
        if seed is not None:
            _give_seed(change, game, side, seed)
        rolled_dice = dice.turn_dice(game)
        result = transitions.start_turn(change, game, rolled_dice)
        return Played(change.commit(), result.state,
                      {"kind": "turn", "side": color_of(side), "dice": list(rolled_dice),
                       "passed": result.passed})


# --- players' seeds (docs/fairness.md) -----------------------------------------


def _check_seed(seed: object) -> str:
    """A player's seed is text of 1 to 128 characters: else 400 ``validation_error``
    (``details.reason``: ``not_text``, ``empty`` or ``too_long``), before anything."""
    problem = fairness.player_seed_problem(seed)
    if problem is not None:
        message = {"not_text": "A seed is text (a JSON string, no control characters).",
                   "empty": "A seed is at least one character.",
                   "too_long": f"A seed is at most {fairness.MAX_PLAYER_SEED} characters.",
                   }[problem]
        raise InvalidRequest(message, details={"seed": [message], "reason": problem})
    assert isinstance(seed, str)
    return seed


def _give_seed(change: Change, game: Game, side: Side, seed: object) -> None:
    """``side``'s seed for ``game``'s dice: only for a committed game, before its first
    die, once per side (409 ``wrong_phase``, ``details.reason``: ``not_committed``,
    ``seed_too_late``, ``seed_given``)."""
    text = _check_seed(seed)
    if not game.dice_commitment:
        raise WrongPhase("This game's dice are not committed: a seed would not count.",
                         details={"reason": "not_committed"})
    if dice.first_die_rolled(game):
        raise WrongPhase("The game's first die is rolled: a seed no longer counts.",
                         details={"reason": "seed_too_late"})
    if (game.white_seed if side == WHITE else game.black_seed):
        raise WrongPhase(f"{color_of(side)} has given its seed for this game.",
                         details={"reason": "seed_given"})
    if side == WHITE:
        game.white_seed = text
    else:
        game.black_seed = text
    change.touch(game)
    change.log("player_seed", game=game.number, side=color_of(side), seed=text)


@_clock_enforced
def match_seed(*, match_id: int, user: User, seed: object, side: str | None = None,
               expected_version: int | None = None) -> Match:
    """A player adds its own seed to the current game's dice, before the game's first
    die. ``side``: hotseat only (default: the side to roll, White in the
    roll-off)."""
    _check_seed(seed)
    with transaction.atomic():
        change, sides, game = _lock_playing(match_id, user, expected_version)
        if side is not None:
            giver = side_of(side)
            if giver not in sides:
                raise PermissionDenied(f"You do not play {side}.")
        elif len(sides) == 1:
            giver = sides[0]
        else:
            giver = side_of(game.turn) if game.turn else WHITE
        _give_seed(change, game, giver, seed)
        return change.commit()


@_clock_enforced
def match_move(*, match_id: int, user: User, steps: Sequence[Step | AskedStep],
               expected_version: int | None = None) -> Played:
    """Apply one or more steps of the turn, all or none (R10–R28, H7–H14): the engine's
    steps, or steps as a request asked for them (:class:`~nardy.AskedStep`: a
    well-formed request may still be no step, which the rules refuse as
    ``illegal_move``, after the guards)."""
    with transaction.atomic():
        change, sides, game = _lock_playing(match_id, user, expected_version)
        if game.phase == GamePhase.ROLL_OFF:
            raise WrongPhase(gettext_noop("The roll-off comes first."),
                             details={"phase": game.phase})
        _side_to_act(game, sides)
        result = transitions.play(change, game, steps)
        return Played(change.commit(), result.state, applied=result.applied)


def _stake_game(match_id: int, user: User, expected_version: int | None) -> tuple[
        Change, Game, Side]:
    """The guards of an offer or an answer, in the fixed order; the acting side."""
    change, sides, game = _lock_playing(match_id, user, expected_version)
    if game.phase == GamePhase.ROLL_OFF:
        raise WrongPhase("No offers during the roll-off (S3).",
                         details={"phase": game.phase, "reason": "roll_off"})
    return change, game, _side_to_act(game, sides)


def _stake_action(transition: Callable[[Change, Game, Side], object], match_id: int,
                  user: User, expected_version: int | None) -> Match:
    """An offer or an answer: the guards of :func:`_stake_game`, then ``transition``."""
    with transaction.atomic():
        change, game, side = _stake_game(match_id, user, expected_version)
        transition(change, game, side)
        return change.commit()


@_clock_enforced
def match_offer(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """Before rolling, the side to roll offers the next stake (S2-S5, S7)."""
    return _stake_action(transitions.offer, match_id, user, expected_version)


@_clock_enforced
def match_accept(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """The side in ``turn`` accepts the waiting offer; the offerer then rolls (S4)."""
    return _stake_action(transitions.accept, match_id, user, expected_version)


@_clock_enforced
def match_refuse(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """The side in ``turn`` refuses the waiting offer and loses the game (S4)."""
    return _stake_action(transitions.refuse, match_id, user, expected_version)


@_clock_enforced
def match_resign(*, match_id: int, user: User, side: str | None = None,
                 whole_match: bool = False, offer: str | None = None,
                 expected_version: int | None = None) -> Match:
    """Concede the current game (R30/H16) with the points the position gives now;
    ``whole_match``: the match ends with it, whatever the score. ``offer``: instead, offer
    to resign with that result (``single``, ``gammon``, …: no more than the position
    gives), which the opponent accepts or refuses (:func:`games.transitions.resign_offer`)."""
    if offer is not None and whole_match:
        raise InvalidRequest("Offer a result for the game, or resign the match: not both.",
                             details={"offer": ["Not allowed with match."]})
    with transaction.atomic():
        change, sides, game = _lock_playing(match_id, user, expected_version)
        waiting = game.waiting_resign_offer()
        if side is not None:
            resigning = side_of(side)
            if resigning not in sides:
                raise PermissionDenied(f"You do not play {side}.")
        elif len(sides) == 1:
            resigning = sides[0]
        elif waiting is not None:  # hotseat: the side whose offer waits resigns outright
            resigning = side_of(str(waiting["by"]))
        else:  # hotseat: the side to move resigns (White during the roll-off)
            resigning = side_of(game.turn) if game.turn else WHITE
        if offer is not None:
            transitions.resign_offer(change, game, resigning, offer)
        else:
            transitions.resign(change, game, resigning, whole_match=whole_match)
        return change.commit()


def _resign_answer(transition: Callable[[Change, Game, Side], object], match_id: int,
                   user: User, expected_version: int | None) -> Match:
    """An answer to a resignation offer: the guards in their fixed order, then
    ``transition`` by the side in ``turn`` (the one the offer was made to)."""
    with transaction.atomic():
        change, sides, game = _lock_playing(match_id, user, expected_version)
        side = _side_to_act(game, sides)
        transition(change, game, side)
        return change.commit()


@_clock_enforced
def match_resign_accept(*, match_id: int, user: User,
                        expected_version: int | None = None) -> Match:
    """The side in ``turn`` accepts the waiting resignation offer: the game ends with the
    result offered (:func:`games.transitions.resign_accept`)."""
    return _resign_answer(transitions.resign_accept, match_id, user, expected_version)


@_clock_enforced
def match_resign_refuse(*, match_id: int, user: User,
                        expected_version: int | None = None) -> Match:
    """The side in ``turn`` refuses the waiting resignation offer: play goes on where it
    stopped (:func:`games.transitions.resign_refuse`)."""
    return _resign_answer(transitions.resign_refuse, match_id, user, expected_version)


# --- clocks ------------------------------------------------------------------


@_clock_enforced
def match_claim(*, match_id: int, user: User, expected_version: int | None = None) -> Match:
    """The waiting side claims the game of the side whose deadline has passed: the late
    side loses it as a resignation (R30/H16, times the stake, S6)."""
    with transaction.atomic():
        change, sides, game = _lock_playing(match_id, user, expected_version)
        match = change.match
        if not match.turn_seconds:
            raise WrongPhase("This match has no clock.", details={"reason": "no_clock"})
        late = clocks.late_sides(match)
        if len(late) != 1:
            raise WrongPhase("Neither side has rolled in this roll-off: nobody can claim; "
                             "abort the match instead.",
                             details={"phase": game.phase, "reason": "nobody_rolled"})
        claimers = [s for s in sides if s not in late]
        if not claimers:
            raise NotYourTurn("You are the side to act: only the waiting side may claim.",
                              details={"turn": color_of(late[0])})
        if not clocks.is_late(match, change.now):
            deadline = iso_time_or_none(match.deadline)
            raise WrongPhase(f"The deadline has not passed yet ({deadline}).",
                             details={"reason": "not_late", "deadline": deadline})
        transitions.claim(change, game, claimers[0], late[0])
        return change.commit()


def match_settle_clock(*, match_id: int, by: str = "sweep") -> Match | None:
    """Settle the match if it is abandoned (the side to act late by more than
    :func:`games.clocks.abandon_after`): that side resigns the match (the current game
    as R30/H16, and the match to the opponent). During a roll-off in which neither side
    has rolled, both are late: the match is aborted with no result. Checked under the
    row lock, so a match is settled once however many sweeps and requests race for it;
    ``None`` when there was nothing to settle."""
    with transaction.atomic():
        change = _lock(match_id)
        match = change.match
        if not clocks.is_abandoned(match, change.now) or match.current_game is None:
            return None
        late = clocks.late_sides(match)
        if len(late) == 1:
            transitions.abandon(change, match.current_game, late[0], by)
        else:
            match.status, match.finished_at = MatchStatus.ABORTED, change.now
            change.log("aborted", by=None, reason="abandoned", **_reveal(match))
        return change.commit()


def match_warn_clock(*, match_id: int) -> Match | None:
    """Log the ``deadline`` warning for the side to act (once per deadline) when its
    deadline is less than :func:`games.clocks.warn_before` away; quiet: the version and
    the deadline stay as they are."""
    with transaction.atomic():
        change = _lock(match_id)
        match = change.match
        late = clocks.late_sides(match)
        if (match.status != MatchStatus.ACTIVE or match.deadline is None
                or match.deadline_warned or len(late) != 1 or match.current_game is None
                or not change.now < match.deadline <= change.now + clocks.warn_before(match)):
            return None
        match.deadline_warned = True
        change.log("deadline", game=match.current_game.number, side=color_of(late[0]),
                   deadline=iso_time(match.deadline))
        return change.commit(quiet=True)


def match_log_analysis(*, match_id: int, **data: Any) -> None:
    """Log an ``analysis`` event (a game review's state and progress) on the
    match's log, so its stream tells the readers; quiet: the version stays."""
    with transaction.atomic():
        change = _lock(match_id)
        change.log("analysis", **data)
        change.commit(quiet=True)


@dataclass(frozen=True)
class Swept:
    settled: tuple[int, ...]
    warned: tuple[int, ...]


def clocks_sweep() -> Swept:
    """The periodic sweep (``manage.py sweep_clocks``): settle every abandoned match and
    warn every side to act whose deadline is near. Each match is re-checked under its
    lock, so sweeps and requests may overlap."""
    now = timezone.now()
    active = Match.objects.filter(status=MatchStatus.ACTIVE, deadline__isnull=False)
    settled = [pk for pk in active.filter(deadline__lt=now - clocks.MIN_ABANDON_AFTER)
               .order_by("deadline").values_list("pk", flat=True)
               if match_settle_clock(match_id=pk) is not None]
    warned = [pk for pk in active.filter(deadline_warned=False, deadline__gt=now,
                                         deadline__lte=now + clocks.WARN_AT_MOST)
              .order_by("deadline").values_list("pk", flat=True)
              if match_warn_clock(match_id=pk) is not None]
    return Swept(tuple(settled), tuple(warned))


@_clock_enforced
def match_abort_unstarted(*, match_id: int, user: User,
                          expected_version: int | None = None) -> Match:
    """Either player ends the match before the first roll of the match: no
    result, no stats, status ``aborted``."""
    with transaction.atomic():
        change, _, game = _lock_playing(match_id, user, expected_version)
        match = change.match
        if (game.number != 1 or game.phase != GamePhase.ROLL_OFF
                or game.rolloff_white is not None or game.rolloff_black is not None
                or match.events.filter(type="roll_off").exists()):
            raise WrongPhase("The match has started: its first die is rolled. Resign "
                             "instead.", details={"phase": game.phase, "reason": "rolled"})
        match.status, match.finished_at = MatchStatus.ABORTED, change.now
        change.log("aborted", by=user.username, reason="aborted before the first roll",
                   **_reveal(match))
        return change.commit()


__all__ = [
    "Played",
    "Swept",
    "clocks_sweep",
    "match_abort",
    "match_abort_unstarted",
    "match_accept",
    "match_cancel",
    "match_claim",
    "match_create",
    "match_join",
    "match_move",
    "match_offer",
    "match_refuse",
    "match_rematch",
    "match_resign",
    "match_resign_accept",
    "match_resign_refuse",
    "match_roll",
    "match_seed",
    "match_settle_clock",
    "match_warn_clock",
]
