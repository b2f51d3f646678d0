"""Reads of the game review: a match's analyses (its JSON, its latest, its export, whether
one is still to come) and a player's averages over their last analysed games."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from computer.review import MARKS
from games import shapes
from games.models import Match
from reviews.models import Analysis

DEFAULT_LAST = 20
"""Games per rule set a player's averages count when the request names none."""
MAX_LAST = 100


def analysis_json(analysis: Analysis) -> shapes.MatchAnalysis:
    done = analysis.state == Analysis.State.DONE
    return {"depth": analysis.depth, "state": analysis.state,
            "turns_done": analysis.turns_done, "turns_total": analysis.turns_total,
            "error": analysis.error, "games": analysis.results if done else None}


def latest(match: Match, depth: int | None = None) -> Analysis | None:
    """The match's analysis at ``depth``, else its deepest done one, else its latest."""
    found = Analysis.objects.filter(match=match)
    if depth is not None:
        return found.filter(depth=depth).first()
    return (found.filter(state=Analysis.State.DONE).order_by("-depth").first()
            or found.order_by("-created_at", "-pk").first())


def exported(match: Match) -> shapes.MatchAnalysis | None:
    """The match's deepest done analysis for its JSON export, if it has one."""
    found = Analysis.objects.filter(match=match, state=Analysis.State.DONE).order_by(
        "-depth").first()
    return analysis_json(found) if found is not None else None


def is_open(match_id: int) -> bool:
    """Whether a review of the match is queued or running: the match's stream stays open
    for its ``analysis`` events though the match is over."""
    return Analysis.objects.filter(match_id=match_id, state__in=Analysis.OPEN).exists()


def briefs(match: Match) -> list[shapes.AnalysisBrief]:
    """The match's analyses, deepest first: depth and state (each replayed position
    names them, so a replay asks for a review only when there is one)."""
    return [{"depth": depth, "state": state} for depth, state
            in Analysis.objects.filter(match=match).order_by("-depth")
            .values_list("depth", "state")]


def player_review(user: Any, last: int = DEFAULT_LAST) -> shapes.PlayerReview:
    """``user``'s figures per rule set over the newest ``last`` analysed games of each
    (newest match first, then its later games first): decisions, the pooled error rate
    and ×500 rating, mark counts (in all and per game), mean luck per game, and the PR
    pooled over those games the field engine reviewed (``None`` without one). A match
    counts once, with its deepest done analysis; hotseat matches (one account on both
    sides) do not count."""
    seats = Q(match__white=user) | Q(match__black=user)
    found = (Analysis.objects.filter(seats, state=Analysis.State.DONE, match__hotseat=False)
             .select_related("match").order_by("-match__finished_at", "-match_id", "-depth"))
    sums: dict[str, dict[str, Any]] = {}
    seen: set[int] = set()
    for analysis in found.iterator(chunk_size=20):
        match = analysis.match
        if match.pk in seen:
            continue  # a shallower analysis of a match already counted
        seen.add(match.pk)
        side = 0 if match.white_id == user.pk else 1
        row = sums.setdefault(match.rules, {"games": 0, "decisions": 0, "loss": 0.0,
                                            "luck": 0.0, "last_match": match.pk,
                                            "field_decisions": 0, "field_loss": 0.0,
                                            "marks": dict.fromkeys(MARKS, 0)})
        for game in sorted(analysis.results or (), key=lambda g: -int(g.get("game", 0))):
            if row["games"] >= last:
                break
            mine = game["sides"][side]
            row["games"] += 1
            row["decisions"] += int(mine["decisions"])
            row["loss"] += float(mine["loss"])
            row["luck"] += float(mine["luck"])
            if game.get("engine") == "field":
                row["field_decisions"] += int(mine["decisions"])
                row["field_loss"] += float(mine["loss"])
            for mark in MARKS:
                row["marks"][mark] += int(mine["marks"].get(mark, 0))
    by_rules: dict[str, shapes.ReviewAverage] = {}
    for rules, row in sums.items():
        games = row["games"]
        if not games:
            continue
        rate = row["loss"] / row["decisions"] if row["decisions"] else 0.0
        marks: shapes.ReviewMarks = {"inaccuracy": row["marks"]["inaccuracy"],
                                     "mistake": row["marks"]["mistake"],
                                     "blunder": row["marks"]["blunder"]}
        by_rules[rules] = {
            "games": games, "decisions": row["decisions"], "error_rate": round(rate, 5),
            "rating": round(500 * rate, 2), "marks": marks,
            "marks_per_game": {m: round(row["marks"][m] / games, 3) for m in MARKS},
            "luck": round(row["luck"] / games, 4), "last_match": row["last_match"],
            "pr": (round(500 * row["field_loss"] / row["field_decisions"], 2)
                   if row["field_decisions"] else None)}
    return {"username": user.username, "last": last, "by_rules": by_rules}
