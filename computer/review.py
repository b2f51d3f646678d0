"""Game review (issue 24): how well each side played a finished game, turn by turn.

NumPy and the engine only, no Django. Given a rule set, a game's turns (the position
before each turn, the side, the dice, the first-turn flag, the steps played: the
engine's values) and a depth (0, 1 or 2 plies, :class:`~computer.search.Evaluator`),
:func:`review_game` answers per turn:

- the **equity** of the play made and of the best plays (up to :data:`TOP` with their
  steps), the **equity lost** and a **mark** (:data:`MARKS`, thresholds
  :data:`THRESHOLDS`, the same for every rule set);
- forced turns (one legal play) and passes are marked ``forced`` / ``pass`` and left
  out of the rates;
- the **luck** of the roll;
- the stake decisions the game had (offer / no offer, accept / refuse).

**The convention.** Equity is *cubeless points per game per unit of the current stake,
for the side to move* (:func:`~computer.network.equity`: ``2 P(win) - 1`` plus the
mars/gammon and koks/backgammon terms; with ``mars=False`` (``dave`` stakes, S6) every
win is one point). It is money play: the match score is not looked at. In matches the
match-winning chance can be read through :func:`match_equity_table` (whose inputs,
each rule set's single/double/triple win frequencies, are the caller's).

**Depth.** Every legal play is valued at 0-ply; at depth 1 or 2 the best
:data:`DEEP` by 0-ply, and the play made, are valued again at that depth, so the play
made and the ones it is compared with are always valued alike. The listed best plays
are those valued deepest.

**Luck** of a roll is valued at 0-ply whatever the depth (as gnubg's default): the
equity after the best play for the roll made minus the average, over the 21 rolls
(a double 1/36, the others 2/36), of the equity after each roll's best play. A side's
luck is the sum over its turns; the luck-adjusted result is White's result (points
won per unit of stake, negative when Black won) minus White's luck plus Black's.

**Rates.** A side's error rate is its mean equity lost per non-forced decision (its
moves and its stake decisions); the performance rating is that times 500 (the scale
backgammon players know from Backgammon Galaxy and gnubg: lower is better).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from nardy import SIDE_NAMES, BoardPosition, Side, Step

from . import stakes
from .board import ruleset
from .levels import load_net
from .network import Net, equity, flip
from .search import Evaluator, gc_paused

TOP = 5
"""How many of the best plays a turn's review lists."""

DEEP = 6
"""At depth 1 or 2, how many of the best plays by 0-ply are valued at that depth
(with the play made)."""

DEPTHS = (0, 1, 2)

MARKS = ("inaccuracy", "mistake", "blunder")

THRESHOLDS: tuple[float, float, float] = (0.04, 0.08, 0.16)
"""Equity lost (points per game) from which a decision is an inaccuracy, a mistake, a
blunder — gnubg's "doubtful / bad / very bad" steps, the same for every rule set: all
score a game 1 to 3 points, so an equity point means the same in each."""

Kind = Literal["move", "forced", "pass"]


@dataclass(frozen=True)
class TurnInput:
    """One turn of a game as played: the engine's values."""

    position: BoardPosition
    side: Side
    dice: tuple[int, int]
    first_turn: bool
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class StakeInput:
    """A stake decision before turn ``before_turn`` (1-based; ``position`` is that turn's,
    ``by`` about to roll). ``offered``: whether ``by`` offered the raise ``stake`` →
    ``next_stake``; ``accepted``: the opponent's answer (``None`` if not offered)."""

    before_turn: int
    position: BoardPosition
    by: Side
    first_turn: bool
    stake: int
    next_stake: int
    offered: bool
    accepted: bool | None = None


@dataclass
class PlayValue:
    steps: tuple[Step, ...]
    equity: float
    plies: int


@dataclass
class TurnReview:
    number: int
    side: Side
    dice: tuple[int, int]
    kind: Kind
    played: PlayValue
    best: list[PlayValue]
    loss: float
    mark: str | None
    luck: float


@dataclass
class StakeReview:
    before_turn: int
    question: Literal["offer", "accept"]
    side: Side
    chose: str
    equities: dict[str, float]
    right: str
    loss: float
    mark: str | None


