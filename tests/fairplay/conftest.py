"""The fair-play suites' helpers: rated matches ended at once (the minimum of turns off, as
the ratings' own tests do), their reviews written as the review's JSON would have them
(a player who always finds the best play, another who errs), a staff account."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from reviews.models import Analysis
from tests.support import Seat, start_match


@pytest.fixture(autouse=True)
def rated_without_turns(settings: Any) -> None:
    settings.RATED_MIN_TURNS = 0
    settings.RATED_PER_PAIR_PER_DAY = 100


@pytest.fixture
def staff(seat: Callable[..., Seat]) -> Seat:
    moderator = seat("mod")
    moderator.user.is_staff = True
    moderator.user.save(update_fields=["is_staff"])
    return moderator


def review(*, white_loss: float, black_loss: float, moves: int = 60) -> dict[str, Any]:
    """One game's review: ``moves`` moves a side, every other position hard (best and
    second-best 0.2 apart); each side loses its ``*_loss`` on every easy move and twice
    it on every hard one (0: always the best play)."""
    turns = []
    for number in range(1, 2 * moves + 1):
        side = "white" if number % 2 else "black"
        hard = (number // 2) % 2 == 0
        base = white_loss if side == "white" else black_loss
        turns.append({"number": number, "side": side, "kind": "move", "dice": [3, 1],
                      "best": [{"steps": [], "equity": 0.5, "plies": 0, "mwc": None},
                               {"steps": [], "equity": 0.3 if hard else 0.49, "plies": 0,
                                "mwc": None}],
                      "played": {"steps": [], "equity": 0.5, "plies": 0, "mwc": None},
                      "loss": base * (2 if hard else 1), "mark": None, "luck": 0.0})
    side = {"decisions": moves, "loss": 0.0, "error_rate": 0.0, "rating": 0.0,
            "marks": {"inaccuracy": 0, "mistake": 0, "blunder": 0}, "luck": 0.0,
            "mwc_lost": None}
    return {"game": 1, "rules": "long", "depth": 0, "result": 1.0, "luck_adjusted": 1.0,
            "match": None, "sides": [side, dict(side)], "turns": turns, "stakes": []}


def rated_reviewed_match(white: Seat, black: Seat, *, white_loss: float,
                         black_loss: float, loser: Seat | None = None) -> int:
    """A rated match White wins (the loser resigns at once), with its review done."""
    match_id = start_match(white, black)["id"]
    (loser or black).ok(match_id, "resign")
    Analysis.objects.create(match_id=match_id, depth=0, state=Analysis.State.DONE,
                            results=[review(white_loss=white_loss, black_loss=black_loss)],
                            finished_at=timezone.now())
    return match_id
