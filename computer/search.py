"""Expectimax over the dice with the learned evaluation, and gnubg-style move filters.

Plies are counted as gnubg counts them. A candidate play's resulting position is
valued by:

- **0-ply**: the network on that position (exact when the game is over; in a two-sided
  bear-off race, the exact database's value, :mod:`computer.bearoff`; in another race,
  the race network, :mod:`computer.race`; with ``Evaluator(field=True)``, short nardy's
  levels, the field engine's raw network instead of both, :mod:`computer.field`);
- **1-ply**: the average over the opponent's 21 rolls (a double 1/36, others 2/36)
  of the position after the opponent's best reply, the reply chosen by 0-ply;
- **2-ply**: the same average, but each of the opponent's replies valued at 1-ply
  (the mover's 21 rolls after it); only the opponent's best ``reply_filter`` replies by
  0-ply are looked at that deep. **Reduced** (``Evaluator(reduced=True)``, the expert
  of the rule sets in :data:`computer.levels.REDUCED`): that last ply averages one of
  the three :data:`ROLL_GROUPS`, a balanced third of the rolls, instead of all 21 — after
  each opponent roll the group after that roll's own, so the three groups share the
  opponent's rolls evenly and the candidates compared are searched alike.

At the root, every legal play is valued at 0-ply; the best ``Filter.keep`` within
``Filter.margin`` (in equity) go on to the next ply, and so on
(:data:`EXPERT_FILTERS`). "Best" is money equity, or with an ``objective``
(:mod:`computer.score`) each side's value at the match score — the mover's at the root,
the opponent's for its replies.

How it is made fast without changing what it finds (docs/computer.md has the
timings): the search only needs each roll's distinct resulting positions, never the
steps, so it asks the engine for those (``RuleSet.legal_positions``, once per query and
decision: :meth:`Evaluator.positions`), and where only the network reads them (the
replies of a 1-ply search, the leaves of a 2-ply one) for all 21 rolls of a position at
once, packed as bytes, without position objects (``RuleSet.legal_positions_packed``);
a reply that is the best of several opponent rolls is searched once; the network
reads positions in batches of :data:`BATCH` and each roll's best reply is found for
all rolls at once; the cyclic garbage collector, which has nothing to find among the
search's millions of short-lived objects, is paused for a decision (:func:`gc_paused`).
Only the rounding of the float32 network can differ from a plain search (its batches
differ); tests/computer/test_search.py checks the choices against one.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby

import numpy as np

from nardy import BoardPlay as Play
from nardy import BoardPosition, Side

from . import bearoff
from . import field as field_engine
from .board import (
    Boards,
    FloatArray,
    IntArray,
    boards,
    packed_boards,
    packed_rows,
    profile,
    ruleset,
    untouched,
)
from .network import N_OUTPUTS, Net, equity, flip, net_encoding, outcome_vector
from .race import is_race, load_race_net
from .score import Objective
from .weights_io import UnknownLevelError, load_net

ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 distinct rolls with their probabilities."""

ROLL_GROUPS: tuple[tuple[tuple[tuple[int, int], float], ...], ...] = tuple(
    tuple(((a, b), (1 if a == b else 2) / 12) for a, b in group) for group in (
        ((1, 1), (6, 6), (5, 1), (4, 2), (6, 2), (4, 3), (5, 3)),
        ((2, 2), (5, 5), (4, 1), (6, 1), (3, 2), (6, 3), (5, 4)),
        ((3, 3), (4, 4), (2, 1), (3, 1), (5, 2), (6, 4), (6, 5))))
"""The 21 rolls in three groups of seven, each a third of the 36 (two doubles, five
others, weights renormalised to its 12 of 36), each as balanced as the whole: every die
value shows as often (a third of its 36 appearances), and the mean pips moved is the
whole's 8 1/6 (the two doubles' values add up to 7). The reduced 2-ply's last ply
averages one group (tests/computer/test_search.py checks the balance)."""

NEXT_GROUP: tuple[int, ...] = tuple(
    (next(g for g, group in enumerate(ROLL_GROUPS) if any(d == dice for d, _ in group)) + 1)
    % len(ROLL_GROUPS) for dice, _ in ROLLS)
"""Per opponent roll (in :data:`ROLLS` order), the group of the mover's rolls a reduced
2-ply averages after it: the group after the one holding that roll."""

