"""Expectimax over the dice with the learned evaluation, and gnubg-style move filters.

Plies are counted as gnubg counts them. A candidate play's resulting position is
valued by:

- **0-ply**: the network on that position (exact when the game is over);
- **1-ply**: the average over the opponent's 21 rolls (a double 1/36, others 2/36)
  of the position after the opponent's best reply, the reply chosen by 0-ply;
- **2-ply**: the same average, but each of the opponent's replies valued at 1-ply
  (the mover's 21 rolls after it); only the opponent's best ``reply_filter`` replies by
  0-ply are looked at that deep.

At the root, every legal play is valued at 0-ply; the best ``Filter.keep`` within
``Filter.margin`` (in equity) go on to the next ply, and so on
(:data:`EXPERT_FILTERS`). Legal plays are listed once per decision
(:meth:`Evaluator.plays` caches them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from games.engine import BoardPlay as Play
from games.engine import BoardPosition, Side

from .board import FloatArray, boards, profile, ruleset, untouched
from .network import N_OUTPUTS, Net, encode, equity, flip, outcome_vector

ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 distinct rolls with their probabilities."""


@dataclass(frozen=True)
class Filter:
    """Keep at most ``keep`` candidates whose equity is within ``margin`` of the best."""

    keep: int
    margin: float


EXPERT_FILTERS: tuple[Filter, ...] = (Filter(6, 0.16), Filter(2, 0.08))
"""Root filters: 0-ply → the best 6 within 0.16 go to 1-ply → the best 2 within 0.08
go to 2-ply."""

REPLY_FILTER = 1
"""At 2-ply, how many of the opponent's replies (best by 0-ply) to each roll are
valued at 1-ply. One keeps a 2-ply decision near a quarter of a second on this machine
(docs/computer.md has the measurements)."""


