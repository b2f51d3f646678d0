"""What the computer plays for: the worth of a game's outcomes at the match score.

The network estimates five chances for the side that has just moved
(:data:`~computer.network.OUTPUTS`: win, win by 2+, win by 3, loss by 2+, loss by 3).
Money play values them by **equity**, the expected points per unit of stake
(:func:`~computer.network.equity`). In a match what counts is the chance of winning the
match (**MWC**): each outcome is worth the match equity of the score it leads to
(:class:`MatchEquity`, from the rule set's measured :data:`WIN_FREQUENCIES`), so a
mars or a gammon is worth what the extra points do for the match — nothing in a 1-point
match, or when a single win at the stake already ends it for both; with ``dave`` stakes
(S6) no win scores more than one. The match equity is the same the game review reports
(:mod:`computer.review`).

An :class:`Objective` is that worth as an affine function of the five chances, one per
side, scaled so that a single win is worth 2 more than a single loss — money equity's
scale, so the search's filter margins (:data:`computer.search.EXPERT_FILTERS`) mean the
same at every score. Money play with marses is ``None`` (the search's plain equity).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nardy import Side

from .board import FloatArray


def match_equity_table(length: int, wins: Mapping[int, float]) -> list[list[float]]:
    """``table[a][b]``: the chance of winning the match of the side needing ``a`` points
    while the opponent needs ``b`` (0..``length``), between equal players, cubeless and
    without the Crawford rule: each game is won by either side with equal chance, and a
    win scores ``k`` points with frequency ``wins[k]`` (the frequencies sum to 1; each
    rule set's are measured from the computer's self-play). ``table[0][b>0] = 1``,
    ``table[a>0][0] = 0``."""
    total = sum(wins.values())
    if abs(total - 1.0) > 1e-6 or any(v < 0 for v in wins.values()):
        raise ValueError("the win frequencies must be non-negative and sum to 1")
    table = [[0.5] * (length + 1) for _ in range(length + 1)]
    for a in range(length + 1):
        for b in range(length + 1):
            if a == 0 and b == 0:
                continue
            if a == 0:
                table[a][b] = 1.0
            elif b == 0:
                table[a][b] = 0.0
            else:
                table[a][b] = sum(
                    f / 2 * (table[max(a - k, 0)][b] + table[a][max(b - k, 0)])
                    for k, f in wins.items())
    return table


WIN_FREQUENCIES: dict[str, dict[int, float]] = {
    rules: {int(k): float(v) for k, v in wins.items()}
    for rules, wins in json.loads((Path(__file__).parent / "weights" / "win_frequencies.json")
                                  .read_text(encoding="utf-8")).items()}
"""How often a game is won by 1, 2 or 3 points, measured from the ``network`` level's
self-play, cubeless, seed 24 (docs/computer.md, "Game review"): 1000 games each, 697
of ``nard``; the figures are data, ``weights/win_frequencies.json``)."""


def match_equity_table_for(rules: str, length: int) -> list[list[float]]:
    """:func:`match_equity_table` with ``rules``'s :data:`WIN_FREQUENCIES`."""
    return match_equity_table(length, WIN_FREQUENCIES[rules])


class MatchEquity:
    """A rule set's match equity: the chance of winning the match of the side needing
    ``a`` points while the opponent needs ``b``, between equal players, each game won
    by either side with equal chance and by ``k`` points with frequency ``wins[k]``.

    Without ``crawford`` every game is played at stake 1: :func:`match_equity_table`.
    With ``crawford`` (a match with stakes, S7): the game after a side first needs 1
    point is the Crawford game (no offers: stake 1); in each later game the trailer
    raises at once and the leader accepts (stake 2) unless both need 1 — the usual
    post-Crawford play. Other stake decisions are not modelled (the table is cubeless
    before the Crawford game)."""

    def __init__(self, wins: Mapping[int, float], crawford: bool = False) -> None:
        total = sum(wins.values())
        if abs(total - 1.0) > 1e-6 or any(v < 0 for v in wins.values()):
            raise ValueError("the win frequencies must be non-negative and sum to 1")
        self.wins = dict(wins)
        self.crawford = crawford
        self._memo: dict[tuple[int, int, bool], float] = {}

    def value(self, a: int, b: int, after_crawford: bool = False) -> float:
        """The chance of the side needing ``a`` (``<= 0``: won) against ``b``, the next
        game to play being after the Crawford game if ``after_crawford``."""
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        key = (a, b, after_crawford and self.crawford)
        found = self._memo.get(key)
        if found is not None:
            return found
        stake, later = 1, False
        if self.crawford and key[2]:
            stake, later = (2 if max(a, b) > 1 else 1), True
        elif self.crawford and min(a, b) == 1:
            later = True  # this is the Crawford game: no offers
        v = sum(f / 2 * (self.value(a - k * stake, b, later) + self.value(a, b - k * stake, later))
                for k, f in self.wins.items())
        self._memo[key] = v
        return v

    def weights(self, a: int, b: int, stake: int, after_crawford: bool,
                mars: bool = True) -> np.ndarray:
        """``w`` such that the MWC of the side needing ``a`` (against ``b``) in a game at
        ``stake`` is ``w[0] + w[1:] @ p`` for the network's five outputs ``p`` (win,
        win by 2+, win by 3, loss by 2+, loss by 3: :data:`computer.network.OUTPUTS`)."""
        win = [self.value(a - k * stake, b, after_crawford) for k in (1, 2, 3)]
        lose = [self.value(a, b - k * stake, after_crawford) for k in (1, 2, 3)]
        if not mars:
            return np.array([lose[0], win[0] - lose[0], 0.0, 0.0, 0.0, 0.0])
        return np.array([lose[0], win[0] - lose[0], win[1] - win[0], win[2] - win[1],
                         lose[1] - lose[0], lose[2] - lose[1]])


