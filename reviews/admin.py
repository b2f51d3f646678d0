"""The game review on the admin's match and game pages: a summary of each analysis.

The pages are games' (:mod:`games.admin`), which never imports the review: they ask
:func:`games.review_hooks.review` for their "Game review" section, and this module's
:func:`summary` and :func:`game_summary` are what the reviews app registers there
(``ReviewsConfig.ready``). A registry rather than unregistering games' ``MatchAdmin`` and
``GameAdmin`` to register subclasses: that would hang on the order of ``INSTALLED_APPS``,
would silently replace any other app's re-registration, and would have to repeat the
pages' fieldsets to keep the section where it is."""

from __future__ import annotations

from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games.models import Game, Match
from reviews.models import Analysis


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


def _count(n: float, one: str, many: str) -> str:
    """"1 mistake", "2 mistakes": a count with its noun in the right number."""
    return f"{int(n)} {one if int(n) == 1 else many}"


def _sides_text(totals: list[dict[str, float]]) -> str:
    return "".join(f"; {name}: rating {t['rating']:.1f}, "
                   f"{_count(t['blunder'], 'blunder', 'blunders')}, "
                   f"{_count(t['mistake'], 'mistake', 'mistakes')}, "
                   f"{_count(t['inaccuracy'], 'inaccuracy', 'inaccuracies')}, "
                   f"luck {t['luck']:+.2f}"
                   for name, t in zip(("White", "Black"), totals, strict=True))


def _state_text(a: Analysis) -> str:
    text = f"{a.depth}-ply: {a.state} ({a.turns_done}/{a.turns_total} turns)"
    if a.state == Analysis.State.FAILED:
        text += f" — {a.error}"
    return text


def summary(match: Match) -> SafeString | str:
    analyses = list(Analysis.objects.filter(match=match).order_by("depth"))
    if not analyses:
        return "none"
    rows = []
    for a in analyses:
        text = _state_text(a)
        if a.state == Analysis.State.DONE and a.results:
            text += _sides_text(side_totals(a.results))
        rows.append((text,))
    return format_html_join("", "<div>{}</div>", rows)


def game_summary(game: Game) -> SafeString | str:
    """The game page's summary: each analysis of its match, and when done this game's
    figures per side (rating, marks, luck) and its luck-adjusted result."""
    analyses = list(Analysis.objects.filter(match_id=game.match_id).order_by("depth"))
    if not analyses:
        return "none"
    rows = []
    for a in analyses:
        text = _state_text(a)
        mine = [g for g in a.results or () if g.get("game") == game.number]
        if a.state == Analysis.State.DONE and mine:
            text += _sides_text(side_totals(mine))
            text += f"; luck-adjusted result {mine[0].get('luck_adjusted', 0):+.2f}"
        rows.append((text,))
    return format_html_join("", "<div>{}</div>", rows)
