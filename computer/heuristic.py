"""The ``heuristic`` level: a hand-written evaluation of each complete play.

Every legal play's resulting position is scored from the mover's side, in pips (one
pip = one point of the race), and the highest score is played. The terms
(docs/computer.md lists them with their weights):

- **race**: the opponent's pip count less the mover's (``nard``: distance to home);
- **borne off**: a bonus per checker borne off (bearing off beats moving inside home);
- **head** (Long Nardy): a penalty per checker still on the head (own point 24);
- **blocks**: each own point the opponent still has to pass (Long Nardy: one checker
  blocks, R6; hitting games: two, H7), more for a point within six in front of the
  opponent's rearmost checker, and a bonus growing with the square of the longest
  run of such points (a prime);
- **stacks**: a penalty per checker beyond three on one point (outside the head);
- **blots** (hitting games): for each single own checker, the chance that the
  opponent's checkers behind it hit it (11/36 for each one within 6, 5/36 within 7-12,
  combined as independent chances) times what being hit costs (its pips to come back
  plus a tempo);
- **hits** (hitting games): a bonus per opposing checker on the bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nardy import BoardPosition, Side, descriptor_of

from .board import POINTS, Boards, FloatArray, IntArray, Profile, boards, pips, profile


@dataclass(frozen=True)
class Weights:
    """The heuristic's weights, in pips."""

    off: float = 2.0
    head: float = 4.0
    block: float = 1.0
    block_near: float = 1.5
    prime: float = 1.5
    stack: float = 0.6
    blot: float = 1.0
    blot_tempo: float = 6.0
    hit: float = 4.0


WEIGHTS = Weights()

_DISTANCE = np.arange(1, POINTS + 1)
_TO_HOME = np.maximum(_DISTANCE - 6, 0)
# By the profile's numbering, Long Nardy's (R2: my point p is the opponent's p +- 12) or
# the hitting games' (H1: 25 - p): _THEIR_TO_MINE[numbering][r - 1] is the index of my
# point that is the opponent's point r.
_THEIR_TO_MINE = {
    "rotated": np.array([(r + 12 if r <= 12 else r - 12) - 1 for r in range(1, 25)]),
    "mirrored": np.array([24 - r for r in range(1, 25)]),
}


def scores(rules: str, b: Boards, w: Weights = WEIGHTS) -> FloatArray:
    """The heuristic score of each row of ``b`` (positions seen by the side that just
    moved; higher is better for it). What the rule set has (bearing off, a head rule,
    hitting) is its descriptor's."""
    facts = descriptor_of(rules)
    prof = profile(rules)
    mine, theirs = b.mine, b.theirs
    if facts.bears_off:
        my_pips, their_pips = pips(b)
    else:  # no bearing off: the race is to bring all 15 home (H13)
        my_pips = mine @ _TO_HOME + 19 * b.bar[:, 0]
        their_pips = theirs @ _TO_HOME + 19 * b.bar[:, 1]
    score = (their_pips - my_pips).astype(np.float64)
    score += w.off * b.off[:, 0]
    if facts.head:
        score -= w.head * mine[:, POINTS - 1]
        stacked = mine[:, : POINTS - 1]
    else:
        stacked = mine
    score -= w.stack * np.maximum(stacked - 3, 0).sum(axis=1)

    relevant, near, longest = blocks(b, prof)
    score += w.block * relevant + w.block_near * near
    score += w.prime * np.maximum(longest - 1, 0) ** 2

    if facts.hits:
        score -= w.blot * _blot_risk(b, w)
        score += w.hit * b.bar[:, 1]
    return score


def blocks(b: Boards, prof: Profile) -> tuple[IntArray, IntArray, IntArray]:
    """Per row, the mover's points the opponent still has to pass (Long Nardy: one
    checker blocks, R6; hitting games: two, H7): how many, how many of them within six
    in front of the opponent's rearmost checker, and the longest run of them."""
    need = 2 if prof.hits else 1
    to_mine = _THEIR_TO_MINE[prof.numbering]
    blocked = b.mine[:, to_mine] >= need  # in the opponent's numbering
    occupied = b.theirs > 0
    # The opponent's rearmost checker: 25 from the bar, else its highest occupied point.
    rear = np.where(occupied.any(axis=1), POINTS - np.argmax(occupied[:, ::-1], axis=1), 0)
    rear = np.where(b.bar[:, 1] > 0, 25, rear)
    ahead = _DISTANCE[None, :] < rear[:, None]
    near = ahead & (_DISTANCE[None, :] >= rear[:, None] - 6)
    relevant = blocked & ahead
    run = np.zeros(len(b), dtype=np.int64)
    longest = np.zeros(len(b), dtype=np.int64)
    for r in range(POINTS):
        run = np.where(relevant[:, r], run + 1, 0)
        longest = np.maximum(longest, run)
    return relevant.sum(axis=1), (blocked & near).sum(axis=1), longest


def _blot_risk(b: Boards, w: Weights) -> FloatArray:
    """Expected pips lost to hits on the mover's blots at the opponent's next roll."""
    # The opponent's checkers in my numbering: their point q is my 25 - q; the bar is my 0.
    shooters = np.zeros((len(b), POINTS + 1), dtype=bool)
    shooters[:, 1:] = b.theirs[:, ::-1] > 0
    shooters[:, 0] = b.bar[:, 1] > 0
    miss = np.ones((len(b), POINTS), dtype=np.float64)  # chance each point is not hit
    for d in range(1, 13):
        hit = 11 / 36 if d <= 6 else 5 / 36
        # my point p (index p - 1) is hit from my point p - d (index p - d in shooters)
        source = np.zeros((len(b), POINTS), dtype=bool)
        source[:, d - 1:] = shooters[:, : POINTS + 1 - d]
        miss *= np.where(source, 1.0 - hit, 1.0)
    blots = b.mine == 1
    cost = 25 - _DISTANCE + w.blot_tempo
    risk: FloatArray = ((1.0 - miss) * blots * cost[None, :]).sum(axis=1)
    return risk


def best_index(rules: str, positions: Sequence[BoardPosition], me: Side) -> int:
    """Index of the best of ``positions`` (results of ``me``'s plays) by the heuristic;
    the first of equal scores."""
    return int(np.argmax(scores(rules, boards(rules, positions, me))))
