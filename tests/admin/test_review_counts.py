"""The admin's review summaries count in the right number: "1 mistake", "2 mistakes"."""

from __future__ import annotations

from reviews.admin import _sides_text


def test_counts_are_singular_for_one() -> None:
    side = {"rating": 3.0, "blunder": 1, "mistake": 1, "inaccuracy": 1, "luck": 0.5}
    other = {"rating": 1.0, "blunder": 0, "mistake": 2, "inaccuracy": 3, "luck": -0.5}
    text = _sides_text([side, other])
    assert "White: rating 3.0, 1 blunder, 1 mistake, 1 inaccuracy, luck +0.50" in text
    assert "Black: rating 1.0, 0 blunders, 2 mistakes, 3 inaccuracies, luck -0.50" in text