_ROLL_WEIGHTS = np.array([weight for _, weight in ROLLS])
_GROUP_WEIGHTS = np.array([[weight for _, weight in group] for group in ROLL_GROUPS])

BATCH = 2048
"""Positions the network reads at a time: big enough for NumPy, small enough for the
encoding and the hidden layer to stay in the processor's cache."""


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
valued at 1-ply (docs/computer.md has the measurements)."""


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (and back on after it if it was
    on). A search builds millions of small objects with no reference cycles among them,
    all freed by reference counting; the collector's passes over them cost about a
    sixth of a 2-ply decision and find nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _starts(sizes: IntArray) -> IntArray:
    """Where each of consecutive groups of ``sizes`` starts."""
    starts = np.zeros(len(sizes), dtype=np.int64)
    np.cumsum(sizes[:-1], out=starts[1:])
    return starts


def group_argmax(values: FloatArray, sizes: IntArray) -> IntArray:
    """For consecutive groups of ``sizes`` (each at least 1) of ``values``: the index
    (into ``values``) of each group's first largest value, as ``np.argmax`` per group."""
    starts = _starts(sizes)
    top = np.maximum.reduceat(values, starts)
    index = np.arange(len(values))
    at_top = np.where(values == np.repeat(top, sizes), index, len(values))
    best: IntArray = np.minimum.reduceat(at_top, starts)
    return best


def group_top(values: FloatArray, sizes: IntArray, keep: int) -> tuple[IntArray, IntArray]:
    """For consecutive groups of ``sizes`` of ``values``: the indices of each group's
    best ``keep`` (highest first, the earlier of equals first, as a stable sort of
    ``-values`` per group) and how many each group kept."""
    if keep == 1:
        return group_argmax(values, sizes), np.ones(len(sizes), dtype=np.int64)
    group = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((-values, group))  # stable: equal values keep their order
    rank = np.arange(len(values)) - _starts(sizes)[group[order]]
    kept: IntArray = order[rank < keep]
    return kept, np.minimum(sizes, keep)


def _is_committed(rules: str, net: Net) -> bool:
    """Whether ``net`` is the committed network of ``rules`` (the one
    :func:`~computer.weights_io.load_net` loads)."""
    try:
        return net is load_net(rules)
    except UnknownLevelError:
        return False


Query = tuple[BoardPosition, Side, tuple[int, int], bool]
"""A legal-positions query: position, side to move, dice, first turn."""


def field_can_value(rules: str) -> bool:
    """Whether the field engine can value ``rules``' positions here: it is installed and
    the rule set is played on backgammon's board (mirrored numbering, hitting, bearing
    off)."""
    prof = profile(rules)
    return (field_engine.available() and prof.numbering == "mirrored" and prof.bears_off
            and prof.hits)


