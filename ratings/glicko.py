"""Glicko-2, made match-length aware: the pure arithmetic of the ratings (no Django).

A player's rating is ``(rating, deviation, volatility)`` on the familiar scale (new
players start at 1500 ± 350, volatility 0.06). One rated match is one rating period of
one game for each player (Glickman, "Example of the Glicko-2 system", 2013), with one
change: the match's length ``L`` scales the rating difference by ``√L``, as FIBS's
formula does for backgammon matches. In Glicko-2's own units (``μ = (r − 1500) /
173.7178``) the expected score against an opponent is

    E = 1 / (1 + exp(−√L · g(φⱼ) · (μ − μⱼ)))

so a longer match favours the stronger player more, and — since the whole update is
Glicko-2's with ``g(φⱼ)`` replaced by ``√L · g(φⱼ)`` — it is stronger evidence too: the
variance ``v`` of the result shrinks by ``L`` and the rating moves further for the
same surprise. A 1-point match is plain Glicko-2. docs/ratings.md has the reasoning and a
worked example.

>>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30, 0.06), 1.0),
...     (Rating(1550, 100, 0.06), 0.0), (Rating(1700, 300, 0.06), 0.0)])
>>> round(r.rating, 2), round(r.deviation, 2), round(r.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""Glicko-2's unit: 400 / ln 10 rating points."""
START_RATING: Final = 1500.0
START_DEVIATION: Final = 350.0
START_VOLATILITY: Final = 0.06
TAU: Final = 0.5
"""The system constant: how fast volatility may change (Glickman suggests 0.3-1.2)."""
MAX_DEVIATION: Final = 350.0
MIN_DEVIATION: Final = 45.0
"""A floor, so that a rating never freezes (lichess keeps one too)."""
PROVISIONAL_DEVIATION: Final = 110.0
"""A rating is provisional while its deviation is above this."""
PERIOD_DAYS: Final = 7.0
"""Inactivity: the deviation grows as if one empty rating period passed every this many
days since the player's last rated match."""
EPSILON: Final = 1e-6


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating, length: int = 1) -> float:
    """The expected score of ``player`` against ``opponent`` in a ``length``-point match:
    its chance to win the match."""
    mu, mu_j = (player.rating - START_RATING) / SCALE, (opponent.rating - START_RATING) / SCALE
    g = math.sqrt(length) * _g(opponent.deviation / SCALE)
    return 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))


def inactive(rating: Rating, days: float) -> Rating:
    """``rating`` after ``days`` without a rated match: the deviation grows by one
    period's volatility every :data:`PERIOD_DAYS` (Glicko-2 step 6 with no games), up to
    :data:`MAX_DEVIATION`."""
    if days <= 0:
        return rating
    phi = rating.deviation / SCALE
    periods = days / PERIOD_DAYS
    grown = math.sqrt(phi * phi + periods * rating.volatility ** 2) * SCALE
    return Rating(rating.rating, min(grown, MAX_DEVIATION), rating.volatility)


def _volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    """Glicko-2 step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[tuple[Rating, float]],
           length: int = 1, floor: bool = False) -> Rating:
    """``player`` after one rating period with ``results``: ``(opponent, score)`` pairs,
    score 1 for a win and 0 for a loss, every match ``length`` points long. With
    ``floor`` the deviation is kept at or above :data:`MIN_DEVIATION` (the site's ratings;
    the paper's example has none)."""
    if not results:
        return player
    if length < 1:
        raise ValueError(f"a match is at least 1 point long, not {length!r}")
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    scale = math.sqrt(length)
    inv_v = 0.0
    total = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score!r}")
        g = scale * _g(opponent.deviation / SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - (opponent.rating - START_RATING) / SCALE)))
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    sigma = _volatility(phi, player.volatility, v * total, v)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    deviation = min(new_phi * SCALE, MAX_DEVIATION)
    if floor:
        deviation = max(deviation, MIN_DEVIATION)
    return Rating(new_mu * SCALE + START_RATING, deviation, sigma)
