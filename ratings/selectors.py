"""Reads of ratings/: the leaderboards, a player's ratings and history, the estimate
from the results against the computer's levels."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games import opponents
from games.models import Match, MatchStatus, rules_names
from nardy import RULESETS
from ratings import anchors, glicko, shapes
from ratings.models import PairingRequest, Rating, RatingChange
from ratings.services import current, window

LEADERBOARD_SIZE = 100
ACTIVE_DAYS = 90
"""On a leaderboard: a rated match in the last this many days (and not provisional)."""


def known_rules(rules: str) -> bool:
    return rules in RULESETS


def _board(rules: str) -> Any:
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    return (Rating.objects.filter(rules=rules, deviation__lte=glicko.PROVISIONAL_DEVIATION,
                                  last_played_at__gte=since, user__is_active=True))


def leaderboard(rules: str) -> shapes.Leaderboard:
    """The top :data:`LEADERBOARD_SIZE` active, non-provisional players of ``rules``
    (index ``rating_leaderboard``)."""
    rows = _board(rules).select_related("user").order_by("-rating", "id")[:LEADERBOARD_SIZE]
    return {"rules": rules, "players": [
        {"rank": rank, "username": r.user.username, "rating": round(r.rating, 1),
         "deviation": round(r.deviation, 1), "matches": r.matches}
        for rank, r in enumerate(rows, start=1)]}


def leaderboard_sql(rules: str) -> tuple[str, tuple[object, ...]]:
    """The leaderboard's SQL (for ``EXPLAIN`` in bench/ratings.py)."""
    query = (_board(rules).select_related("user").order_by("-rating", "id")[:LEADERBOARD_SIZE]
             .query)
    return query.sql_with_params()


def rank(row: Rating) -> int | None:
    """The player's place on the leaderboard of its rule set (also beyond the top 100),
    or ``None`` while provisional or inactive."""
    if row.provisional or row.last_played_at is None or row.last_played_at < (
            timezone.now() - timedelta(days=ACTIVE_DAYS)):
        return None
    return _board(row.rules).filter(Q(rating__gt=row.rating)
                                    | Q(rating=row.rating, id__lt=row.id)).count() + 1


def estimate(user: Any, rules: str) -> shapes.Estimate | None:
    """"You play like ~1650": the rating whose expected scores against the levels played
    (their anchors, :mod:`ratings.anchors`) best fit the player's results there (the
    maximum-likelihood point, by Newton's method on the logistic), ``None`` without
    results against an anchored level. Computer matches stay unrated."""
    finished = (Match.objects.filter(Q(white=user) | Q(black=user), rules=rules,
                                     status=MatchStatus.FINISHED, hotseat=False)
                .select_related("white", "black"))
    results: list[tuple[float, float, int]] = []
    for match in finished.order_by("-finished_at")[:500]:
        mine_white = match.white_id == user.pk
        opponent = match.black if mine_white else match.white
        level = opponents.level_of(opponent)
        level_rating = anchors.anchor(rules, level) if level else None
        if level_rating is None:
            continue
        won = (match.winner == "white") == mine_white
        results.append((level_rating, 1.0 if won else 0.0, match.length))
    if not results:
        return None
    r = 1500.0
    for _ in range(50):  # Newton on the log-likelihood, kept within the scale
        grad = hess = 0.0
        for level_rating, score, length in results:
            k = math.sqrt(length) / glicko.SCALE
            e = 1.0 / (1.0 + math.exp(-k * (r - level_rating)))
            grad += k * (score - e)
            hess -= k * k * e * (1.0 - e) + 1e-9
        step = -grad / hess
        r = min(max(r + max(min(step, 200.0), -200.0), 500.0), 3000.0)
        if abs(step) < 0.01:
            break
    return {"rating": round(r), "matches": len(results)}


def user_ratings(user: Any) -> shapes.UserRatings:
    now = timezone.now()
    rows = {r.rules: r for r in Rating.objects.filter(user=user)}
    history = (RatingChange.objects.filter(user=user).select_related("opponent")
               .order_by("at", "id"))
    by_rules: dict[str, list[shapes.HistoryEntry]] = {}
    for h in history:
        by_rules.setdefault(h.rules, []).append({
            "match": h.match_id, "opponent": h.opponent.username, "score": h.score,
            "before": round(h.rating_before, 1), "after": round(h.rating_after, 1),
            "change": round(h.rating_after - h.rating_before, 1), "at": h.at})
    out: list[shapes.RulesRating] = []
    for rules in rules_names():
        row = rows.get(rules)
        shown = current(row, now)
        if row is None and rules not in by_rules:
            continue
        out.append({"rules": rules, "rating": round(shown.rating, 1),
                    "deviation": round(shown.deviation, 1), "provisional": shown.provisional,
                    "matches": row.matches if row else 0,
                    "rank": rank(row) if row else None,
                    "history": by_rules.get(rules, [])})
    estimates: list[shapes.RulesEstimate] = []
    for rules in rules_names():
        found = estimate(user, rules)
        if found is not None:
            estimates.append({"rules": rules, **found})
    return {"username": user.username, "ratings": out, "computer_estimates": estimates}


def pairing_json(request: PairingRequest | None, match: Match | None) -> shapes.PairingState:
    if match is not None:
        return {"state": "paired", "match": match.pk, "options": None, "waiting_seconds": 0,
                "window": None}
    if request is None:
        return {"state": "idle", "match": None, "options": None, "waiting_seconds": 0,
                "window": None}
    waited = max((timezone.now() - request.created_at).total_seconds(), 0.0)
    return {"state": "waiting", "match": None, "options": request.options(),  # type: ignore[typeddict-item]
            "waiting_seconds": int(waited), "window": window(waited)}


def ratings_of(user_ids: list[int], rules: str) -> dict[int, float]:
    """Each player's rating in ``rules`` now (the start rating for one without a row):
    what tournaments seed by."""
    now = timezone.now()
    rows = {r.user_id: r for r in Rating.objects.filter(rules=rules, user_id__in=user_ids)}
    return {uid: current(rows.get(uid), now).rating for uid in user_ids}
