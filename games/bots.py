"""The computer's turns: what a built-in computer account may do now, and doing it.

After every committed change to a match (:mod:`games.notify`) :func:`games.tasks.committed` asks
whether a built-in computer account (:mod:`games.opponents`) may act in it now; if so it
enqueues one job, :func:`games.tasks.bot_turn`, keyed by the match and the version it saw
(the queue is :mod:`games.tasks`', which imports this module, never the other way round).
The job (:func:`play`) runs on the task queue's worker, off every request: it reads the
match without a lock, returns at once if the match has moved past that version, decides
what to do from the match as it is — accept an invitation, roll (the roll-off die, or the
turn's dice), play the whole turn, offer a stake or answer an offer — and does it through
the same services a person's request goes through, with ``expected_version`` set. The
services' guards and row lock decide: a job for a version that is gone, or a second job
for the same version, gets ``version_conflict`` and changes nothing, so no bot action
happens twice. Each action's own commit enqueues the next. A job lost with a crashed
worker is reclaimed and made again by :func:`games.tasks.reclaim` (the worker's lease).

The decision is made before the service call, outside the transaction: the expert's
search (up to a second or two) never holds the match's row lock.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.crypto import salted_hmac

import computer
from accounts.models import User
from games import opponents, presence, selectors, services
from games.exceptions import NotYourTurn, VersionConflict, WrongPhase
from games.models import GamePhase, Match, MatchStatus, color_of, side_of
from nardy import BLACK, WHITE, Side, Step, other
from nardy.stakes import START_STAKE, holds_the_right

_log = logging.getLogger(__name__)

OFFER_PHASE = "offer"
"""``state.phase`` while a stake offer waits for its answer (API.md, Stakes)."""

STAKE_SERVICES = {"offer": "match_offer", "accept": "match_accept", "refuse": "match_refuse",
                  "resign_accept": "match_resign_accept",
                  "resign_refuse": "match_resign_refuse"}
"""The answers to offers (to raise the stake, to resign) and the services that do them."""

RESIGN_PHASE = "resign"
"""``state.phase`` while a resignation offer waits for its answer (docs/api.md)."""


@dataclass(frozen=True)
class Seat:
    """A built-in computer account that may act in a match now."""

    user: User
    level: str
    side: Side | None
    """Its colour; ``None`` for an invitation it has not accepted yet."""


@dataclass(frozen=True)
class Decision:
    """What the computer does next: ``join``, ``roll``, ``move`` (with ``steps``),
    ``offer``, ``accept`` or ``refuse`` (a raise), ``resign_accept`` or ``resign_refuse``
    (an offer to resign: the computer never offers one itself)."""

    seat: Seat
    kind: str
    steps: tuple[Step, ...] = ()


# --- who may act now --------------------------------------------------------------------


def seat_to_act(match: Match) -> Seat | None:
    """The built-in computer account that may act in ``match`` now, if any. Cheap: no
    query and no search (it runs after every committed change of every match)."""
    if match.status == MatchStatus.INVITED:
        level = opponents.level_of(match.invited)
        return Seat(match.invited, level, None) if match.invited and level else None
    game = match.current_game
    if match.status != MatchStatus.ACTIVE or game is None:
        return None
    if game.phase == GamePhase.ROLL_OFF:
        # The computer rolls its roll-off die once a person opposite has given a seed or
        # rolled theirs: the game's first die closes the players' seeds (docs/fairness.md),
        # so rolling first would leave the person's seed never counting — and the match
        # could not be aborted before the person's first roll.
        rolled = {WHITE: game.rolloff_white, BLACK: game.rolloff_black}
        seeded = {WHITE: game.white_seed, BLACK: game.black_seed}
        for side in (WHITE, BLACK):
            level = opponents.level_of(match.player(side))
            opposite = other(side)
            waits = (opponents.level_of(match.player(opposite)) is None
                     and rolled[opposite] is None and not seeded[opposite])
            if level and rolled[side] is None and not waits:
                return Seat(match.player(side), level, side)
        return None
    if not game.turn:
        return None
    side = side_of(game.turn)  # the side to roll, to move, or to answer an offer
    level = opponents.level_of(match.player(side))
    return Seat(match.player(side), level, side) if level else None


# --- what it does -----------------------------------------------------------------------


def decide(match: Match, seat: Seat) -> Decision | None:
    """What ``seat`` does now, from the match as its player sees it (``state`` as the API
    shows it, so stakes and clocks slot in through their documented fields)."""
    if seat.side is None:
        return Decision(seat, "join")
    game = match.current_game
    assert game is not None
    if game.phase == GamePhase.ROLL_OFF:
        return Decision(seat, "roll")
    state: Mapping[str, Any] = selectors.match_state(match, seat.user, seat.side,
                                                     search=False) or {}
    phase = state.get("phase", game.phase)
    rng = decision_rng(match.pk, match.version)
    if phase == RESIGN_PHASE:
        offer = state.get("resign_offer") or {}
        accept = computer.resignation_decision(
            match.rules, _level_for(match, seat), game.position, seat.side,
            _situation(match, seat.side, state), offered_points=int(offer.get("points", 1)),
            offerer_first_turn=game.first_turn(other(seat.side)), rng=rng)
        return Decision(seat, "resign_accept" if accept else "resign_refuse")
    if phase == OFFER_PHASE:
        accept = computer.match_stake_decision(
            match.rules, _level_for(match, seat), game.position, seat.side,
            _situation(match, seat.side, state), question="accept", rng=rng)
        return Decision(seat, "accept" if accept else "refuse")
    if phase == GamePhase.ROLL:
        if (_may_offer(state, seat.side)
                and computer.match_stake_decision(
                    match.rules, _level_for(match, seat), game.position, seat.side,
                    _situation(match, seat.side, state), question="offer",
                    first_turn=game.first_turn(seat.side), rng=rng)):
            return Decision(seat, "offer")
        return Decision(seat, "roll")
    if phase == GamePhase.MOVE:
        turn = game.turn_state()
        if turn is None:
            return None
        steps = computer.choose_for_turn(match.rules, _level_for(match, seat), turn, rng,
                                         _situation(match, seat.side, state))
        return Decision(seat, "move", tuple(steps))
    return None


def decision_rng(match_id: int, version: int) -> random.Random:
    """The random source of a decision (the ``random`` level's plays, every level's stake
    ties): the same for a job run again at the same version, and unpredictable from the
    outside — seeded with an HMAC of the match id and version under
    ``SECRET_KEY``, not with those public values themselves."""
    return random.Random(salted_hmac("games.bots.decision", f"{match_id}:{version}").digest())


def _level_for(match: Match, seat: Seat) -> str:
    """The seat's level, or the hand-written one where the rule set lacks it (a level's
    weights taken away after its matches began)."""
    return seat.level if seat.level in opponents.levels(match.rules) else "heuristic"


def _situation(match: Match, side: Side, state: Mapping[str, Any]) -> computer.Situation:
    """The match as ``side`` sees it for the stake decisions and the checker play's
    objective (:mod:`computer.stakes`, :mod:`computer.score`)."""
    offer = state.get("offer")
    game = match.current_game
    return computer.Situation(stakes=match.stakes, progression=match.progression,
                              length=match.length, own=match.score(side),
                              opponent=match.score(other(side)),
                              stake=int(state.get("stake") or START_STAKE),
                              offered=int(offer["stake"]) if offer else None,
                              after_crawford=(match.crawford_game is not None
                                              and game is not None
                                              and game.number >= match.crawford_game))


def _may_offer(state: Mapping[str, Any], side: Side) -> bool:
    return (state.get("offer") is None
            and holds_the_right(str(state.get("may_offer")), color_of(side))
            and hasattr(services, STAKE_SERVICES["offer"]))


def perform(match: Match, decision: Decision) -> None:
    """Do ``decision`` through the services, at the version it was decided on. Raises what
    the services raise (``version_conflict`` when the match moved on meanwhile)."""
    user, version = decision.seat.user, match.version
    presence.always(user.pk)
    kind = decision.kind
    if kind == "join":
        services.match_join(match_id=match.pk, user=user, expected_version=version)
    elif kind == "roll":
        services.match_roll(match_id=match.pk, user=user, expected_version=version)
    elif kind == "move":
        services.match_move(match_id=match.pk, user=user, expected_version=version,
                            steps=decision.steps)
    else:
        service = getattr(services, STAKE_SERVICES[kind])
        service(match_id=match.pk, user=user, expected_version=version)


def play(match_id: int, version: int) -> str:
    """The job: the computer's next action in match ``match_id`` if it is still at
    ``version``. Answers what it did (``roll``, ``move``, ...) or why it did nothing
    (``stale``, ``idle``, ``gone``)."""
    match = selectors.match_get(match_id)
    if match is None:
        return "gone"
    if match.version != version:
        return "stale"
    seat = seat_to_act(match)
    decision = decide(match, seat) if seat is not None else None
    if decision is None:
        return "idle"
    try:
        perform(match, decision)
    except (VersionConflict, NotYourTurn, WrongPhase):
        return "stale"  # someone acted first (a person, or another job for this version)
    _log.info("match %s v%s: %s %s%s", match_id, version, decision.seat.user.username,
              decision.kind, "".join(f" {s}" for s in decision.steps))
    return decision.kind


__all__ = ["Decision", "Seat", "decide", "decision_rng", "perform", "play", "seat_to_act"]
