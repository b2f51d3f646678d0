"""Player statistics, computed by whichever app records games.

``accounts`` never imports ``games``: the games app names its selector in the
``PLAYER_STATS_SELECTOR`` setting (a dotted path to ``f(users) -> {user.pk: Stats}``).
"""

from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypedDict

from django.conf import settings
from django.utils.module_loading import import_string

from nard_site.api.shapes import Doc, keys_of

# No ``from __future__ import annotations``: the schema is built from these annotations.


class RulesStats(TypedDict):
    games_won: int
    games_lost: int
    won: Annotated[dict[str, int], Doc("Games won by result: single, mars, koks, gammon, "
                                       "backgammon, resigned, refused, …")]
    lost: Annotated[dict[str, int], Doc("Games lost by result.")]


class Stats(TypedDict):
    """A player's statistics: finished games and matches; hotseat matches do not count."""

    matches_played: int
    matches_won: int
    games_won: int
    games_lost: int
    mars_won: int
    mars_lost: int
    points_won: Annotated[int, Doc("Points of the games won, stakes included (S6).")]
    points_lost: Annotated[int, Doc("Points of the games lost, stakes included (S6).")]
    by_rules: Annotated[dict[str, RulesStats], Doc(
        "Per rule set played (by its name, `GET rules/`): games won and "
        "lost, and the results by name — a mars differs by rule set (H15).")]


STAT_FIELDS = tuple(key for key in keys_of(Stats) if key != "by_rules")
"""The counts of :class:`Stats` (every key but ``by_rules``)."""


def empty_stats() -> Stats:
    """No games yet: every count 0, and ``by_rules`` (per rule set played) empty."""
    return Stats(matches_played=0, matches_won=0, games_won=0, games_lost=0, mars_won=0,
                 mars_lost=0, points_won=0, points_lost=0, by_rules={})


def _selector() -> Callable[[Iterable[Any]], dict[int, Stats]] | None:
    path = getattr(settings, "PLAYER_STATS_SELECTOR", "")
    return import_string(path) if path else None


def stats_for_users(users: Iterable[Any]) -> dict[int, Stats]:
    """``{user.pk: stats}`` for several users at once (one query set, not one per user);
    a user the selector does not name has :func:`empty_stats`."""
    users = list(users)
    selector = _selector()
    found = selector(users) if selector else {}
    return {user.pk: found.get(user.pk) or empty_stats() for user in users}


def stats_for(user: Any) -> Stats:
    return stats_for_users([user])[user.pk]
