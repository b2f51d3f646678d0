"""The answers of tournaments/ (TypedDicts; the schema is built from them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, TypedDict

from nard_site.api.shapes import Doc

SystemName = Literal["arena", "swiss", "knockout"]
StatusName = Literal["created", "started", "finished"]
STATUSES = ("created", "started", "finished")
"""A tournament's status (the schema's TournamentStatusEnum)."""


class Summary(TypedDict):
    id: int
    name: str
    system: SystemName
    rules: str
    length: int
    stakes: str
    rated: bool
    turn_seconds: Annotated[int | None, Doc("Each match's clock as created; `null`: the "
                                            "server's default applies "
                                            "(TOURNAMENT_DEFAULT_TURN_SECONDS).")]
    minutes: Annotated[int | None, Doc("Arena: its duration.")]
    rounds: Annotated[int | None, Doc("Swiss: its number of rounds.")]
    third_place: bool
    starts_at: Annotated[datetime | None, Doc("`null`: its creator starts it.")]
    ends_at: Annotated[datetime | None, Doc("Arena: when it ends (once started).")]
    max_players: int
    players: int
    entry: Literal["open", "link"]
    allow_computer: bool
    featured: bool
    cancelled: bool
    status: StatusName
    round: Annotated[int, Doc("The current round (an arena: waves of pairings).")]
    created_by: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class TournamentList(TypedDict):
    """``GET tournaments/``: listed (entry ``open``) tournaments, featured first."""

    upcoming: list[Summary]
    running: list[Summary]
    finished: list[Summary]


class Standing(TypedDict):
    rank: int
    username: str
    computer: Annotated[str | None, Doc("The computer's level, for its entrants.")]
    score: Annotated[float, Doc("Arena: points; Swiss: match points (a bye 1); "
                                "knock-out: matches won.")]
    buchholz: Annotated[float, Doc("Swiss: the opponents' scores.")]
    sonneborn_berger: Annotated[float, Doc("Swiss: the scores of the opponents beaten.")]
    points: Annotated[int, Doc("Game points won in its matches.")]
    played: int
    wins: int
    streak: Annotated[int, Doc("Arena: wins in a row now.")]
    rating: Annotated[float, Doc("The rating it was seeded by.")]
    paused: bool
    withdrawn: bool
    eliminated_in: Annotated[int | None, Doc("Knock-out: the round it lost.")]


class TournamentMatch(TypedDict):
    id: Annotated[int | None, Doc("The match (`null`: a bye or a walkover).")]
    white: str
    black: Annotated[str | None, Doc("`null`: a bye or a walkover.")]
    status: Annotated[str, Doc("The match's status (`finished` for a bye).")]
    round: int
    slot: Annotated[int, Doc("Knock-out: the place in the round's bracket.")]
    third_place: bool
    winner: Annotated[str | None, Doc("The username, once decided.")]
    settled_by: Annotated[str, Doc("`played`, `forfeit`, `bye`, `walkover`, "
                                   "`arena_end`, `aborted`, or empty while played.")]
    score: Annotated[dict[str, int], Doc("Game points of `white` and `black`.")]


class Tournament(Summary):
    """``GET tournaments/{id}/``."""

    code: Annotated[str | None, Doc("Entry by link: the code to join with (its creator "
                                    "and the staff only).")]
    me: Annotated[Standing | None, Doc("The asking player's own row, if it plays.")]
    standings: list[Standing]
    matches: list[TournamentMatch]
    last_event: Annotated[int, Doc("The last `seq` of its stream so far.")]


class TournamentEvent(TypedDict):
    seq: int
    type: str
    data: dict[str, Any]
    at: datetime