MONEY: FloatArray = np.array([-1.0, 2.0, 1.0, 1.0, -1.0, -1.0])
"""Money equity's weights: ``-1 + 2 win + win_2 + win_3 - lose_2 - lose_3``."""

WINS_ONLY: FloatArray = np.array([-1.0, 2.0, 0.0, 0.0, 0.0, 0.0])
"""Every win worth one: ``2 win - 1`` (``dave``, S6; a 1-point match)."""


def opponents_weights(weights: FloatArray) -> FloatArray:
    """The weights of the opponent's objective in a zero-sum game: its value of the
    chances ``q`` seen from its side is minus ours of the same chances seen from ours
    (``flip(q) = (1 - q0, q3, q4, q1, q2)``; the constant makes the two add up to 0)."""
    w = np.asarray(weights, dtype=float)
    return np.array([-(w[0] + w[1]), w[1], -w[4], -w[5], -w[2], -w[3]])


@dataclass(frozen=True)
class Objective:
    """What each side maximises: ``weights[side][0] + weights[side][1:] @ p`` for the
    chances ``p`` seen from ``side`` (who has just moved). Build one with
    :meth:`for_side`, which gives the opponent the zero-sum mirror."""

    weights: tuple[FloatArray, FloatArray]

    @classmethod
    def for_side(cls, side: Side, weights: FloatArray) -> Objective:
        mine = np.asarray(weights, dtype=float)
        theirs = opponents_weights(mine)
        return cls((mine, theirs) if side == 0 else (theirs, mine))

    def value(self, probs: FloatArray, side: Side) -> FloatArray:
        """The objective of ``side`` for each row of ``probs`` (from ``side``'s view)."""
        w = self.weights[side]
        result: FloatArray = probs @ w[1:] + w[0]
        return result


def scaled(weights: FloatArray) -> FloatArray:
    """``weights`` (an MWC's) moved and scaled to equity's scale: a single loss -1, a
    single win +1. Unchanged when a single win is not worth more than a single loss
    (a match already over)."""
    w: FloatArray = np.asarray(weights, dtype=float)
    half = float(w[1]) / 2.0
    if half <= 1e-12:
        return w
    out: FloatArray = w / half
    out[0] = -1.0
    return out


def match_objective(rules: str, side: Side, *, length: int, own: int, opponent: int,
                    stake: int = 1, mars: bool = True, crawford: bool = False,
                    after_crawford: bool = False) -> Objective | None:
    """What ``side`` plays for in a game of a match to ``length`` where it has ``own``
    points and the opponent ``opponent``, at ``stake``: the match-winning chance
    (:meth:`MatchEquity.weights`, the rule set's :data:`WIN_FREQUENCIES`; with
    ``mars=False`` every win one point), on equity's scale (:func:`scaled`).
    ``crawford``: the match has stakes (S7); ``after_crawford``: this game is the
    Crawford game or a later one. Money play for a match of no length, or a rule set
    without measured win frequencies (``None`` with marses)."""
    if length < 1 or (mars and rules not in WIN_FREQUENCIES):
        return money_objective(side, mars)
    need, their_need = max(length - own, 1), max(length - opponent, 1)
    met = MatchEquity(WIN_FREQUENCIES[rules] if mars else {1: 1.0}, crawford)
    weights = met.weights(need, their_need, max(stake, 1), after_crawford, mars)
    return Objective.for_side(side, scaled(weights))


def money_objective(side: Side, mars: bool = True) -> Objective | None:
    """Money play: ``None`` with marses (the search's plain equity), else every win one
    point (:data:`WINS_ONLY`)."""
    return None if mars else Objective.for_side(side, WINS_ONLY)
