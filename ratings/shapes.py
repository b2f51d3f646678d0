"""The answers of ratings/ (TypedDicts; the schema is built from them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, TypedDict

from nard_site.api.shapes import Doc


class LeaderboardEntry(TypedDict):
    rank: int
    username: str
    rating: float
    deviation: float
    matches: int


class Leaderboard(TypedDict):
    """``GET leaderboards/{rules}/``: the top 100 active, non-provisional players."""

    rules: str
    players: list[LeaderboardEntry]


class HistoryEntry(TypedDict):
    match: int
    opponent: str
    score: Annotated[float, Doc("1 for a win, 0 for a loss.")]
    before: float
    after: float
    change: float
    at: datetime


class RulesRating(TypedDict):
    rules: str
    rating: Annotated[float, Doc("Now (the deviation grown with inactivity).")]
    deviation: float
    provisional: Annotated[bool, Doc("Deviation above 110 (docs/ratings.md).")]
    matches: int
    rank: Annotated[int | None, Doc("The place on the leaderboard; `null` while "
                                    "provisional or inactive.")]
    history: list[HistoryEntry]


class Estimate(TypedDict):
    rating: int
    matches: int


class RulesEstimate(TypedDict):
    rules: str
    rating: Annotated[int, Doc("The rating that best fits the results against the "
                               "computer's anchored levels (not a rating: those matches "
                               "are unrated).")]
    matches: int


class UserRatings(TypedDict):
    """``GET accounts/users/{name}/ratings/``."""

    username: str
    ratings: list[RulesRating]
    computer_estimates: list[RulesEstimate]


class PairingOptions(TypedDict):
    rules: str
    length: int
    stakes: str
    turn_seconds: int | None
    rated: bool
    bots: Annotated[bool, Doc("Accepts a bot account as the opponent.")]


class PairingState(TypedDict):
    """Where the player's quick pairing stands."""

    state: Literal["idle", "waiting", "paired"]
    match: Annotated[int | None, Doc("The match made (state `paired`).")]
    options: PairingOptions | None
    waiting_seconds: int
    window: Annotated[float | None, Doc("± rating points accepted now (docs/ratings.md).")]