class Evaluator:
    """The network's estimates for positions of one rule set, with per-decision caches
    of legal positions and of their 0-ply estimates."""

    def __init__(self, rules: str, net: Net, reply_filter: int = REPLY_FILTER,
                 exact_race: bool = True, race: bool | Net | None = None,
                 reduced: bool = False, objective: Objective | None = None,
                 field: bool = False) -> None:
        self.rules = rules
        self.field = field
        """The leaves are valued by the field engine's raw network
        (:func:`computer.field.post_move_raw`) instead of the own networks, contact and
        race: a rule set on backgammon's board whose moves are its own (short nardy,
        :data:`computer.levels.FIELD_VALUED`), searched here over its legal plays. The
        exact bear-off database keeps its domain and finished games their result."""
        if field and not field_can_value(rules):
            raise ValueError(f"the field engine cannot value {rules!r} positions here")
        self.objective = objective
        """What each side maximises (:mod:`computer.score`: the match-winning chance at
        the match score, on equity's scale); ``None``: money equity with marses."""
        self.reduced = reduced
        """The 2-ply's last ply over a third of the rolls (:data:`ROLL_GROUPS`)."""
        self.rs = ruleset(rules)
        self.profile = profile(rules)
        self.encoding = net_encoding(rules, net)
        """What the network reads (its meta says which of the layout's encodings)."""
        if net.n_inputs != self.encoding.n_inputs:
            raise ValueError(f"a network of {net.n_inputs} inputs cannot read {rules}'s "
                             f"{self.encoding.name} ({self.encoding.n_inputs} inputs)")
        self.packed_size = self.rs.codec.packed_size
        self.net = net
        self.reply_filter = reply_filter
        self.exact_race = exact_race and self.profile.bears_off
        """Bear-off races (:func:`computer.bearoff.in_domain`) are valued by the exact
        database instead of the network (rule sets that bear off)."""
        if race is None:  # the committed race network goes with the committed network
            race = self.profile.bears_off and _is_committed(rules, net)
        self.race_net = (race if isinstance(race, Net)
                         else load_race_net(rules) if race and self.profile.bears_off
                         else None)
        """Races outside the bear-off domain (:func:`computer.race.is_race`) are valued
        by this network: ``race=None`` (the default) the committed ``<rules>-race.npz``
        when ``net`` is the committed network and there is one; ``True`` the committed
        one with any ``net``; ``False`` none (the contact network everywhere, as before
        there were race networks); or a given network."""
        self.race_encoding = (None if self.race_net is None
                              else net_encoding(rules, self.race_net))
        """What the race network reads: it may be another encoding than the contact
        network's (a race network trained from an earlier contact network)."""
        if (self.race_net is not None and self.race_encoding is not None
                and self.race_net.n_inputs != self.race_encoding.n_inputs):
            raise ValueError(f"a race network of {self.race_net.n_inputs} inputs cannot "
                             f"read {rules}'s {self.race_encoding.name}")
        self._positions: dict[Query, Sequence[BoardPosition]] = {}
        self._values: dict[Query, FloatArray] = {}

    def value(self, probs: FloatArray, side: Side) -> FloatArray:
        """What ``side`` plays for, per row of ``probs`` (estimates from its side):
        :attr:`objective`'s value, or money equity."""
        if self.objective is None:
            return equity(probs)
        return self.objective.value(probs, side)

    def clear(self) -> None:
        self._positions.clear()
        self._values.clear()

    def positions(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                  first_turn: bool) -> Sequence[BoardPosition]:
        """The distinct results of ``side``'s legal plays (``RuleSet.legal_positions``),
        listed once per query and evaluator."""
        key = (position, side, dice, first_turn)
        found = self._positions.get(key)
        if found is None:
            found = self.rs.legal_positions(position, side, dice, first_turn)
            self._positions[key] = found
        return found

    # -- 0-ply ----------------------------------------------------------------

    def static(self, positions: Sequence[BoardPosition], me: Side) -> FloatArray:
        """0-ply estimates (:data:`~computer.network.OUTPUTS`) of positions ``me`` has
        just moved to, from ``me``'s side; finished games get their exact result."""
        probs = np.zeros((len(positions), N_OUTPUTS))
        for lo in range(0, len(positions), BATCH):
            chunk = positions[lo: lo + BATCH]
            probs[lo: lo + BATCH], done = self._network(boards(self.rules, chunk, me))
            for i in done:
                self._exact(probs, lo + i, chunk[i], me)
        return probs

    def _results_packed(self, queries: Sequence[Query]) -> tuple[FloatArray, IntArray]:
        """:meth:`results` read packed (``RuleSet.legal_positions_packed``): no position
        objects, except a finished game's, listed again to read its result."""
        packed = self.rs.legal_positions_packed
        data: list[bytes] = []
        # One position's rolls in one call: they share work in the engine.
        for (position, side, first), group in groupby(queries, lambda q: (q[0], q[1], q[3])):
            data += packed(position, side, [dice for _, _, dice, _ in group], first)
        sizes = np.array([len(d) // self.packed_size for d in data], dtype=np.int64)
        starts = _starts(sizes)
        rows = packed_rows(self.rules, b"".join(data))
        mover = queries[0][1]
        probs = np.zeros((len(rows), N_OUTPUTS))
        for lo in range(0, len(rows), BATCH):
            chunk = packed_boards(self.rules, rows[lo: lo + BATCH], mover)
            probs[lo: lo + BATCH], done = self._network(chunk)
            for i in done:
                row = lo + i
                k = int(np.searchsorted(starts, row, side="right")) - 1
                position = self.positions(*queries[k])[row - int(starts[k])]
                self._exact(probs, row, position, mover)
        return probs, sizes

    def _network(self, b: Boards) -> tuple[FloatArray, list[int]]:
        """The network's estimates of ``b``'s rows (the race network's for its races,
        :attr:`race_net`; or the field engine's for all, :attr:`field`; the bear-off
        database's exact values in its domain, :attr:`exact_race`) and the rows where
        the game may be over (the side that moved has borne off 15, or has all 15 home
        in ``nard``)."""
        domain = bearoff.in_domain(b) if self.exact_race else np.zeros(len(b), dtype=bool)
        if self.field:
            probs = field_engine.post_move_raw(b)
        else:
            x = self.encoding.encode(b)
            probs = self.net.forward(x)
        if self.race_net is not None and not self.field:
            running = np.flatnonzero(is_race(b, self.profile) & ~domain)
            if len(running):
                if self.race_encoding is self.encoding:
                    probs[running] = self.race_net.forward(x[running])
                else:
                    assert self.race_encoding is not None
                    probs[running] = self.race_net.forward(self.race_encoding.encode(Boards(
                        b.mine[running], b.theirs[running], b.bar[running],
                        b.off[running])))
        if self.exact_race:
            race = np.flatnonzero(domain)
            if len(race):
                probs[race] = bearoff.exact_outputs(Boards(
                    b.mine[race], b.theirs[race], b.bar[race], b.off[race]))
        if self.profile.bears_off:
            done = np.flatnonzero(b.off[:, 0] == 15)
        else:
            done = np.flatnonzero((b.mine[:, 6:].sum(axis=1) == 0) & (b.bar[:, 0] == 0))
        return probs, [int(i) for i in done]

    def _exact(self, probs: FloatArray, row: int, position: BoardPosition, me: Side) -> None:
        """``probs[row]`` := the exact result of ``position`` if its game is over."""
        outcome = self.rs.outcome(position)
        if outcome is not None:
            won = outcome_vector(outcome.points)
            probs[row] = won if outcome.winner == me else flip(won)

    def results(self, queries: Sequence[Query], packed: bool = False,
                ) -> tuple[FloatArray, IntArray]:
        """The 0-ply estimates of the results of ``queries`` (all of one side, from its
        side), one query's after the other, and how many each query has. ``packed``:
        nothing but these estimates is wanted (no position objects, nothing kept);
        else each query's estimates are kept for the decision."""
        if not queries:
            return np.zeros((0, N_OUTPUTS)), np.zeros(0, dtype=np.int64)
        if packed:
            return self._results_packed(queries)
        values = self._values
        todo = [query for query in dict.fromkeys(queries) if query not in values]
        if todo:
            found = [self.positions(*query) for query in todo]
            probs = self.static([p for f in found for p in f], queries[0][1])
            start = 0
            for query, f in zip(todo, found, strict=True):
                values[query] = probs[start: start + len(f)]
                start += len(f)
        parts = [values[query] for query in queries]
        return np.concatenate(parts), np.array([len(v) for v in parts], dtype=np.int64)

    # -- deeper plies -----------------------------------------------------------

    def _to_roll(self, positions: Sequence[BoardPosition], mover: Side,
                 groups: Sequence[int] | None = None,
                 ) -> tuple[list[int], list[Query], FloatArray]:
        """The rows of ``positions`` (``mover`` to roll) whose game goes on, the
        queries of ``mover``'s rolls from them — per row, one for each of :data:`ROLLS`
        in order, or with ``groups`` of the row's :data:`ROLL_GROUPS` — and the rolls'
        weights (one row of them per row that goes on)."""
        todo = [i for i, p in enumerate(positions) if self.rs.outcome(p) is None]
        fresh = untouched(self.rules, boards(self.rules, [positions[i] for i in todo], mover))
        rolls = [ROLLS if groups is None else ROLL_GROUPS[groups[i]] for i in todo]
        queries = [(positions[i], mover, dice, bool(first))
                   for i, first, row in zip(todo, fresh, rolls, strict=True)
                   for dice, _ in row]
        weights = (np.broadcast_to(_ROLL_WEIGHTS, (len(todo), len(ROLLS))) if groups is None
                   else _GROUP_WEIGHTS[[groups[i] for i in todo]])
        return todo, queries, weights

    @staticmethod
    def _average(weights: FloatArray, best: FloatArray) -> FloatArray:
        """Per row, the roll-weighted sum of ``best`` (a row's rolls' estimates
        consecutive, as in its row of ``weights``), added roll by roll."""
        rows, rolls = weights.shape
        per_roll = best.reshape(rows, rolls, N_OUTPUTS)
        totals = np.zeros((rows, N_OUTPUTS))
        for k in range(rolls):
            totals += weights[:, k, None] * per_roll[:, k]
        return totals

    def _finished(self, positions: Sequence[BoardPosition], me: Side) -> FloatArray:
        """Finished games' exact results; zeros for the others (the caller's to fill)."""
        result = np.zeros((len(positions), N_OUTPUTS))
        for i, position in enumerate(positions):
            self._exact(result, i, position, me)
        return result

    def one_ply(self, positions: Sequence[BoardPosition], me: Side,
                packed: bool = True, groups: Sequence[int] | None = None) -> FloatArray:
        """1-ply estimates of positions ``me`` has just moved to, from ``me``'s side.
        ``packed=False`` keeps the replies' estimates for a :meth:`two_ply` to follow;
        ``groups``: per position, the one of :data:`ROLL_GROUPS` averaged instead of all
        21 rolls (a reduced 2-ply's last ply)."""
        result = self._finished(positions, me)
        todo, queries, weights = self._to_roll(positions, 1 - me, groups)
        if todo:
            probs, sizes = self.results(queries, packed)
            best = probs[group_argmax(self.value(probs, 1 - me), sizes)]
            result[todo] = flip(self._average(weights, best))
        return result

    def two_ply(self, positions: Sequence[BoardPosition], me: Side) -> FloatArray:
        """2-ply estimates of positions ``me`` has just moved to, from ``me``'s side."""
        them = 1 - me
        result = self._finished(positions, me)
        todo, queries, weights = self._to_roll(positions, them)
        if not todo:
            return result
        probs, sizes = self.results(queries)
        kept, counts = group_top(self.value(probs, them), sizes, self.reply_filter)
        flat = [p for query in queries for p in self.positions(*query)]
        # Reduced: each kept reply's group of rolls, from the opponent roll it answers.
        rolled = np.repeat(np.arange(len(queries)), counts) % len(ROLLS)
        groups: list[int | None] = ([NEXT_GROUP[int(r)] for r in rolled] if self.reduced
                                    else [None] * len(kept))
        # The same reply may be the best of several rolls: each distinct one (with its
        # group of rolls, when reduced) searched once.
        index: dict[tuple[BoardPosition, int | None], int] = {}
        which = np.array([index.setdefault((flat[int(k)], g), len(index))
                          for k, g in zip(kept, groups, strict=True)])
        searched = list(index)
        deep = self.one_ply([p for p, _ in searched], them,
                            groups=[g for _, g in searched if g is not None]
                            if self.reduced else None)[which]
        best = deep[group_argmax(self.value(deep, them), counts)]
        result[todo] = flip(self._average(weights, best))
        return result

    # -- the root -----------------------------------------------------------------

    def best_play(self, plays: Sequence[Play], me: Side, plies: int,
                  filters: Sequence[Filter] = EXPERT_FILTERS) -> int:
        """Index of the best of ``plays`` (``me``'s) searched to ``plies`` (0-2) with
        ``filters`` between plies; the first of equals."""
        if len(plays) == 1:
            return 0
        with gc_paused():
            try:
                return self._best(plays, me, plies, filters)
            finally:
                self.clear()  # freed now: the collector would scan them all on its return

    def _best(self, plays: Sequence[Play], me: Side, plies: int,
              filters: Sequence[Filter]) -> int:
        candidates = np.arange(len(plays))
        positions = [p.position for p in plays]
        values = self.value(self.static(positions, me), me)
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
            if ply == 1:
                deeper = self.one_ply(subset, me, packed=plies == 1)
            else:
                deeper = self.two_ply(subset, me)
            values = self.value(deeper, me)
        return int(candidates[int(np.argmax(values))])

    def to_roll(self, position: BoardPosition, side: Side, first_turn: bool,
                plies: int = 1) -> FloatArray:
        """Estimates for ``side`` about to roll in ``position`` (its own side's view):
        0-ply reads the network from the opponent's side; 1-ply averages ``side``'s 21
        rolls, each with its best play by 0-ply."""
        if plies == 0:
            return flip(self.static([position], 1 - side)[0])
        probs, sizes = self.results([(position, side, dice, first_turn) for dice, _ in ROLLS],
                                    packed=True)
        weights = np.array([[weight for _, weight in ROLLS]])
        totals: FloatArray = self._average(
            weights, probs[group_argmax(self.value(probs, side), sizes)])[0]
        return totals
