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

An account's figures pool its last games; its **score** (0-100) is the largest of three
parts (docs/fairplay.md, "The score"):

- **against the rating**: ``100 (1 - e / ê(rating))``, how much smaller the error rate
  is than what the rating predicts (:class:`Fit`), 0 when as expected or worse. The
  error rate is shrunk towards the expected one by :data:`PRIOR_MOVES` moves' worth of
  it, so that a few lucky games weigh little;
- **too many best moves for the errors made** (``best_excess_z``): honest players of
  every strength keep one relation between their share of best moves and their error
  rate (fitted from honest accounts, :attr:`Fit.shape`); someone who takes a program's
  move in some turns and plays their own in the others keeps their own mistakes in
  those, and has more best moves than that error rate goes with. The excess of best
  moves over the fitted share, in standard deviations (``z``);
- **too good in hard positions** (``hard_excess_z``): the share of best moves in hard
  positions against what the account's (capped) error rate in easy positions predicts
  (the honest relation, :attr:`Fit.hard`), in standard deviations: someone who asks for
  help only where it matters.

Each ``z`` counts :data:`Z_POINTS` points per standard deviation. Neither ``z`` part uses
the rating.
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
LOSS_CAP = 0.16
"""In the relation of best moves to the error rate, a move's loss counts up to a
blunder's size (:data:`computer.review.THRESHOLDS`): one huge blunder would otherwise
weigh as much as dozens of small errors, and make the rate too noisy to predict from."""
RATE_FLOOR = 1e-3
"""Added to the (capped) error rate before its logarithm: a flawless stretch is not
infinitely strong."""
Z_POINTS = 15.0
"""Score points per standard deviation of a ``z`` part: the threshold 60 is 4 of them
(docs/fairplay.md has the figures it was chosen from)."""
MIN_HARD_MOVES = 20
"""Hard positions needed before the hard-positions part counts (about four games)."""
FIT_BINS = 10
"""The honest relations are fitted through this many groups of accounts."""
UPPER_QUANTILE = 0.75
"""The hard positions' relation follows this quantile of each group's accounts, not its
mean: honest styles differ most there (a player of rules errs in hard positions far
more than one of judgment at the same level elsewhere), and an account is compared with
the honest players who do best in them."""
MIN_FIT_ACCOUNT_MOVES = 200
"""An account enters the fit of the honest relations with at least this many moves."""
MIN_FIT_ACCOUNTS = 40
"""Accounts needed before the honest relations are fitted from the site's own reviews
(until then: :data:`DEFAULT_SHAPE`, :data:`DEFAULT_HARD`)."""
TOP_POSITIONS = 10
"""How many of the positions that weigh most a case lists."""

DEFAULT_AT_1500 = 0.040
"""The expected error rate of a 1500 player before there are enough data to fit."""
DEFAULT_SLOPE = -math.log(2) / 400
"""Before a fit: the expected error rate halves every 400 rating points."""
DEFAULT_SHAPE = ((2.35, 2.759, 3.061, 3.184, 3.296, 3.53, 3.853, 4.156, 4.484, 4.861),
                 (-1.962, -1.137, -0.77, -0.613, -0.53, -0.352, -0.14, 0.069, 0.273, 0.517))
"""Before a fit: the honest relation of ``logit(best share)`` (second) to ``-ln(capped
error rate + RATE_FLOOR)`` (first), as ``bench/fairplay.py`` fits it from its simulated
honest accounts."""
DEFAULT_HARD = ((2.419, 2.798, 3.069, 3.224, 3.315, 3.471, 3.753, 4.038, 4.351, 4.72),
                (-1.405, 0.495, 0.93, 1.219, 1.386, 2.286, 3.114, 4.094, 5.293, 5.293))
"""Before a fit: the honest relation of ``logit(best share in hard positions)`` to
``-ln(capped error rate in easy positions + RATE_FLOOR)``, from the same benchmark."""
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
    capped: float = 0.0
    """The losses, each at most :data:`LOSS_CAP`, summed …"""
    capped_squares: float = 0.0
    """… and their squares (the rate's spread, for its standard deviation)."""
    easy_capped: float = 0.0
    easy_capped_squares: float = 0.0
    """The same in easy positions."""
    account: int = 0
    """Whose game (for the fit, which pools each account's games)."""
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
        if add_move(found, loss, gap) and gap >= HARD_GAP:
            found.weighty.append({"match": match, "game": found.game,
                                  "turn": int(turn.get("number", 0)),
                                  "gap": round(gap, 4)})
        number = int(turn.get("number", 0))
        if seconds is not None and number in seconds:
            found.timed.append((gap, float(seconds[number])))
    return found


