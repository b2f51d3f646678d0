"""Game review: how well each side played a finished game, turn by turn.

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

**The engine.** Backgammon is reviewed by the field engine (:mod:`computer.field`,
Open Sage) where it can be imported, everything else (and backgammon without it) by the
project's own network (:func:`review_engine`); the review says which
(:attr:`GameReview.engine`). The plays are the project's engine's either way; by the
field engine every estimate (plays, luck) is Open Sage's at the same depths, counted
as GNU Backgammon counts plies, and the stake decisions are its cube analysis
(:meth:`Reviewer.stake`).

**The convention.** Equity is *cubeless points per game per unit of the current stake,
for the side to move* (:func:`~computer.network.equity`: ``2 P(win) - 1`` plus the
mars/gammon and koks/backgammon terms; with ``mars=False`` (``dave`` stakes, S6) every
win is one point). Equity, the marks, the rates and the ratings are money play: the
match score is not looked at.

**Match-winning chance.** In a game of a match longer than 1 point (a
:class:`MatchContext`), each valued play also gets its **MWC**: the chance that the side
to move wins the match, ``sum over the six outcomes (a single/double/triple win or loss)
of P(outcome) * MET[the points each side needs after it]``, with the outcomes' chances
from the same network estimates the equity is read from, each outcome's points times
the game's current stake, and MET the rule set's :class:`MatchEquity` (its
:data:`WIN_FREQUENCIES`; with ``mars=False`` every win is one point). A turn's
``mwc_lost`` is the best MWC among the plays valued at depth minus the play made's (never
negative); a side's is the sum over its moves. Stake decisions get no MWC. A 1-point
match's MWC is the game's win chance, so it is left out (``None``). The marks stay on
equity lost: MWC thresholds would need a scale per score that is not measured.

**Depth.** Every legal play is valued at 0-ply; at depth 1 or 2 the best
:data:`DEEP` by 0-ply, and the play made, are valued again at that depth, so the play
made and the ones it is compared with are always valued alike. The listed best plays
are those valued deepest. The 2-ply is the ``expert``'s: reduced in the rule sets of
:data:`computer.levels.REDUCED` (all but backgammon: its last ply over a third of the
rolls, :data:`computer.search.ROLL_GROUPS`), so a review judges the plays by the search
the computer plays with.

**Luck** of a roll is valued at 0-ply whatever the depth (as gnubg's default): the
equity after the best play for the roll made minus the average, over the 21 rolls
(a double 1/36, the others 2/36), of the equity after each roll's best play. A side's
luck is the sum over its turns; the luck-adjusted result is White's result (points
won per unit of stake, negative when Black won) minus White's luck plus Black's.

**Rates.** A side's error rate is its mean equity lost per non-forced decision (its
moves and its stake decisions); the performance rating is that times 500 (the scale
backgammon players know from Backgammon Galaxy and gnubg: lower is better). Reviewed by
the field engine, that rating is the "PR" on the field's scale (``pr`` in
:meth:`GameReview.as_dict`; ``None`` when the network reviewed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from nardy import BACKGAMMON_RULES, SIDE_NAMES, BoardPosition, Side, Step

from . import field as field_engine
from . import stakes
from .board import ruleset
from .levels import REDUCED
from .network import Net, equity, flip
from .score import (  # noqa: F401 (the review's names before computer.score)
    WIN_FREQUENCIES,
    MatchEquity,
    match_equity_table,
    match_equity_table_for,
)
from .search import ROLLS, Evaluator, gc_paused
from .weights_io import load_net

TOP = 5
"""How many of the best plays a turn's review lists."""

DEEP = 6
"""At depth 1 or 2, how many of the best plays by 0-ply are valued at that depth
(with the play made)."""

DEPTHS = (0, 1, 2)

ENGINES = ("field", "network")
"""Who values the plays: the field engine (:mod:`computer.field`, backgammon only) or
the project's own network."""

FIELD_RULES = frozenset({BACKGAMMON_RULES.name})
"""The rule sets the field engine reviews when it is available."""


