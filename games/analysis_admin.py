"""The game review's summary on the admin's match page (issue 24)."""

from __future__ import annotations

from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games.models import Analysis, Match


def side_totals(results: list[dict]) -> list[dict[str, float]]:
    """Per side (White, Black) over the games: decisions, loss, error rate, rating,
    the count of each mark, luck."""
    totals: list[dict[str, float]] = []
    for side in (0, 1):
        decisions = sum(g["sides"][side]["decisions"] for g in results)
        loss = sum(g["sides"][side]["loss"] for g in results)
        rate = loss / decisions if decisions else 0.0
        row: dict[str, float] = {"decisions": decisions, "error_rate": rate,
                                 "rating": 500 * rate,
                                 "luck": sum(g["sides"][side]["luck"] for g in results)}
        for mark in ("inaccuracy", "mistake", "blunder"):
            row[mark] = sum(g["sides"][side]["marks"][mark] for g in results)
        totals.append(row)
    return totals


def summary(match: Match) -> SafeString | str:
    analyses = list(Analysis.objects.filter(match=match).order_by("depth"))
    if not analyses:
        return "none"
    rows = []
    for a in analyses:
        text = f"{a.depth}-ply: {a.state} ({a.turns_done}/{a.turns_total} turns)"
        if a.state == Analysis.State.FAILED:
            text += f" — {a.error}"
        if a.state == Analysis.State.DONE and a.results:
            for name, t in zip(("White", "Black"), side_totals(a.results), strict=True):
                text += (f"; {name}: rating {t['rating']:.1f}, {int(t['blunder'])} blunders, "
                         f"{int(t['mistake'])} mistakes, {int(t['inaccuracy'])} "
                         f"inaccuracies, luck {t['luck']:+.2f}")
        rows.append((text,))
    return format_html_join("", "<div>{}</div>", rows)