@dataclass
class SideSummary:
    decisions: int = 0
    loss: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    luck: float = 0.0

    @property
    def error_rate(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def rating(self) -> float:
        return 500.0 * self.error_rate


@dataclass
class GameReview:
    rules: str
    depth: int
    turns: list[TurnReview]
    stakes: list[StakeReview]
    sides: tuple[SideSummary, SideSummary]
    result: float
    luck_adjusted: float

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (steps in the engine's notation)."""

        def play(p: PlayValue) -> dict[str, Any]:
            return {"steps": [str(s) for s in p.steps], "equity": round(p.equity, 4),
                    "plies": p.plies}

        return {
            "rules": self.rules, "depth": self.depth,
            "result": round(self.result, 4), "luck_adjusted": round(self.luck_adjusted, 4),
            "sides": [{"decisions": s.decisions, "loss": round(s.loss, 4),
                       "error_rate": round(s.error_rate, 5), "rating": round(s.rating, 2),
                       "marks": dict(s.marks), "luck": round(s.luck, 4)}
                      for s in self.sides],
            "turns": [{"number": t.number, "side": SIDE_NAMES[t.side], "dice": list(t.dice),
                       "kind": t.kind, "played": play(t.played),
                       "best": [play(b) for b in t.best], "loss": round(t.loss, 4),
                       "mark": t.mark, "luck": round(t.luck, 4)} for t in self.turns],
            "stakes": [{"before_turn": s.before_turn, "question": s.question,
                        "side": SIDE_NAMES[s.side], "chose": s.chose,
                        "equities": {k: round(v, 4) for k, v in s.equities.items()},
                        "right": s.right, "loss": round(s.loss, 4), "mark": s.mark}
                       for s in self.stakes],
        }


class ReviewError(ValueError):
    """The turns do not replay: a play is not legal where it is recorded."""


def mark_for(rules: str, loss: float) -> str | None:
    """The mark of a decision that lost ``loss`` (``None``: fine)."""
    found = None
    for name, threshold in zip(MARKS, THRESHOLDS, strict=True):
        if loss >= threshold - 1e-9:
            found = name
    return found


class Reviewer:
    """Reviews turns of one rule set at one depth with one network."""

    def __init__(self, rules: str, depth: int, net: Net | None = None,
                 mars: bool = True) -> None:
        if depth not in DEPTHS:
            raise ValueError(f"depth must be one of {DEPTHS}, not {depth!r}")
        self.rules = rules
        self.depth = depth
        self.mars = mars
        self.rs = ruleset(rules)
        self.ev = Evaluator(rules, net if net is not None else load_net(rules))

    def _deep(self, positions: Sequence[BoardPosition], me: Side) -> np.ndarray:
        if self.depth == 0:
            return self.ev.static(positions, me)
        if self.depth == 1:
            return self.ev.one_ply(positions, me)
        return self.ev.two_ply(positions, me)

    def turn(self, number: int, t: TurnInput) -> TurnReview:
        plays = self.rs.legal_plays(t.position, t.side, t.dice, t.first_turn)
        played_at = self._find(plays, t)
        if len(plays) == 1:
            kind: Kind = "pass" if not plays[0].steps else "forced"
            only = float(equity(self.ev.static([plays[0].position], t.side), self.mars)[0])
            luck = only - self._average(t)
            self.ev.clear()
            value = PlayValue(plays[0].steps, only, 0)
            return TurnReview(number, t.side, t.dice, kind, value, [value], 0.0, None, luck)
        with gc_paused():
            try:
                positions = [p.position for p in plays]
                static = equity(self.ev.static(positions, t.side), self.mars)
                luck = float(np.max(static)) - self._average(t)
                order = [int(i) for i in np.argsort(-static, kind="stable")]
                deep = order[:DEEP] if self.depth else order[:TOP]
                if played_at not in deep:
                    deep.append(played_at)
                values = equity(self._deep([positions[i] for i in deep], t.side), self.mars)
            finally:
                self.ev.clear()
        valued = sorted(zip(deep, (float(v) for v in values), strict=True),
                        key=lambda iv: -iv[1])
        by_index = dict(valued)
        played = PlayValue(plays[played_at].steps, by_index[played_at], self.depth)
        best = [PlayValue(plays[i].steps, v, self.depth) for i, v in valued[:TOP]]
        loss = max(0.0, best[0].equity - played.equity)
        return TurnReview(number, t.side, t.dice, "move", played, best, loss,
                          mark_for(self.rules, loss), luck)

    def _find(self, plays: Sequence[Any], t: TurnInput) -> int:
        for i, p in enumerate(plays):
            if p.steps == t.steps:
                return i
        try:
            after = self.rs.start_turn(t.position, t.side, t.dice, t.first_turn
                                       ).apply_all(t.steps).position
        except ValueError as error:
            raise ReviewError(f"the play {' '.join(map(str, t.steps)) or '-'} is not "
                              f"legal: {error}") from None
        for i, p in enumerate(plays):
            if p.position == after:
                return i
        raise ReviewError(f"the play {' '.join(map(str, t.steps)) or '-'} is not a "
                          "complete legal play")

    def _average(self, t: TurnInput) -> float:
        """The 0-ply equity of ``t.side`` about to roll, averaged over the 21 rolls."""
        return float(equity(self.ev.to_roll(t.position, t.side, t.first_turn, plies=1),
                            self.mars))

    def stake(self, s: StakeInput) -> list[StakeReview]:
        """The offer decision, and the answer if there was an offer. Equities are in
        units of the current stake, cubeless (docs: the value of the right to raise is
        not counted, so the offer rule of :mod:`computer.stakes` is the reference)."""
        plies = min(self.depth, 1)
        own = self.ev.to_roll(s.position, s.by, s.first_turn, plies)
        self.ev.clear()
        e = float(stakes.game_equity(list(own), self.mars))
        k = s.next_stake / s.stake
        offer_value = min(k * e, 1.0)  # the opponent answers as suits them
        equities = {"offer": offer_value, "no_offer": e}
        right = "offer" if stakes.should_offer(list(own), s.stake, s.next_stake,
                                               self.mars) else "no_offer"
        chose = "offer" if s.offered else "no_offer"
        loss = max(0.0, equities[right] - equities[chose])
        out = [StakeReview(s.before_turn, "offer", s.by, chose, equities, right, loss,
                           mark_for(self.rules, loss))]
        if s.offered and s.accepted is not None:
            mine = flip(np.asarray(own))
            ea = float(stakes.game_equity(list(mine), self.mars))
            answers = {"accept": k * ea, "refuse": -1.0}
            right_answer = "accept" if stakes.should_accept(list(mine), s.stake,
                                                            s.next_stake, self.mars) else "refuse"
            chose_answer = "accept" if s.accepted else "refuse"
            lost = max(0.0, answers[right_answer] - answers[chose_answer])
            out.append(StakeReview(s.before_turn, "accept", 1 - s.by, chose_answer, answers,
                                   right_answer, lost, mark_for(self.rules, lost)))
        return out


def review_game(rules: str, turns: Sequence[TurnInput], depth: int, *,
                stake_decisions: Sequence[StakeInput] = (), result: float = 0.0,
                mars: bool = True, net: Net | None = None,
                progress: Any = None) -> GameReview:
    """The review of one game (module docstring). ``result``: White's points from the
    game per unit of stake (negative: Black won). ``progress(done, total)`` is called
    after each turn. Raises :class:`ReviewError` when a play does not replay: no
    partial review."""
    reviewer = Reviewer(rules, depth, net, mars)
    sides = (SideSummary(), SideSummary())
    reviews: list[TurnReview] = []
    for number, t in enumerate(turns, start=1):
        r = reviewer.turn(number, t)
        reviews.append(r)
        side = sides[r.side]
        side.luck += r.luck
        if r.kind == "move":
            side.decisions += 1
            side.loss += r.loss
            if r.mark:
                side.marks[r.mark] += 1
        if progress is not None:
            progress(number, len(turns))
    stake_reviews: list[StakeReview] = []
    for s in stake_decisions:
        for sr in reviewer.stake(s):
            stake_reviews.append(sr)
            side = sides[sr.side]
            side.decisions += 1
            side.loss += sr.loss
            if sr.mark:
                side.marks[sr.mark] += 1
    adjusted = result - sides[0].luck + sides[1].luck
    return GameReview(rules, depth, reviews, stake_reviews, sides, result, adjusted)


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