def review_engine(rules: str, engine: str | None = None) -> str:
    """Who reviews a game of ``rules``: ``engine`` if given (``field`` only where it can:
    ``ValueError`` otherwise), else the field engine for :data:`FIELD_RULES` when it is
    :func:`computer.field.available`, else the project's network."""
    if engine is None:
        return "field" if rules in FIELD_RULES and field_engine.available() else "network"
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
    if engine == "field" and (rules not in FIELD_RULES or not field_engine.available()):
        raise ValueError(f"the field engine cannot review {rules} here")
    return engine

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
    stake: int = 1
    """The game's stake during the turn (S1): a match's outcome points are times it."""


@dataclass(frozen=True)
class MatchContext:
    """The match a game is played in, as the game starts: ``need`` — the points White
    and Black still need (the length minus each one's score before the game);
    ``crawford`` — the match has stakes, so S7's Crawford game applies;
    ``after_crawford`` — this game is the Crawford game or a later one."""

    length: int
    need: tuple[int, int]
    crawford: bool = False
    after_crawford: bool = False


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
    mwc: float | None = None


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
    best_mwc: float | None = None
    mwc_lost: float | None = None


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
    mwc_lost: float | None = None

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
    match: MatchContext | None = None
    engine: str = "network"
    """Who valued the plays (:data:`ENGINES`)."""

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (steps in the engine's notation)."""

        def play(p: PlayValue) -> dict[str, Any]:
            return {"steps": [str(s) for s in p.steps], "equity": round(p.equity, 4),
                    "plies": p.plies, "mwc": _round(p.mwc, 5)}

        m = self.match
        field_scale = self.engine == "field"
        return {
            "rules": self.rules, "depth": self.depth, "engine": self.engine,
            "result": round(self.result, 4), "luck_adjusted": round(self.luck_adjusted, 4),
            "match": None if m is None else {
                "length": m.length, "need": list(m.need), "crawford": m.crawford,
                "after_crawford": m.after_crawford},
            "sides": [{"decisions": s.decisions, "loss": round(s.loss, 4),
                       "error_rate": round(s.error_rate, 5), "rating": round(s.rating, 2),
                       "pr": round(s.rating, 2) if field_scale else None,
                       "marks": dict(s.marks), "luck": round(s.luck, 4),
                       "mwc_lost": _round(s.mwc_lost, 5)}
                      for s in self.sides],
            "turns": [{"number": t.number, "side": SIDE_NAMES[t.side], "dice": list(t.dice),
                       "kind": t.kind, "played": play(t.played),
                       "best": [play(b) for b in t.best], "loss": round(t.loss, 4),
                       "mark": t.mark, "luck": round(t.luck, 4),
                       "best_mwc": _round(t.best_mwc, 5), "mwc_lost": _round(t.mwc_lost, 5)}
                      for t in self.turns],
            "stakes": [{"before_turn": s.before_turn, "question": s.question,
                        "side": SIDE_NAMES[s.side], "chose": s.chose,
                        "equities": {k: round(v, 4) for k, v in s.equities.items()},
                        "right": s.right, "loss": round(s.loss, 4), "mark": s.mark}
                       for s in self.stakes],
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


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
    """Reviews turns of one rule set at one depth with one engine (:func:`review_engine`;
    ``net`` gives the project's network another set of weights)."""

    def __init__(self, rules: str, depth: int, net: Net | None = None,
                 mars: bool = True, match: MatchContext | None = None,
                 engine: str | None = None) -> None:
        if depth not in DEPTHS:
            raise ValueError(f"depth must be one of {DEPTHS}, not {depth!r}")
        self.rules = rules
        self.depth = depth
        self.mars = mars
        self.rs = ruleset(rules)
        self.engine = review_engine(rules, "network" if net is not None else engine)
        self.ev = (None if self.engine == "field" else
                   Evaluator(rules, net if net is not None else load_net(rules),
                             reduced=rules in REDUCED))
        self.match = match if match is not None and match.length > 1 else None
        self.met = (None if self.match is None else MatchEquity(
            WIN_FREQUENCIES[rules] if mars else {1: 1.0}, self.match.crawford))

    def _mwc(self, probs: np.ndarray, t: TurnInput) -> list[float] | None:
        """The MWC of ``t.side`` for each row of ``probs`` (module docstring)."""
        if self.match is None or self.met is None:
            return None
        need = self.match.need
        weights = self.met.weights(need[t.side], need[1 - t.side], t.stake,
                                   self.match.after_crawford, self.mars)
        return [float(v) for v in np.asarray(probs, dtype=float) @ weights[1:] + weights[0]]

    def _field(self, position: BoardPosition, plays: Sequence[Any], me: Side,
               plies: int) -> np.ndarray:
        """The field engine's estimates of every one of ``me``'s ``plays`` from
        ``position``, at ``plies``, from ``me``'s side."""
        probs = np.empty((len(plays), 5))
        for r in field_engine.rank_plays(position, me, plays, plies, keep=len(plays),
                                         margin=np.inf):
            probs[r.index] = r.probabilities
        return probs

    def _static(self, position: BoardPosition, plays: Sequence[Any], me: Side) -> np.ndarray:
        """0-ply estimates of the plays' results, from ``me``'s side."""
        if self.ev is None:
            return self._field(position, plays, me, 0)
        return self.ev.static([p.position for p in plays], me)

    def _deep(self, position: BoardPosition, plays: Sequence[Any], me: Side) -> np.ndarray:
        """The plays' results' estimates at the review's depth, from ``me``'s side."""
        if self.ev is None:
            return self._field(position, plays, me, self.depth)
        positions = [p.position for p in plays]
        if self.depth == 0:
            return self.ev.static(positions, me)
        if self.depth == 1:
            return self.ev.one_ply(positions, me)
        return self.ev.two_ply(positions, me)

    def _clear(self) -> None:
        if self.ev is not None:
            self.ev.clear()

    def turn(self, number: int, t: TurnInput) -> TurnReview:
        plays = self.rs.legal_plays(t.position, t.side, t.dice, t.first_turn)
        played_at = self._find(plays, t)
        if len(plays) == 1:
            kind: Kind = "pass" if not plays[0].steps else "forced"
            probs = self._static(t.position, plays, t.side)
            only = float(equity(probs, self.mars)[0])
            mwc = self._mwc(probs, t)
            luck = only - self._average(t)
            self._clear()
            value = PlayValue(plays[0].steps, only, 0, None if mwc is None else mwc[0])
            return TurnReview(number, t.side, t.dice, kind, value, [value], 0.0, None, luck,
                              value.mwc, None if mwc is None else 0.0)
        with gc_paused():
            try:
                static = equity(self._static(t.position, plays, t.side), self.mars)
                luck = float(np.max(static)) - self._average(t)
                order = [int(i) for i in np.argsort(-static, kind="stable")]
                deep = order[:DEEP] if self.depth else order[:TOP]
                if played_at not in deep:
                    deep.append(played_at)
                probs = self._deep(t.position, [plays[i] for i in deep], t.side)
                values = equity(probs, self.mars)
            finally:
                self._clear()
        mwcs = self._mwc(probs, t)
        mwc_of = {} if mwcs is None else dict(zip(deep, mwcs, strict=True))
        valued = sorted(zip(deep, (float(v) for v in values), strict=True),
                        key=lambda iv: -iv[1])
        by_index = dict(valued)
        played = PlayValue(plays[played_at].steps, by_index[played_at], self.depth,
                           mwc_of.get(played_at))
        best = [PlayValue(plays[i].steps, v, self.depth, mwc_of.get(i))
                for i, v in valued[:TOP]]
        loss = max(0.0, best[0].equity - played.equity)
        best_mwc = max(mwc_of.values()) if mwc_of else None
        mwc_lost = (None if best_mwc is None or played.mwc is None
                    else max(0.0, best_mwc - played.mwc))
        return TurnReview(number, t.side, t.dice, "move", played, best, loss,
                          mark_for(self.rules, loss), luck, best_mwc, mwc_lost)

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
        if self.ev is None:
            return float(equity(self._field_to_roll(t.position, t.side, t.first_turn),
                                self.mars))
        return float(equity(self.ev.to_roll(t.position, t.side, t.first_turn, plies=1),
                            self.mars))

    def _field_to_roll(self, position: BoardPosition, side: Side,
                       first_turn: bool) -> np.ndarray:
        """The field engine's estimates for ``side`` about to roll: over the 21 rolls,
        the 0-ply estimates after each roll's best play by 0-ply (a roll with no legal
        move leaves the position as it is)."""
        total = np.zeros(5)
        for dice, weight in ROLLS:
            plays = self.rs.legal_plays(position, side, dice, first_turn)
            probs = self._static(position, plays, side)
            total += weight * probs[int(np.argmax(equity(probs, self.mars)))]
        return total

    def stake(self, s: StakeInput) -> list[StakeReview]:
        """The offer decision, and the answer if there was an offer. Equities are in
        units of the current stake, cubeless (docs: the value of the right to raise is
        not counted, so the offer rule of :mod:`computer.stakes` is the reference)."""
        if self.ev is None:
            return self._field_stake(s)
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


    def _field_stake(self, s: StakeInput) -> list[StakeReview]:
        """The stake decision by the field engine's cube analysis at the review's depth
        (:func:`computer.field.cube_action`): cubeful equities per unit of the current
        stake, at the match score in a match. *offer* is worth the worse for the offerer
        of the opponent's two answers, *no offer* what playing on is; *accept* and
        *refuse* are the same seen from the answering side."""
        away = (None if self.match is None
                else (self.match.need[s.by], self.match.need[1 - s.by]))
        # Stake 1: nobody holds the cube; above it the offerer holds it (it accepted the
        # last raise, S2).
        cube = field_engine.cube_action(s.position, s.by, stake=s.stake,
                                        owner="centred" if s.stake == 1 else "roller",
                                        away=away, plies=self.depth)
        equities = {"offer": min(cube.double_take, cube.double_pass),
                    "no_offer": cube.no_double}
        right = "offer" if cube.double else "no_offer"
        chose = "offer" if s.offered else "no_offer"
        loss = max(0.0, equities[right] - equities[chose])
        out = [StakeReview(s.before_turn, "offer", s.by, chose, equities, right, loss,
                           mark_for(self.rules, loss))]
        if s.offered and s.accepted is not None:
            answers = {"accept": -cube.double_take, "refuse": -cube.double_pass}
            right_answer = "accept" if cube.take else "refuse"
            chose_answer = "accept" if s.accepted else "refuse"
            lost = max(0.0, answers[right_answer] - answers[chose_answer])
            out.append(StakeReview(s.before_turn, "accept", 1 - s.by, chose_answer, answers,
                                   right_answer, lost, mark_for(self.rules, lost)))
        return out


def review_game(rules: str, turns: Sequence[TurnInput], depth: int, *,
                stake_decisions: Sequence[StakeInput] = (), result: float = 0.0,
                mars: bool = True, net: Net | None = None,
                progress: Any = None, match: MatchContext | None = None,
                engine: str | None = None) -> GameReview:
    """The review of one game (module docstring). ``result``: White's points from the
    game per unit of stake (negative: Black won). ``progress(done, total)`` is called
    after each turn. ``match``: the match score the game is played at (MWC; ``None`` or
    a 1-point match: none). ``engine``: who values the plays (:func:`review_engine`; by
    default the field engine for backgammon where it is available, else the project's
    network; ``net`` means the network). Raises :class:`ReviewError` when a play does
    not replay: no partial review."""
    reviewer = Reviewer(rules, depth, net, mars, match, engine)
    counted = 0.0 if reviewer.match is not None else None
    sides = (SideSummary(mwc_lost=counted), SideSummary(mwc_lost=counted))
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
            if side.mwc_lost is not None and r.mwc_lost is not None:
                side.mwc_lost += r.mwc_lost
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
    return GameReview(rules, depth, reviews, stake_reviews, sides, result, adjusted,
                      reviewer.match, reviewer.engine)
