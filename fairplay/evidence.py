"""The fair-play figures: pure arithmetic over game reviews (no Django), shared by the
server (:mod:`fairplay.services`) and the benchmark (``bench/fairplay.py``).

A game review (:meth:`computer.review.GameReview.as_dict`) lists each turn's play, the
best plays with their equities and the equity lost. Of one side's non-forced moves
(docs/fairplay.md):

- the **error rate**: the mean equity lost per move;
- the **best share**: the share of moves equal to the review's best (nothing lost);
- **hard and easy positions**: a position is hard when its best and second-best plays
  differ by at least :data:`HARD_GAP` (a wrong choice costs much, and it is not obvious
  which is right); the error rate of each;
- **time against difficulty**: the correlation of the seconds a move took with its
  position's gap (people think longer where it matters; a relay of another program's
  moves often does not);
- **the positions that weigh most**: the hard positions where the best play was found,
  by their gap.

An account's figures pool its last games; its **score** (0-100) is the larger of two
parts, each "how much smaller the error rate is than expected", from 0 (as expected or
worse) to 1 (no error at all):

- **overall**, against what its rating predicts (:class:`Fit`): ``1 - e / ê(rating)``;
- **in hard positions** (weighted by :data:`HARD_WEIGHT`), against what its own error
  rate in easy positions predicts there (:meth:`Fit.expected_hard`: fitted, since
  stronger players' hard-position errors fall faster than their easy ones): a player
  who is only good where it matters most. This part does not lean on the rating.

Each error rate is shrunk towards its expected value by :data:`PRIOR_MOVES` (hard
positions: :data:`PRIOR_HARD_MOVES`) moves' worth of it, so that a few lucky games
weigh little.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

HARD_GAP = 0.08
"""Equity between the best and the second-best play from which a position is hard (a
mistake's size, :data:`computer.review.THRESHOLDS`)."""
BEST_EPSILON = 1e-4
"""A move that lost less than this is the best (reviews round equities to 4 places)."""
PRIOR_MOVES = 60
"""The overall error rate is shrunk towards the expected one as if this many moves played
exactly as expected had been added: about two games' worth of moves."""
PRIOR_HARD_MOVES = 40
"""The same for the hard positions' error rate (about eight games' worth of them)."""
HARD_WEIGHT = 0.8
"""The hard positions' part counts for this much of the score: a strong honest player
also errs little where the best play stands out, so alone it flags too many
(docs/fairplay.md has the figures it was chosen from)."""
TOP_POSITIONS = 10
"""How many of the positions that weigh most a case lists."""

DEFAULT_AT_1500 = 0.040
"""The expected error rate of a 1500 player before there are enough data to fit."""
DEFAULT_SLOPE = -math.log(2) / 400
"""Before a fit: the expected error rate halves every 400 rating points."""
DEFAULT_HARD_RATIO = 1.5
"""Before a fit: the error rate in hard positions against the one in easy positions."""
DEFAULT_HARD_POWER = 1.0
"""Before a fit: the hard positions' error rate as a power of the easy ones'."""
MIN_FIT_GAMES = 50
"""Games needed before the expected error rate is fitted from the site's own reviews."""


@dataclass
class GameFigures:
    """One side's figures in one reviewed game."""

    match: int
    game: int
    side: str
    moves: int = 0
    loss: float = 0.0
    best: int = 0
    hard: int = 0
    hard_loss: float = 0.0
    hard_best: int = 0
    easy: int = 0
    easy_loss: float = 0.0
    timed: list[tuple[float, float]] = field(default_factory=list)
    """(gap, seconds) of each move whose time is known."""
    weighty: list[dict[str, Any]] = field(default_factory=list)

    @property
    def error_rate(self) -> float:
        return self.loss / self.moves if self.moves else 0.0


def game_figures(review: Mapping[str, Any], side: str, *, match: int = 0,
                 seconds: Mapping[int, float] | None = None) -> GameFigures:
    """``side``'s (``white`` or ``black``) figures in one game's review; ``seconds``: the
    time each turn (by number) took, when known."""
    found = GameFigures(match=match, game=int(review.get("game", 1)), side=side)
    for turn in review.get("turns", ()):
        if turn.get("side") != side or turn.get("kind") != "move":
            continue
        best = turn.get("best") or []
        loss = float(turn.get("loss", 0.0))
        gap = (float(best[0]["equity"]) - float(best[1]["equity"])) if len(best) > 1 else 0.0
        found.moves += 1
        found.loss += loss
        is_best = loss < BEST_EPSILON
        found.best += is_best
        if gap >= HARD_GAP:
            found.hard += 1
            found.hard_loss += loss
            found.hard_best += is_best
            if is_best:
                found.weighty.append({"match": match, "game": found.game,
                                      "turn": int(turn.get("number", 0)),
                                      "gap": round(gap, 4)})
        else:
            found.easy += 1
            found.easy_loss += loss
        number = int(turn.get("number", 0))
        if seconds is not None and number in seconds:
            found.timed.append((gap, float(seconds[number])))
    return found


@dataclass(frozen=True)
class Fit:
    """The expected error rate by rating: ``exp(a + b (r - 1500))``, and the hard
    positions' error rate against the easy ones' (``hard_ratio``). ``games``: how many games it was
    fitted from (0: the defaults)."""

    a: float = math.log(DEFAULT_AT_1500)
    b: float = DEFAULT_SLOPE
    hard_ratio: float = DEFAULT_HARD_RATIO
    games: int = 0
    hard_c: float = math.log(DEFAULT_HARD_RATIO)
    hard_d: float = DEFAULT_HARD_POWER

    def expected(self, rating: float) -> float:
        return math.exp(self.a + self.b * (rating - 1500.0))

    def expected_hard(self, easy_rate: float) -> float:
        """The error rate in hard positions of a player with ``easy_rate`` in easy ones:
        ``exp(c + d ln easy_rate)``, fitted over bins of games by their easy rate."""
        return math.exp(self.hard_c + self.hard_d * math.log(max(easy_rate, 1e-4)))

    def as_dict(self) -> dict[str, Any]:
        return {"at_1500": round(self.expected(1500.0), 5), "halves_every": (
            round(-math.log(2) / self.b) if self.b < 0 else None),
            "hard_ratio": round(self.hard_ratio, 3), "hard_c": round(self.hard_c, 4),
            "hard_d": round(self.hard_d, 4), "games": self.games}


def fit(samples: Iterable[tuple[float, GameFigures]]) -> Fit:
    """The least-squares fit of ``ln(error rate)`` on the rating over ``(rating,
    figures)`` of honest-presumed games (games with moves and some loss); the defaults
    below :data:`MIN_FIT_GAMES` games, or when the slope comes out positive (the weaker
    play better: too few or too odd data)."""
    xs, ys = [], []
    per_game: list[GameFigures] = []
    hard_loss = hard = easy_loss = easy = 0.0
    for rating, figures in samples:
        if figures.moves < 5:
            continue
        xs.append(rating - 1500.0)
        ys.append(math.log(max(figures.error_rate, 1e-3)))
        per_game.append(figures)
        hard_loss += figures.hard_loss
        hard += figures.hard
        easy_loss += figures.easy_loss
        easy += figures.easy
    n = len(xs)
    if n < MIN_FIT_GAMES:
        return Fit()
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    if b > 0:
        b = 0.0
    a = my - b * mx
    ratio = ((hard_loss / hard) / (easy_loss / easy)) if hard and easy_loss else (
        DEFAULT_HARD_RATIO)
    c, d = _hard_fit(per_game, ratio)
    return Fit(a=a, b=b, hard_ratio=ratio, games=n, hard_c=c, hard_d=d)


def _hard_fit(games: Sequence[GameFigures], ratio: float, bins: int = 10
              ) -> tuple[float, float]:
    """``(c, d)`` of ``ln hard = c + d ln easy``: the games sorted by their easy error
    rate into ``bins`` bins, each bin's pooled rates one point (a game has too few hard
    positions to be a point of its own); a plain ratio when the points do not spread."""
    ranked = sorted((g for g in games if g.easy), key=lambda g: g.easy_loss / g.easy)
    points = []
    size = max(1, len(ranked) // bins)
    for start in range(0, len(ranked), size):
        chunk = ranked[start:start + size]
        easy_loss, easy = sum(g.easy_loss for g in chunk), sum(g.easy for g in chunk)
        hard_loss, hard = sum(g.hard_loss for g in chunk), sum(g.hard for g in chunk)
        if easy_loss > 0 and hard_loss > 0 and hard:
            points.append((math.log(easy_loss / easy), math.log(hard_loss / hard)))
    if len(points) < 3:
        return math.log(ratio), 1.0
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx <= 0:
        return math.log(ratio), 1.0
    d = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - d * mx, d


def _correlation(pairs: Sequence[tuple[float, float]]) -> float | None:
    if len(pairs) < 10:
        return None
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if not sx or not sy:
        return None
    return sum((x - mx) * (y - my) for x, y in pairs) / (sx * sy)


def _shrunk(loss: float, moves: int, expected: float, prior: int = PRIOR_MOVES) -> float:
    return (loss + prior * expected) / (moves + prior)


def account_figures(games: Sequence[GameFigures], rating: float, the_fit: Fit
                    ) -> dict[str, Any]:
    """The pooled figures of an account's games and its score (module docstring)."""
    moves = sum(g.moves for g in games)
    loss = sum(g.loss for g in games)
    hard = sum(g.hard for g in games)
    hard_loss = sum(g.hard_loss for g in games)
    easy = sum(g.easy for g in games)
    easy_loss = sum(g.easy_loss for g in games)
    expected = the_fit.expected(rating)
    # The easy positions' own rate (shrunk towards the rating's) predicts the hard ones'.
    easy_rate = _shrunk(easy_loss, easy, expected)
    expected_hard = max(the_fit.expected_hard(easy_rate), 1e-4)
    overall = 1.0 - _shrunk(loss, moves, expected) / expected
    in_hard = 1.0 - _shrunk(hard_loss, hard, expected_hard, PRIOR_HARD_MOVES) / expected_hard
    score = max(0.0, min(100.0, 100.0 * max(overall, HARD_WEIGHT * in_hard)))
    weighty = sorted((w for g in games for w in g.weighty), key=lambda w: -w["gap"])
    return {
        "games": len(games), "moves": moves, "rating": round(rating, 1),
        "error_rate": round(loss / moves, 5) if moves else None,
        "expected_error_rate": round(expected, 5),
        "best_share": round(sum(g.best for g in games) / moves, 4) if moves else None,
        "hard_moves": hard,
        "hard_error_rate": round(hard_loss / hard, 5) if hard else None,
        "hard_best_share": round(sum(g.hard_best for g in games) / hard, 4) if hard else None,
        "easy_error_rate": round(easy_loss / easy, 5) if easy else None,
        "expected_hard_error_rate": round(expected_hard, 5),
        "time_vs_difficulty": _rounded(_correlation([p for g in games for p in g.timed])),
        "better_than_expected": round(overall, 4),
        "better_than_expected_in_hard": round(in_hard, 4),
        "trend": [round(g.error_rate, 5) for g in games],
        "score": round(score, 1),
        "positions": weighty[:TOP_POSITIONS],
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