class Evaluator:
    """The network's estimates for positions of one rule set, with a per-decision cache
    of legal plays."""

    def __init__(self, rules: str, net: Net, reply_filter: int = REPLY_FILTER) -> None:
        self.rules = rules
        self.rs = ruleset(rules)
        self.profile = profile(rules)
        self.net = net
        self.reply_filter = reply_filter
        self._plays: dict[tuple[BoardPosition, Side, tuple[int, int], bool], Sequence[Play]] = {}

    def clear(self) -> None:
        self._plays.clear()

    def plays(self, position: BoardPosition, side: Side, dice: tuple[int, int],
              first_turn: bool) -> Sequence[Play]:
        key = (position, side, dice, first_turn)
        found = self._plays.get(key)
        if found is None:
            found = self.rs.legal_plays(position, side, dice, first_turn)
            self._plays[key] = found
        return found

    # -- 0-ply ----------------------------------------------------------------

    def static(self, positions: Sequence[BoardPosition], me: Side) -> FloatArray:
        """0-ply estimates (:data:`~computer.network.OUTPUTS`) of positions ``me`` has
        just moved to, from ``me``'s side; finished games get their exact result."""
        if not positions:
            return np.zeros((0, N_OUTPUTS))
        b = boards(self.rules, positions, me)
        probs = self.net.forward(encode(b, self.profile))
        if self.profile.bears_off:
            done = np.flatnonzero(b.off[:, 0] == 15)
        else:
            done = np.flatnonzero((b.mine[:, 6:].sum(axis=1) == 0) & (b.bar[:, 0] == 0))
        for i in done:
            outcome = self.rs.outcome(positions[int(i)])
            if outcome is not None:
                probs[i] = outcome_vector(outcome.points)
        return probs

    def finished(self, positions: Sequence[BoardPosition]) -> list[bool]:
        return [self.rs.outcome(p) is not None for p in positions]

    # -- deeper plies -----------------------------------------------------------

    def _replies(self, positions: Sequence[BoardPosition], mover: Side,
                 ) -> tuple[list[tuple[int, float, Sequence[Play]]], list[bool]]:
        """For each position (``mover`` to roll) and roll: (row, weight, plays)."""
        done = self.finished(positions)
        todo = [i for i, d in enumerate(done) if not d]
        fresh = untouched(self.rules, boards(self.rules, [positions[i] for i in todo], mover))
        items = []
        for i, first in zip(todo, fresh, strict=True):
            for dice, weight in ROLLS:
                items.append((i, weight, self.plays(positions[i], mover, dice, bool(first))))
        return items, done

    def one_ply(self, positions: Sequence[BoardPosition], me: Side) -> FloatArray:
        """1-ply estimates of positions ``me`` has just moved to, from ``me``'s side."""
        them = 1 - me
        result = self.static(positions, me)
        items, done = self._replies(positions, them)
        if not items:
            return result
        flat = [play.position for _, _, plays in items for play in plays]
        probs = self.static(flat, them)
        eq = equity(probs)
        totals = np.zeros((len(positions), N_OUTPUTS))
        start = 0
        for row, weight, plays in items:
            end = start + len(plays)
            best = start + int(np.argmax(eq[start:end]))
            totals[row] += weight * probs[best]
            start = end
        for i, d in enumerate(done):
            if not d:
                result[i] = flip(totals[i])
        return result

    def two_ply(self, positions: Sequence[BoardPosition], me: Side) -> FloatArray:
        """2-ply estimates of positions ``me`` has just moved to, from ``me``'s side."""
        them = 1 - me
        result = self.static(positions, me)
        items, done = self._replies(positions, them)
        if not items:
            return result
        flat = [play.position for _, _, plays in items for play in plays]
        eq = equity(self.static(flat, them))
        chosen: list[BoardPosition] = []
        groups: list[tuple[int, float, int, int]] = []
        start = 0
        for row, weight, plays in items:
            end = start + len(plays)
            order = np.argsort(-eq[start:end], kind="stable")[: self.reply_filter]
            groups.append((row, weight, len(chosen), len(chosen) + len(order)))
            chosen += [flat[start + int(k)] for k in order]
            start = end
        deep = self.one_ply(chosen, them)
        deep_eq = equity(deep)
        totals = np.zeros((len(positions), N_OUTPUTS))
        for row, weight, lo, hi in groups:
            best = lo + int(np.argmax(deep_eq[lo:hi]))
            totals[row] += weight * deep[best]
        for i, d in enumerate(done):
            if not d:
                result[i] = flip(totals[i])
        return result

    # -- the root -----------------------------------------------------------------

    def best_play(self, plays: Sequence[Play], me: Side, plies: int,
                  filters: Sequence[Filter] = EXPERT_FILTERS) -> int:
        """Index of the best of ``plays`` (``me``'s) searched to ``plies`` (0-2) with
        ``filters`` between plies; the first of equals."""
        if len(plays) == 1:
            return 0
        candidates = np.arange(len(plays))
        positions = [p.position for p in plays]
        values = equity(self.static(positions, me))
        for ply in range(1, plies + 1):
            keep = filters[min(ply - 1, len(filters) - 1)]
            order = np.argsort(-values, kind="stable")
            top = values[order[0]]
            order = order[: keep.keep]
            order = order[values[order] >= top - keep.margin]
            candidates = candidates[order]
            if len(candidates) == 1:
                return int(candidates[0])
            subset = [positions[int(i)] for i in candidates]
            deeper = self.one_ply(subset, me) if ply == 1 else self.two_ply(subset, me)
            values = equity(deeper)
        return int(candidates[int(np.argmax(values))])

    def to_roll(self, position: BoardPosition, side: Side, first_turn: bool,
                plies: int = 1) -> FloatArray:
        """Estimates for ``side`` about to roll in ``position`` (its own side's view):
        0-ply reads the network from the opponent's side; 1-ply averages ``side``'s 21
        rolls, each with its best play by 0-ply."""
        if plies == 0:
            return flip(self.static([position], 1 - side)[0])
        totals = np.zeros(N_OUTPUTS)
        for dice, weight in ROLLS:
            plays = self.plays(position, side, dice, first_turn)
            probs = self.static([p.position for p in plays], side)
            totals += weight * probs[int(np.argmax(equity(probs)))]
        return totals