def add_move(found: GameFigures, loss: float, gap: float) -> bool:
    """Count one move that lost ``loss`` in a position whose best and second-best plays
    are ``gap`` apart; whether it was the best."""
    capped = min(loss, LOSS_CAP)
    is_best = loss < BEST_EPSILON
    found.moves += 1
    found.loss += loss
    found.best += is_best
    found.capped += capped
    found.capped_squares += capped * capped
    if gap >= HARD_GAP:
        found.hard += 1
        found.hard_loss += loss
        found.hard_best += is_best
    else:
        found.easy += 1
        found.easy_loss += loss
        found.easy_capped += capped
        found.easy_capped_squares += capped * capped
    return is_best


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def _expit(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class Curve:
    """A relation fitted through points, ``xs`` increasing with the player's strength:
    straight between the points; weaker than the first point, flat at its value (the
    weakest are not the ones suspected); stronger than the last, the last segment
    carried on."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def at(self, x: float) -> tuple[float, float]:
        """The value at ``x`` and the slope there."""
        xs, ys = self.xs, self.ys
        if x <= xs[0]:
            return ys[0], 0.0
        j = len(xs) - 2
        for i in range(1, len(xs)):
            if x <= xs[i]:
                j = i - 1
                break
        slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j])
        return ys[j] + slope * (x - xs[j]), slope

    def as_dict(self) -> dict[str, list[float]]:
        return {"x": [round(x, 3) for x in self.xs], "y": [round(y, 3) for y in self.ys]}


@dataclass(frozen=True)
class Fit:
    """What honest players do, fitted from honest-presumed games: the expected error rate
    by rating, ``exp(a + b (r - 1500))``; the best share by the capped error rate
    (``shape``); the best share in hard positions by the one in easy positions
    (``hard``). ``games``, ``accounts``: how many it was fitted from (0: the defaults)."""

    a: float = math.log(DEFAULT_AT_1500)
    b: float = DEFAULT_SLOPE
    games: int = 0
    shape: Curve = Curve(*DEFAULT_SHAPE)
    hard: Curve = Curve(*DEFAULT_HARD)
    accounts: int = 0

    def expected(self, rating: float) -> float:
        return math.exp(self.a + self.b * (rating - 1500.0))

    def as_dict(self) -> dict[str, Any]:
        return {"at_1500": round(self.expected(1500.0), 5), "halves_every": (
            round(-math.log(2) / self.b) if self.b < 0 else None), "games": self.games,
            "accounts": self.accounts, "shape": self.shape.as_dict(),
            "hard": self.hard.as_dict()}


def fit(samples: Iterable[tuple[float, GameFigures]]) -> Fit:
    """The least-squares fit of ``ln(error rate)`` on the rating over ``(rating,
    figures)`` of honest-presumed games (games with moves and some loss); the defaults
    below :data:`MIN_FIT_GAMES` games, or when the slope comes out positive (the weaker
    play better: too few or too odd data). The honest relations (:func:`fit_curves`) from
    the same games pooled by account."""
    xs, ys = [], []
    games: list[GameFigures] = []
    for rating, figures in samples:
        if figures.moves < 5:
            continue
        xs.append(rating - 1500.0)
        ys.append(math.log(max(figures.error_rate, 1e-3)))
        games.append(figures)
    shape, hard, accounts = fit_curves(games)
    n = len(xs)
    if n < MIN_FIT_GAMES:
        return Fit(shape=shape, hard=hard, accounts=accounts)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    if b > 0:
        b = 0.0
    return Fit(a=my - b * mx, b=b, games=n, shape=shape, hard=hard, accounts=accounts)


def _strength(capped: float, moves: int) -> float:
    """The shape relation's ``x``: ``-ln`` of the capped error rate (larger: stronger)."""
    return -math.log(capped / moves + RATE_FLOOR)


def _share(count: float, total: float) -> float:
    """A share kept off 0 and 1 (its logit stays finite)."""
    return min(max(count / total, 0.005), 0.995)


def fit_curves(games: Sequence[GameFigures]) -> tuple[Curve, Curve, int]:
    """The honest relations (:class:`Fit`), each through :data:`FIT_BINS` points: the
    accounts with at least :data:`MIN_FIT_ACCOUNT_MOVES` moves sorted by ``x``, cut into
    groups of as many accounts, each group's moves pooled into one point; the values
    made non-decreasing (a stronger group is never expected to find the best less
    often: a dip is noise, and raising it only makes a flag harder). The defaults below
    :data:`MIN_FIT_ACCOUNTS` accounts; with them, the number of accounts."""
    pooled: dict[int, list[float]] = {}
    for g in games:
        row = pooled.setdefault(g.account, [0.0] * 7)
        for k, v in enumerate((g.moves, g.best, g.capped, g.hard, g.hard_best, g.easy,
                               g.easy_capped)):
            row[k] += v
    rows = [r for r in pooled.values() if r[0] >= MIN_FIT_ACCOUNT_MOVES and r[3] and r[5]]
    if len(rows) < MIN_FIT_ACCOUNTS:
        return Curve(*DEFAULT_SHAPE), Curve(*DEFAULT_HARD), 0

    def through(key: Any, point: Any, upper: Any = None) -> Curve:
        ranked = sorted(rows, key=key)
        xs: list[float] = []
        ys: list[float] = []
        for k in range(FIT_BINS):
            group = ranked[k * len(ranked) // FIT_BINS:(k + 1) * len(ranked) // FIT_BINS]
            if not group:
                continue
            x, y = point([sum(r[i] for r in group) for i in range(7)])
            if upper is not None:
                values = sorted(upper(r) for r in group)
                y = values[min(len(values) - 1, int(UPPER_QUANTILE * len(values)))]
            if xs and x <= xs[-1] + 1e-6:
                continue
            xs.append(x)
            ys.append(max(y, ys[-1]) if ys else y)
        return Curve(tuple(xs), tuple(ys))

    shape = through(lambda r: _strength(r[2], int(r[0])),
                    lambda t: (_strength(t[2], int(t[0])), _logit(_share(t[1], t[0]))))
    hard = through(lambda r: _strength(r[6], int(r[5])),
                   lambda t: (_strength(t[6], int(t[5])), 0.0),
                   upper=lambda r: _logit(_share(r[4], r[3])))
    if len(shape.xs) < 2 or len(hard.xs) < 2:
        return Curve(*DEFAULT_SHAPE), Curve(*DEFAULT_HARD), 0
    return shape, hard, len(rows)


def best_excess_z(moves: int, best: int, capped: float, capped_squares: float,
                  curve: Curve) -> tuple[float, float]:
    """How many standard deviations more best moves than an honest player with this
    capped error rate finds (``curve``), and that player's expected best share. The
    standard deviation is the moves' own: of each move's ``best - f' · loss``, ``f'``
    the slope of the expected share in the rate (the rate is measured on the same
    moves, so its error is counted too)."""
    if moves == 0:
        return 0.0, 0.0
    rate = capped / moves
    y, slope = curve.at(_strength(capped, moves))
    p = _expit(y)
    # d p / d rate: the curve's x is -ln(rate + floor).
    dp = -p * (1.0 - p) * slope / (rate + RATE_FLOOR)
    share = best / moves
    spread = max(capped_squares / moves - rate * rate, 0.0)
    # A best move loses nothing: the covariance of best and loss is -share·rate.
    variance = share * (1 - share) + dp * dp * spread + 2 * dp * share * rate
    variance = max(variance, p * (1 - p) * 0.05) / moves
    return (share - p) / math.sqrt(variance), p


def hard_excess_z(hard: int, hard_best: int, easy: int, easy_capped: float,
                  easy_capped_squares: float, curve: Curve) -> tuple[float, float]:
    """How many standard deviations more best moves in hard positions than an honest
    player with this capped error rate in easy positions finds (``curve``), and that
    player's expected share; 0 below :data:`MIN_HARD_MOVES` hard positions."""
    if hard < MIN_HARD_MOVES or easy == 0:
        return 0.0, 0.0
    rate = easy_capped / easy
    y, slope = curve.at(_strength(easy_capped, easy))
    p = _expit(y)
    dp = -p * (1.0 - p) * slope / (rate + RATE_FLOOR)
    spread = max(easy_capped_squares / easy - rate * rate, 0.0)
    held = min(max(p, 0.02), 0.98)
    variance = held * (1 - held) / hard + dp * dp * spread / easy
    return (hard_best / hard - p) / math.sqrt(variance), p


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
    best = sum(g.best for g in games)
    hard = sum(g.hard for g in games)
    hard_loss = sum(g.hard_loss for g in games)
    hard_best = sum(g.hard_best for g in games)
    easy = sum(g.easy for g in games)
    easy_loss = sum(g.easy_loss for g in games)
    expected = the_fit.expected(rating)
    overall = 1.0 - _shrunk(loss, moves, expected) / expected
    shape_z, expected_best = best_excess_z(
        moves, best, sum(g.capped for g in games), sum(g.capped_squares for g in games),
        the_fit.shape)
    hard_z, expected_hard_best = hard_excess_z(
        hard, hard_best, easy, sum(g.easy_capped for g in games),
        sum(g.easy_capped_squares for g in games), the_fit.hard)
    score = max(0.0, min(100.0, max(100.0 * overall, Z_POINTS * shape_z,
                                    Z_POINTS * hard_z)))
    weighty = sorted((w for g in games for w in g.weighty), key=lambda w: -w["gap"])
    return {
        "games": len(games), "moves": moves, "rating": round(rating, 1),
        "error_rate": round(loss / moves, 5) if moves else None,
        "expected_error_rate": round(expected, 5),
        "better_than_expected": round(overall, 4),
        "best_share": round(best / moves, 4) if moves else None,
        "expected_best_share": round(expected_best, 4),
        "best_excess_z": round(shape_z, 2),
        "hard_moves": hard,
        "hard_error_rate": round(hard_loss / hard, 5) if hard else None,
        "hard_best_share": round(hard_best / hard, 4) if hard else None,
        "easy_error_rate": round(easy_loss / easy, 5) if easy else None,
        "easy_best_share": round((best - hard_best) / easy, 4) if easy else None,
        "expected_hard_best_share": round(expected_hard_best, 4),
        "hard_excess_z": round(hard_z, 2),
        "time_vs_difficulty": _rounded(_correlation([p for g in games for p in g.timed])),
        "trend": [round(g.error_rate, 5) for g in games],
        "score": round(score, 1),
        "positions": weighty[:TOP_POSITIONS],
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
