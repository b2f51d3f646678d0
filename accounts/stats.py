"""Player statistics, computed by whichever app records games.

``accounts`` never imports ``games``: the games app names its selector in the
``PLAYER_STATS_SELECTOR`` setting (a dotted path to ``f(user) -> dict``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

STAT_FIELDS = ("matches_played", "matches_won", "games_won", "games_lost", "mars_won", "mars_lost",
               "points_won", "points_lost")


def empty_stats() -> dict[str, Any]:
    """No games yet: every count 0, and ``by_rules`` (per rule set played) empty."""
    return {**dict.fromkeys(STAT_FIELDS, 0), "by_rules": {}}


def _selector() -> Callable[[Iterable[Any]], dict[int, dict[str, Any]]] | None:
    path = getattr(settings, "PLAYER_STATS_SELECTOR", "")
    return import_string(path) if path else None


def stats_for_users(users: Iterable[Any]) -> dict[int, dict[str, Any]]:
    """``{user.pk: stats}`` for several users at once (one query set, not one per user)."""
    users = list(users)
    selector = _selector()
    found = selector(users) if selector else {}
    return {user.pk: {**empty_stats(), **found.get(user.pk, {})} for user in users}


def stats_for(user: Any) -> dict[str, Any]:
    return stats_for_users([user])[user.pk]
