"""The one way a match starts: its options checked once, its seats, its first game.

Every starter calls :func:`match_start` — an open seek, an invitation, a hotseat match
and a match against the computer (:func:`games.services.match_create`), a rematch, a
quick pairing (ratings), and any feature to come (tournaments): so every match is
created with the same checks, the same ``match_created`` event and, when it is active
at once, a first game with its committed dice (docs/fairness.md), whoever started it.

:class:`MatchOptions` is what a match is played by, fixed at its start, with the
defaults an option left out takes (the API's create input reads them too);
:meth:`MatchOptions.check` is the one check of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from accounts.models import User
from games import opponents, transitions
from games.exceptions import InvalidRequest
from games.models import (
    MATCH_LENGTHS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Color,
    Match,
    MatchStatus,
    Progression,
    Stakes,
)
from games.unit_of_work import Change
from nardy import DEFAULT_RULES, RULESETS
from nardy.stakes import progression_allowed


@dataclass(frozen=True)
class MatchOptions:
    """What a match is played by, fixed for the whole match. A field's default (read as
    ``MatchOptions.<field>``) is what an option left out means, here and in the API."""

    length: int
    """Points to win: one of ``MATCH_LENGTHS``."""
    rules: str = DEFAULT_RULES
    stakes: str = Stakes.NONE
    """S1-S7: ``none``, ``cube`` or ``dave``."""
    progression: str = Progression.GEOMETRIC
    turn_seconds: int | None = None
    """The clock: seconds the side to act has for each action; ``None``: no clock."""
    hotseat: bool = False
    """One account plays both sides."""
    rated: bool | None = None
    """Whether the result changes both ratings: ``None`` rates it when both seats allow
    (two people in good standing), ``True`` insists (refused when they do not)."""

    def check(self) -> None:
        """Raises :class:`InvalidRequest` (``details`` naming the option) for an option the
        server does not play: an unknown rule set, length, stakes or progression, the
        arithmetic progression without ``dave``, a clock outside 30 s to a day, or a
        clock on a hotseat match."""
        if self.rules not in RULESETS:
            raise InvalidRequest(f"No rule set {self.rules!r}.", details={
                "rules": [f"Must be one of {', '.join(RULESETS)}."]})
        if self.length not in MATCH_LENGTHS:
            raise InvalidRequest("A match is 1, 3, 5 or 7 points.",
                                 details={"length": ["Must be one of 1, 3, 5, 7."]})
        if self.stakes not in Stakes.values:
            raise InvalidRequest(f"No stakes {self.stakes!r}.", details={
                "stakes": [f"Must be one of {', '.join(Stakes.values)}."]})
        if self.progression not in Progression.values:
            raise InvalidRequest(f"No progression {self.progression!r}.", details={
                "progression": [f"Must be one of {', '.join(Progression.values)}."]})
        if not progression_allowed(self.stakes, self.progression):
            raise InvalidRequest("The arithmetic progression is for dave only; the cube is "
                                 "always geometric.", details={
                                     "progression": ["Arithmetic needs stakes 'dave'."]})
        if self.turn_seconds is not None:
            if not MIN_TURN_SECONDS <= self.turn_seconds <= MAX_TURN_SECONDS:
                raise InvalidRequest("The clock is 30 to 86,400 seconds a move.", details={
                    "turn_seconds": [f"Must be {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}."]})
            if self.hotseat:
                raise InvalidRequest("A hotseat match has no clock.",
                                     details={"turn_seconds": ["Not allowed with hotseat."]})


def rated_for(options: MatchOptions, players: tuple[User, ...], computer: bool) -> bool:
    """Whether a match with these options and players is rated: by default between two
    people in good standing (``User.may_play_rated``); never hotseat or against the
    computer. Raises :class:`InvalidRequest` (``details.rated``) when ``rated`` was asked
    for and cannot be."""
    if options.hotseat or computer:
        if options.rated:
            why = "hotseat" if options.hotseat else "against the computer"
            raise InvalidRequest(f"A match {why} is never rated.",
                                 details={"rated": [f"A match {why} is never rated."]})
        return False
    eligible = all(player.may_play_rated for player in players)
    if options.rated and not eligible:
        raise InvalidRequest("A rated match needs two players in good standing (no bots).",
                             details={"rated": ["This player may not play rated."]})
    return eligible if options.rated is None else bool(options.rated)


def match_start(*, created_by: User, options: MatchOptions, white: User | None,
                black: User | None, invited: User | None = None,
                rematch_of: Match | None = None,
                context: Mapping[str, Any] | None = None) -> Match:
    """Create a match and, when both seats are taken, start it.

    The seats say what it is: a hotseat match (``options.hotseat``: ``created_by`` plays
    both sides, active at once); an invitation (``invited`` holds one of the seats; it
    waits for the answer); an open seek (a seat empty: it waits for someone to join);
    otherwise both players are seated and it is active at once (the computer, a
    pairing, a tournament's round). An active match's first game starts with the
    commitment of its dice. ``context`` is added to the ``match_created`` event (what
    started it: ``paired``, a tournament — whose id ``tournament`` is also kept on the
    match, ``Match.tournament_id``); a built-in computer's level is added there by
    itself. Raises :class:`InvalidRequest` for options :meth:`MatchOptions.check`
    refuses or a rating they cannot have (:func:`rated_for`).
    """
    options.check()
    if options.hotseat:
        white = black = created_by
    # A built-in computer seated at once (an invitation to its account, a rematch, is
    # answered by the computer like any invitation, and says so by its ``joined``).
    computer = (None if invited is not None
                else opponents.level_of(white) or opponents.level_of(black))
    players = tuple(p for p in {id(p): p for p in (white, black, invited) if p}.values())
    rated = rated_for(options, players, computer is not None)
    if options.hotseat or (white is not None and black is not None and invited is None):
        status = MatchStatus.ACTIVE
    else:
        status = MatchStatus.INVITED if invited is not None else MatchStatus.OPEN
    with transaction.atomic(savepoint=False):
        match = Match(created_by=created_by, length=options.length, hotseat=options.hotseat,
                      invited=invited, rules=options.rules, rematch_of=rematch_of,
                      stakes=options.stakes, progression=options.progression,
                      turn_seconds=options.turn_seconds, rated=rated, white=white, black=black,
                      tournament_id=(context or {}).get("tournament"),
                      status=status, version=0)  # the commit makes it 1
        change = Change(match)
        change.log("match_created", length=options.length, rules=options.rules,
                   hotseat=options.hotseat, stakes=options.stakes,
                   progression=options.progression, turn_seconds=options.turn_seconds,
                   rated=rated, by=created_by.username,
                   white=white.username if white else None,
                   black=black.username if black else None,
                   invited=invited.username if invited else None,
                   rematch_of=rematch_of.pk if rematch_of else None,
                   **({"computer": computer} if computer is not None else {}),
                   **(context or {}))
        if status == MatchStatus.ACTIVE:
            transitions.start_first_game(change)
        return change.commit()


def seats(creator: User, opponent: User | None, color: str) -> tuple[User | None, User | None]:
    """White's and Black's seats of ``creator`` playing ``color`` against ``opponent``
    (``None``: the seat is open)."""
    return (creator, opponent) if color == Color.WHITE else (opponent, creator)
