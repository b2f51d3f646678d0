"""The rating arithmetic: Glicko-2 with the match length (ratings.glicko, docs/ratings.md)."""

from __future__ import annotations

import math

import pytest

from ratings.glicko import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    PERIOD_DAYS,
    Rating,
    expected,
    inactive,
    update,
)


def test_the_glicko2_papers_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500 ± 200 (σ 0.06, τ 0.5) beats
    1400 ± 30, loses to 1550 ± 100 and to 1700 ± 300 → 1464.06 ± 151.52, σ 0.05999 (the
    paper rounds μ' to −0.2069 before scaling back: 1464.05 unrounded)."""
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                              (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_one_point_match_is_plain_glicko2_by_hand():
    """Equal players, 1500 ± 350, one win: g(φ) = 1/√(1 + 3φ²/π²) with φ = 350/173.7178,
    E = 0.5, v = 1/(g²/4), Δ = v·g/2; with σ unchanged to 4 places the new μ is φ'²·g/2."""
    phi = 350 / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)
    v = 1 / (g * g * 0.25)
    after = update(Rating(), [(Rating(), 1.0)])
    sigma = after.volatility
    phi_star = math.sqrt(phi ** 2 + sigma ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    assert after.deviation == pytest.approx(min(new_phi * 173.7178, MAX_DEVIATION))
    assert after.rating == pytest.approx(1500 + 173.7178 * new_phi ** 2 * g * 0.5)
    assert sigma == pytest.approx(0.06, abs=1e-4)


def test_expected_scores_are_symmetric():
    a, b = Rating(1700, 80), Rating(1550, 80)
    for length in (1, 3, 5, 7):
        assert expected(a, b, length) + expected(b, a, length) == pytest.approx(1.0)
    assert expected(a, a, 7) == pytest.approx(0.5)


def test_the_favourite_gains_with_the_length_and_the_difference():
    strong, weak = Rating(1700, 60), Rating(1500, 60)
    by_length = [expected(strong, weak, n) for n in (1, 3, 5, 7, 11)]
    assert by_length == sorted(by_length) and len(set(by_length)) == 5
    by_difference = [expected(Rating(1500 + d, 60), weak, 5) for d in (0, 50, 100, 200, 400)]
    assert by_difference == sorted(by_difference) and by_difference[0] == pytest.approx(0.5)


def test_the_length_scales_the_difference_by_its_root():
    """E for L points at difference D equals E for 1 point at difference √L·D."""
    weak = Rating(1500, 60)
    assert expected(Rating(1600, 60), weak, 9) == pytest.approx(
        expected(Rating(1800, 60), weak, 1))


def test_a_longer_match_is_stronger_evidence():
    """The same upset moves both ratings further, and shrinks the deviation more, when
    the match was longer."""
    p, q = Rating(1500, 150), Rating(1600, 150)
    short, long = update(p, [(q, 1.0)], length=1), update(p, [(q, 1.0)], length=7)
    assert long.rating > short.rating > p.rating
    assert long.deviation < short.deviation < p.deviation


def test_a_win_raises_and_a_loss_lowers():
    p, q = Rating(1500, 120), Rating(1500, 120)
    assert update(p, [(q, 1.0)], 3).rating > 1500 > update(p, [(q, 0.0)], 3).rating


def test_inactivity_grows_the_deviation_up_to_the_cap():
    r = Rating(1620, 60, 0.06)
    assert inactive(r, 0) == r
    month, year = inactive(r, 30), inactive(r, 365)
    assert r.deviation < month.deviation < year.deviation <= MAX_DEVIATION
    assert month.rating == r.rating and month.volatility == r.volatility
    # one period: φ² + σ² in Glicko-2 units
    one = inactive(r, PERIOD_DAYS)
    assert one.deviation == pytest.approx(math.sqrt((60 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178)
    assert inactive(r, 1e9).deviation == MAX_DEVIATION


def test_the_floor_and_the_provisional_mark():
    r = Rating(1500, 46)
    assert update(r, [(Rating(1500, 46), 1.0)], 7, floor=True).deviation >= MIN_DEVIATION
    assert Rating(1500, 111).provisional and not Rating(1500, 110).provisional


@pytest.mark.parametrize("bad", [{"length": 0}, {"score": 1.5}, {"score": -0.1}])
def test_bad_arguments_are_refused(bad):
    with pytest.raises(ValueError):
        update(Rating(), [(Rating(), bad.get("score", 1.0))], length=bad.get("length", 1))
