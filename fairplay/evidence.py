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

An account's figures pool its last games; its **score** (0-100) says how much better it
plays than its rating predicts (:class:`Fit`), overall and in hard positions, each error
rate shrunk towards the expected one by :data:`PRIOR_MOVES` moves' worth of it so that a
few lucky games weigh little.
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
PRIOR_MOVES = 150
"""Each error rate is shrunk towards the expected one as if this many moves played
exactly as expected had been added: about three games' worth of moves."""
TOP_POSITIONS = 10
"""How many of the positions that weigh most a case lists."""

DEFAULT_AT_1500 = 0.040
"""The expected error rate of a 1500 player before there are enough data to fit."""
DEFAULT_SLOPE = -math.log(2) / 400
"""Before a fit: the expected error rate halves every 400 rating points."""
DEFAULT_HARD_RATIO = 2.5
"""Before a fit: the error rate in hard positions against the overall one."""
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
    positions' error rate against it (``hard_ratio``). ``games``: how many games it was
    fitted from (0: the defaults)."""

    a: float = math.log(DEFAULT_AT_1500)
    b: float = DEFAULT_SLOPE
    hard_ratio: float = DEFAULT_HARD_RATIO
    games: int = 0

    def expected(self, rating: float) -> float:
        return math.exp(self.a + self.b * (rating - 1500.0))

    def as_dict(self) -> dict[str, Any]:
        return {"at_1500": round(self.expected(1500.0), 5), "halves_every": (
            round(-math.log(2) / self.b) if self.b < 0 else None),
            "hard_ratio": round(self.hard_ratio, 3), "games": self.games}


def fit(samples: Iterable[tuple[float, GameFigures]]) -> Fit:
    """The least-squares fit of ``ln(error rate)`` on the rating over ``(rating,
    figures)`` of honest-presumed games (games with moves and some loss); the defaults
    below :data:`MIN_FIT_GAMES` games, or when the slope comes out positive (the weaker
    play better: too few or too odd data)."""
    xs, ys = [], []
    hard_loss = hard = loss = moves = 0.0
    for rating, figures in samples:
        if figures.moves < 5:
            continue
        xs.append(rating - 1500.0)
        ys.append(math.log(max(figures.error_rate, 1e-3)))
        hard_loss += figures.hard_loss
        hard += figures.hard
        loss += figures.loss
        moves += figures.moves
    n = len(xs)
    if n < MIN_FIT_GAMES:
        return Fit()
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    if b > 0:
        b = 0.0
    a = my - b * mx
    ratio = ((hard_loss / hard) / (loss / moves)) if hard and loss else DEFAULT_HARD_RATIO
    return Fit(a=a, b=b, hard_ratio=max(ratio, 1.0), games=n)


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


def _shrunk(loss: float, moves: int, expected: float) -> float:
    return (loss + PRIOR_MOVES * expected) / (moves + PRIOR_MOVES)


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
    expected_hard = expected * the_fit.hard_ratio
    overall = 1.0 - _shrunk(loss, moves, expected) / expected
    in_hard = 1.0 - _shrunk(hard_loss, hard, expected_hard) / expected_hard
    score = max(0.0, min(100.0, 100.0 * max(overall, in_hard)))
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
        "time_vs_difficulty": _rounded(_correlation([p for g in games for p in g.timed])),
        "better_than_expected": round(overall, 4),
        "better_than_expected_in_hard": round(in_hard, 4),
        "trend": [round(g.error_rate, 5) for g in games],
        "score": round(score, 1),
        "positions": weighty[:TOP_POSITIONS],
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
