"""The fair-play score's parts that do not lean on the rating: too many best moves for the
errors made (a player who copies a program in some turns keeps its own errors in the
others), too many best moves in hard positions for the play in easy ones; the honest
relations fitted from honest accounts; and a copier flagged through the scan although
its error rate is what its rating predicts."""

from __future__ import annotations

import math
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from fairplay import evidence, services
from fairplay.models import FairplayCase
from reviews.models import Analysis
from tests.support import Seat, start_match

THRESHOLD = settings.FAIRPLAY_THRESHOLD


def account(*, moves: int, best: int, loss: float, hard: int = 0, hard_best: int = 0,
            gap_easy: float = 0.01, gap_hard: float = 0.2) -> evidence.GameFigures:
    """``moves`` easy moves, ``best`` of them the best and the others sharing ``loss``
    equally; ``hard`` hard moves, ``hard_best`` of them the best, the others losing 0.1."""
    g = evidence.GameFigures(match=1, game=1, side="white")
    for k in range(moves):
        evidence.add_move(g, 0.0 if k < best else loss / (moves - best), gap_easy)
    for k in range(hard):
        evidence.add_move(g, 0.0 if k < hard_best else 0.1, gap_hard)
    return g


def expected_best(rate: float) -> float:
    y, _ = evidence.Fit().shape.at(-math.log(rate + evidence.RATE_FLOOR))
    return 1 / (1 + math.exp(-y))


def test_too_many_best_moves_for_the_errors_made() -> None:
    moves, rate = 1200, 0.025
    honest_best = round(expected_best(rate) * moves)
    honest = account(moves=moves, best=honest_best, loss=rate * moves)
    # The same error rate, 150 more best moves: the other moves' errors are larger.
    copier = account(moves=moves, best=honest_best + 150, loss=rate * moves)
    assert honest.capped == pytest.approx(copier.capped)
    fit = evidence.Fit()
    plain = evidence.account_figures([honest], 3000.0, fit)
    found = evidence.account_figures([copier], 3000.0, fit)
    assert abs(plain["best_excess_z"]) < 0.5 and plain["score"] < THRESHOLD
    assert found["best_excess_z"] > THRESHOLD / evidence.Z_POINTS
    assert found["score"] == pytest.approx(min(100.0, evidence.Z_POINTS
                                               * found["best_excess_z"]), abs=0.2)
    assert found["expected_best_share"] == pytest.approx(honest_best / moves, abs=0.001)
    # The rating does not enter this part: a very strong rating predicts a far smaller
    # error rate, so the rating's part is 0 for both.
    assert found["better_than_expected"] < 0 and plain["better_than_expected"] < 0


def test_too_many_best_moves_in_hard_positions() -> None:
    fit = evidence.Fit()
    rate = 0.06
    y, _ = fit.hard.at(-math.log(rate + evidence.RATE_FLOOR))
    as_expected = round(200 / (1 + math.exp(-y)))
    honest = account(moves=1000, best=300, loss=rate * 1000, hard=200,
                     hard_best=as_expected)
    asks = account(moves=1000, best=300, loss=rate * 1000, hard=200, hard_best=200)
    plain = evidence.account_figures([honest], 3000.0, fit)
    found = evidence.account_figures([asks], 3000.0, fit)
    assert abs(plain["hard_excess_z"]) < 0.5
    assert found["hard_excess_z"] > THRESHOLD / evidence.Z_POINTS
    assert found["score"] >= THRESHOLD
    assert found["expected_hard_best_share"] == pytest.approx(as_expected / 200, abs=0.005)
    # Too few hard positions: the part waits.
    few = account(moves=1000, best=300, loss=rate * 1000,
                  hard=evidence.MIN_HARD_MOVES - 1, hard_best=evidence.MIN_HARD_MOVES - 1)
    assert evidence.account_figures([few], 3000.0, fit)["hard_excess_z"] == 0.0


def fit_accounts(count: int) -> list[tuple[float, evidence.GameFigures]]:
    """``count`` honest accounts from weak to strong, each 300 moves: the stronger, the
    more best moves and the fewer errors, in easy and hard positions."""
    samples = []
    for k in range(count):
        strength = k / max(count - 1, 1)
        g = account(moves=250, best=round(50 + 100 * strength), loss=25 - 20 * strength,
                    hard=50, hard_best=round(20 + 25 * strength))
        g.account = k + 1
        samples.append((1200 + 800 * strength, g))
    return samples


def test_the_honest_relations_are_fitted_from_honest_accounts() -> None:
    too_few = evidence.fit(fit_accounts(evidence.MIN_FIT_ACCOUNTS - 1))
    assert too_few.accounts == 0
    assert too_few.shape == evidence.Curve(*evidence.DEFAULT_SHAPE)
    fitted = evidence.fit(fit_accounts(60))
    assert fitted.accounts == 60 and fitted.games == 60
    for curve in (fitted.shape, fitted.hard):
        assert len(curve.xs) == evidence.FIT_BINS
        assert all(a < b for a, b in zip(curve.xs, curve.xs[1:], strict=False))
        assert all(a <= b for a, b in zip(curve.ys, curve.ys[1:], strict=False))
    # The weakest group's best share: its 6 accounts' moves pooled.
    weakest = fit_accounts(60)[:6]
    share = sum(g.best for _, g in weakest) / sum(g.moves for _, g in weakest)
    assert fitted.shape.ys[0] == pytest.approx(math.log(share / (1 - share)))
    # Weaker than the weakest group: flat; stronger than the strongest: carried on.
    assert fitted.shape.at(fitted.shape.xs[0] - 1) == (fitted.shape.ys[0], 0.0)
    top, slope = fitted.shape.at(fitted.shape.xs[-1] + 0.5)
    assert slope > 0 and top > fitted.shape.ys[-1]
    assert fitted.as_dict()["accounts"] == 60


def copier_review(game: int) -> dict[str, Any]:
    """White plays 60 moves: the best in 36 of them, 0.09 lost in each of the others (an
    error rate of 0.036); Black loses 0.05 a move."""
    turns = []
    for number in range(1, 121):
        side = "white" if number % 2 else "black"
        k = number // 2
        loss = (0.0 if k % 5 < 3 else 0.09) if side == "white" else 0.05
        turns.append({"number": number, "side": side, "kind": "move", "dice": [3, 1],
                      "best": [{"steps": [], "equity": 0.5, "plies": 0, "mwc": None},
                               {"steps": [], "equity": 0.49, "plies": 0, "mwc": None}],
                      "played": {"steps": [], "equity": 0.5 - loss, "plies": 0,
                                 "mwc": None},
                      "loss": loss, "mark": None, "luck": 0.0})
    return {"game": game, "rules": "long", "depth": 0, "turns": turns, "stakes": [],
            "sides": []}


@pytest.mark.django_db
def test_a_copier_is_flagged_although_its_rating_predicts_its_error_rate(
        alice: Seat, bob: Seat) -> None:
    for _ in range(5):
        match_id = start_match(alice, bob)["id"]
        bob.ok(match_id, "resign")
        Analysis.objects.create(match_id=match_id, depth=0, state=Analysis.State.DONE,
                                results=[copier_review(1)], finished_at=timezone.now())
    [case] = services.scan()
    assert case == FairplayCase.objects.get(account=alice.user)
    figures = case.evidence
    assert figures["better_than_expected"] < 0.5
    assert figures["best_share"] == 0.6 and figures["error_rate"] == 0.036
    assert figures["best_excess_z"] * evidence.Z_POINTS >= THRESHOLD
    assert case.score >= THRESHOLD
