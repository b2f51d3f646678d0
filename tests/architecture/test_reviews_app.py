"""The game review is an app of its own: reviews/ imports games/, never the other way
round; games asks the review what it shows of it through games.review_hooks, which the
reviews app fills in when it starts."""

from __future__ import annotations

import ast
from pathlib import Path

from games import review_hooks, shapes
from reviews import admin, selectors, services, tasks
from reviews.models import Analysis

ROOT = Path(__file__).resolve().parents[2]


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_games_never_imports_the_review() -> None:
    files = sorted((ROOT / "games").rglob("*.py"))
    assert files
    bad = {str(p.relative_to(ROOT)): sorted(n for n in _imported(p)
                                            if n == "reviews" or n.startswith("reviews."))
           for p in files}
    assert not {path: names for path, names in bad.items() if names}


def test_the_review_is_registered_with_games() -> None:
    review = review_hooks.review()
    assert review is not review_hooks.NO_REVIEW
    assert review.is_open is selectors.is_open and review.briefs is selectors.briefs
    assert review.exported is selectors.exported
    assert (review.match_summary, review.game_summary) == (admin.summary, admin.game_summary)
    assert review.reclaim is services.reclaim_lost and review.resume is services.resume_analyses
    assert (review.task_path, review.queue_name) == (tasks.ANALYSE, tasks.ANALYSIS_QUEUE)
    assert f"{tasks.analyse.func.__module__}.{tasks.analyse.func.__name__}" == tasks.ANALYSE


def test_the_schema_s_states_are_the_model_s() -> None:
    assert tuple(Analysis.State.values) == shapes.ANALYSIS_STATES


def test_the_model_keeps_its_table() -> None:
    assert Analysis._meta.db_table == "games_analysis"
    assert Analysis._meta.app_label == "reviews"
