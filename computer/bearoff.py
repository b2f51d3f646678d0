"""Exact bear-off databases: the one-sided distributions of the rolls to bear off, and
the two-sided race value built from them.

    python -m computer.lab bearoff build  # writes computer/weights/bearoff.npz

**The one-sided database.** Every position of 0..15 checkers on the six home points
(``C(21, 6)`` = 54,264 positions, the empty one included), each checker on own points
1..6, nothing else on the board. For each: the distribution of ``N``, the number of
rolls to bear off every checker, ``P(N = n)`` for ``n = 0 .. MAX_ROLLS``, so the expected
rolls and ``P(off in <= n rolls)``. It is computed exactly by dynamic programming over
the 21 rolls: the positions in increasing pip count (every die lowers it), for each roll
the play is the one whose result has the **lowest expected number of rolls** (the first
such in the database's order when several tie), and ``P(N = n)`` is the roll-weighted
sum of the chosen results' ``P(N = n - 1)``. So the distribution is that of the
min-expected-rolls play, as gnubg's one-sided database stores it; the play that
maximises the chance to finish within a given number of rolls can differ (rarely).

**The gammon database.** For the positions with all 15 checkers on the board (none
borne off, 15,504 positions): the distribution of the rolls until the *first* checker
is borne off, with the play that minimises its expectation (the side saving the mars or
gammon plays to get one checker off; gnubg's "gammon" distribution).

**The legal plays.** R25–R26 (Long Nardy) and H12 (short nardy, backgammon) are the
same rule in the home: a die ``d`` bears off from point ``d``; if that point is empty
and no checker stands higher, from the highest occupied point; else it moves a checker
inside the home; one may always move inside the home instead. With every checker home
each die has a legal step while a checker is left, so R19–R21 (play both dice, the
larger, as many of a double as possible) only ask that every die be played until the
fifteenth checker is off (R28: the game ends there). Long Nardy's prime rule (R15) does
not bind either: in the database's two-sided domain the opponent has a checker on its
own points 1..6, ahead of any prime in one's home. So one table serves every rule set
that bears off (``ruleset(rules).descriptor.bears_off``); tests/computer/test_bearoff.py
checks it against each rule set's own ``legal_positions``. ``nard`` does not bear off
and has no database.

**The race value.** Both sides past contact with every checker home (:func:`in_domain`:
the database's domain; in Long Nardy there is no contact at all, in the hitting games a
side whose checkers are all in its home has passed all of the opponent's, which are all
in the opponent's home). ``X`` to roll, ``Y`` the other, ``N_X`` and ``N_Y`` their
rolls to finish, independent (neither side's play touches the other's). ``X`` rolls
first, so ``X`` wins when ``N_X <= N_Y``:

    P(X wins) = sum_n P(N_X = n) * P(N_Y >= n) = sum_n P(N_X = n) * (1 - F_Y(n - 1)).

With ``G`` the rolls to the first checker off (only a side with none off can lose a
mars/gammon): ``X`` wins 2 when ``N_X <= G_Y`` and ``Y`` wins 2 when ``N_Y < G_X``:

    P(X wins 2) = sum_n P(N_X = n) * P(G_Y >= n),
    P(Y wins 2) = sum_m P(N_Y = m) * P(G_X > m).

No result worth 3 is possible in the domain (the loser has no checker on the bar or in
the winner's home). These are exact for the sides playing the database's plays; the
approximation is that a side plays to minimise its expected rolls (or, saving a mars,
its rolls to the first checker off), not to maximise its win chance given the
opponent's distribution — bench/bearoff_agreement.py measures how often that changes a
choice.

**The two-sided table.** Where both sides have at most :data:`TWO_SIDED` checkers left
(924 homes a side, 853,776 pairs) the win chance is not combined from the one-sided
distributions but read from an exact two-sided table (:func:`two_sided`): expectimax
over the dice in increasing total pip count, each side's every roll played to the
result of highest win chance against the other's actual home (as gnubg's two-sided
database). No mars/gammon is possible there (the loser has borne some off). So in that
part of the domain the database's choice is the exact best play; above it the
one-sided formula above stands. Stored as ``uint32`` fixed point (units of
1/(2**32 - 1): the rounding, below 1.2e-10, cannot reorder plays whose exact values
differ by more than the bench's 1e-9) in ``computer/weights/bearoff_two.npz``, 3.2 MB,
*not committed*: the build command writes it (3 s CPU), and a process that finds it
missing builds it at first use.

**Storage.** ``computer/weights/bearoff.npz``: both distributions as ``uint16``
fixed-point (units of 1/65535; rounding loses at most 1/131070 per entry), compressed;
the file's size and its build time are in docs/computer.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from nardy import BoardPosition

from .board import Boards, FloatArray, IntArray, profile, ruleset

HOME = 6
CHECKERS = 15
MAX_ROLLS = 24
"""Columns stored: ``P(N = 0) .. P(N = MAX_ROLLS - 1)``. The build computes
:data:`SOLVE_ROLLS` columns and checks that every one dropped rounds to zero in the
fixed point (a position can need 30 rolls, rolling 2-1 each time, but beyond 18 no
probability reaches 1/131070)."""
SOLVE_ROLLS = 48
SCALE = 65535
PATH = Path(__file__).resolve().parent / "weights" / "bearoff.npz"
TWO_SIDED = 6
"""The two-sided table's size: every pair of homes of at most this many checkers a side
(924 homes, as gnubg's default two-sided database of 6 checkers on 6 points)."""
TWO_SCALE = 2**32 - 1
TWO_PATH = PATH.with_name("bearoff_two.npz")
"""Not committed (3.2 MB): written by the build command, or at first use (3 s CPU)."""

ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1))

Int32Array = npt.NDArray[np.int32]


# -- the positions ---------------------------------------------------------------


def _keys(counts: IntArray) -> IntArray:
    """Each row of home counts (points 1..6) as one number, base 16."""
    weights: IntArray = 16 ** np.arange(HOME, dtype=np.int64)
    keys: IntArray = counts @ weights
    return keys


def _homes(points: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``points`` counts summing to at most ``most``."""
    if points == 0:
        yield ()
        return
    for n in range(most + 1):
        for rest in _homes(points - 1, most - n):
            yield (n, *rest)


@cache
def positions() -> IntArray:
    """Every home of 0..15 checkers, ``(54264, 6)``, ordered by :func:`_keys` (row 0 is
    the empty home)."""
    grid = np.array(list(_homes(HOME, CHECKERS)), dtype=np.int64)
    order = np.argsort(_keys(grid), kind="stable")
    found: IntArray = grid[order].astype(np.int64)
    return found


def index(counts: IntArray) -> IntArray:
    """The database rows of homes (rows of counts on points 1..6)."""
    keys = _keys(np.asarray(counts, dtype=np.int64).reshape(-1, HOME))
    rows: IntArray = np.searchsorted(_keys(positions()), keys)
    return rows


def single_die(die: int) -> Int32Array:
    """``table[i, p - 1]``: the row after a die ``die`` moves a checker from point ``p``
    of position ``i`` (R26/H12), or ``len(positions())`` (a dummy row) when it cannot.
    The empty position's column 0 is itself (the game is over: the rest of the dice are
    not played), its other columns the dummy; the dummy row is all dummy."""
    pos = positions()
    n = len(pos)
    table = np.full((n + 1, HOME), n, dtype=np.int32)
    occupied = pos > 0
    # highest[i]: the highest occupied point (0 when empty).
    highest = np.where(occupied.any(axis=1), HOME - np.argmax(occupied[:, ::-1], axis=1), 0)
    for p in range(1, HOME + 1):
        legal = occupied[:, p - 1]
        if p < die:  # bears off only from the highest occupied point
            legal = legal & (highest == p)
        after = pos[legal].copy()
        after[:, p - 1] -= 1
        if p > die:
            after[:, p - 1 - die] += 1
        table[np.flatnonzero(legal), p - 1] = index(after)
    table[0, 0] = 0
    return table


@cache
def _tables() -> tuple[Int32Array, ...]:
    return tuple(single_die(d) for d in range(1, 7))


def successors(rows: IntArray, dice: tuple[int, int]) -> Int32Array:
    """``(len(rows), k)``: the results of every complete play of ``dice`` from each of
    ``rows`` (with repeats, and the dummy row where a sequence of checkers is not a
    play)."""
    tables = _tables()
    a, b = dice
    if a == b:
        t = tables[a - 1]
        found: Int32Array = np.asarray(rows, dtype=np.int32)[:, None]
        for _ in range(4):
            found = t[found].reshape(len(rows), -1)
        return found
    ta, tb = tables[a - 1], tables[b - 1]
    first = ta[rows]
    second = tb[rows]
    both: Int32Array = np.concatenate([tb[first].reshape(len(rows), -1),
                                       ta[second].reshape(len(rows), -1)], axis=1)
    return both


# -- the build ---------------------------------------------------------------------


def _solve(start: npt.NDArray[np.bool_], done: npt.NDArray[np.bool_],
           ) -> tuple[FloatArray, FloatArray]:
    """Expected rolls and the distribution of the rolls until a position is ``done``,
    for the rows ``start`` (the others: ``done`` ones need 0 rolls, the rest are never
    reached), each roll played to the result of least expectation."""
    pos = positions()
    n = len(pos)
    expect = np.full(n + 1, np.inf)
    dist = np.zeros((n + 1, SOLVE_ROLLS))
    expect[np.flatnonzero(done)] = 0.0
    dist[np.flatnonzero(done), 0] = 1.0
    pip = pos @ np.arange(1, HOME + 1)
    todo = start & ~done
    for level in np.unique(pip[todo]):
        rows = np.flatnonzero(todo & (pip == level))
        e = np.zeros(len(rows))
        d = np.zeros((len(rows), SOLVE_ROLLS))
        for dice, weight in ROLLS:
            cand = successors(rows, dice)
            best = cand[np.arange(len(rows)), np.argmin(expect[cand], axis=1)]
            e += weight * expect[best]
            d[:, 1:] += weight * dist[best, :-1]
        expect[rows] = 1.0 + e
        dist[rows] = d
    return expect[:n], dist[:n]


def build() -> dict[str, npt.NDArray[np.uint16]]:
    """Both databases as ``uint16`` fixed point: ``off`` (every position: rolls to bear
    off all) and ``first`` (rows with 15 checkers: rolls to the first checker off; the
    other rows all zero)."""
    pos = positions()
    on = pos.sum(axis=1)
    _, off = _solve(np.ones(len(pos), dtype=bool), on == 0)
    _, first = _solve(on == CHECKERS, on < CHECKERS)
    first[on < CHECKERS] = 0.0
    return {"off": _fixed(off), "first": _fixed(first)}


def _distinct(cand: Int32Array, dummy: int) -> Int32Array:
    """Each row's distinct entries of ``cand`` (``dummy`` the absent one), ascending,
    padded with ``dummy`` to the widest row."""
    cand = np.sort(cand, axis=1)
    cand[:, 1:][cand[:, 1:] == cand[:, :-1]] = dummy
    cand = np.sort(cand, axis=1)
    width = max(int((cand < dummy).sum(axis=1).max()), 1)
    out: Int32Array = cand[:, :width]
    return out


def two_sided(checkers: int = TWO_SIDED) -> tuple[IntArray, FloatArray]:
    """The exact two-sided race: the rows of :func:`positions` with at most ``checkers``
    (``small``, row 0 the empty home) and ``value[i, j]``, the probability that the side
    to roll with home ``small[i]`` beats the side with ``small[j]``, each roll of either
    side played to maximise its own win chance (expectimax over the dice, in increasing
    total pip count: every play lowers it). ``value[0, j] = 1`` (the side to roll has
    finished: it won), ``value[i, 0] = 0`` for ``i > 0``."""
    pos = positions()
    small = np.flatnonzero(pos.sum(axis=1) <= checkers)
    m = len(small)
    local = np.full(len(pos) + 1, m, dtype=np.int32)  # m: no such play
    local[small] = np.arange(m)
    plays = [(_distinct(local[successors(small, dice)], m), weight)
             for dice, weight in ROLLS]
    pip = pos[small] @ np.arange(1, HOME + 1)
    value = np.zeros((m + 1, m + 1))
    value[0, :] = 1.0
    xs, ys = (g.ravel() for g in np.meshgrid(np.arange(1, m), np.arange(1, m),
                                              indexing="ij"))
    total = pip[xs] + pip[ys]
    order = np.argsort(total, kind="stable")
    xs, ys, total = xs[order], ys[order], total[order]
    bounds = np.flatnonzero(np.diff(total)) + 1
    for x, y in zip(np.split(xs, bounds), np.split(ys, bounds), strict=True):
        v = np.zeros(len(x))
        for cand, weight in plays:
            c = cand[x]
            after = 1.0 - value[y[:, None], c]  # the other side to roll, from c
            after[c == 0] = 1.0  # borne off: won
            after[c == m] = -np.inf
            v += weight * after.max(axis=1)
        value[x, y] = v
    out: FloatArray = value[:m, :m]
    return small, out


def write_two_sided(path: Path) -> npt.NDArray[np.uint32]:
    _, value = two_sided()
    table: npt.NDArray[np.uint32] = np.rint(value * TWO_SCALE).astype(np.uint32)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, value=table, checkers=np.array(TWO_SIDED))
    tmp.replace(path)
    return table


@cache
def load_two_sided() -> tuple[IntArray, FloatArray]:
    """``(local, value)``: ``local[row]`` the two-sided table's index of a row of
    :func:`positions` (``len(value)`` for a home of more than :data:`TWO_SIDED`
    checkers, and for the dummy row) and the table (:func:`two_sided`), read from
    :data:`TWO_PATH`, built and written first if it is missing (kept in memory only
    where the package cannot be written)."""
    pos = positions()
    small = np.flatnonzero(pos.sum(axis=1) <= TWO_SIDED)
    value: FloatArray | None = None
    if TWO_PATH.exists():
        with np.load(TWO_PATH) as data:
            if int(data["checkers"]) == TWO_SIDED:
                value = data["value"].astype(np.float64) / TWO_SCALE
    if value is None:
        try:
            value = write_two_sided(TWO_PATH).astype(np.float64) / TWO_SCALE
        except OSError:
            value = two_sided()[1]
    local = np.full(len(pos) + 1, len(small), dtype=np.int64)
    local[small] = np.arange(len(small))
    return local, value


def _fixed(dist: FloatArray) -> npt.NDArray[np.uint16]:
    if dist[:, -1].any() or np.rint(dist[:, MAX_ROLLS:] * SCALE).any():
        raise AssertionError("MAX_ROLLS is too small")
    out: npt.NDArray[np.uint16] = np.rint(dist[:, :MAX_ROLLS] * SCALE).astype(np.uint16)
    return out


@cache
def load() -> tuple[FloatArray, FloatArray]:
    """The distributions (``off``, ``first``) as probabilities, from :data:`PATH`
    (built and written first if it is missing)."""
    if not PATH.exists():
        write(PATH)
    with np.load(PATH) as data:
        off = data["off"].astype(np.float64) / SCALE
        first = data["first"].astype(np.float64) / SCALE
    return off, first


def write(path: Path) -> dict[str, npt.NDArray[np.uint16]]:
    tables = build()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, off=tables["off"], first=tables["first"])
    tmp.replace(path)
    return tables


def expected_rolls(counts: Sequence[int]) -> float:
    """The database's expected rolls to bear off the home ``counts`` (points 1..6)."""
    off, _ = load()
    row = off[int(index(np.array(counts))[0])]
    return float(row @ np.arange(MAX_ROLLS))


# -- the race value ------------------------------------------------------------------


def bears_off(rules: str) -> bool:
    """Whether ``rules`` has a database (its descriptor's ``bears_off``)."""
    return profile(rules).bears_off


def in_domain(b: Boards) -> npt.NDArray[np.bool_]:
    """Per row: both sides have every checker on the board in their home (own points
    1..6), none on the bar, and the game is not over (the database's domain)."""
    home: npt.NDArray[np.bool_] = (
        (b.mine[:, HOME:].sum(axis=1) == 0) & (b.theirs[:, HOME:].sum(axis=1) == 0)
        & (b.bar.sum(axis=1) == 0) & (b.off[:, 0] < CHECKERS) & (b.off[:, 1] < CHECKERS))
    return home


def race(to_roll: IntArray, other: IntArray) -> FloatArray:
    """``(n, 3)``: for homes ``to_roll`` (side ``X``, about to roll) and ``other`` (side
    ``Y``): ``P(X wins)``, ``P(X wins 2)`` and ``P(Y wins 2)`` (module docstring)."""
    off, first = load()
    x, y = index(to_roll), index(other)
    px, py = off[x], off[y]
    gx, gy = first[x], first[y]
    cy = np.cumsum(py, axis=1)
    at_least_y = np.ones_like(py)  # P(N_Y >= n) = 1 - F_Y(n - 1)
    at_least_y[:, 1:] = 1.0 - cy[:, :-1]
    win = (px * at_least_y).sum(axis=1)
    cgy = np.cumsum(gy, axis=1)
    at_least_gy = np.ones_like(gy)
    at_least_gy[:, 1:] = 1.0 - cgy[:, :-1]
    x_two = np.where(other.sum(axis=1) == CHECKERS, (px * at_least_gy).sum(axis=1), 0.0)
    above_gx = 1.0 - np.cumsum(gx, axis=1)  # P(G_X > m)
    y_two = np.where(to_roll.sum(axis=1) == CHECKERS, (py * above_gx).sum(axis=1), 0.0)
    local, table = load_two_sided()
    lx, ly = local[x], local[y]
    both = (lx < len(table)) & (ly < len(table))
    win[both] = table[lx[both], ly[both]]  # no mars/gammon: neither has 15 on the board
    out: FloatArray = np.clip(np.stack([win, x_two, y_two], axis=1), 0.0, 1.0)
    return out


def exact_outputs(b: Boards) -> FloatArray:
    """The :data:`~computer.network.OUTPUTS` of rows of ``b`` (all in :func:`in_domain`)
    for ``me``, who has just moved (the opponent to roll)."""
    values = race(b.theirs[:, :HOME], b.mine[:, :HOME])
    out = np.zeros((len(b), 5))
    out[:, 0] = 1.0 - values[:, 0]
    out[:, 1] = values[:, 2]
    out[:, 3] = values[:, 1]
    return out


def race_position(rules: str, mine: Sequence[int], theirs: Sequence[int],
                  me: int = 0) -> BoardPosition:
    """A position of ``rules`` in the domain: side ``me``'s home counts ``mine`` (own
    points 1..6), the opponent's ``theirs`` (its own points 1..6), the rest borne off."""
    to_mine = _OPPONENT_POINT[profile(rules).numbering]
    mine, theirs = [int(n) for n in mine], [int(n) for n in theirs]
    points = {p + 1: n for p, n in enumerate(mine) if n}
    points.update({to_mine(q + 1): -n for q, n in enumerate(theirs) if n})
    board = {"perspective": "white" if me == 0 else "black", "points": points,
             "off": {"mine": CHECKERS - sum(mine), "theirs": CHECKERS - sum(theirs)}}
    return ruleset(rules).codec.position(board)[1]


def _rotated(q: int) -> int:
    return q + 12 if q <= 12 else q - 12


def _mirrored(q: int) -> int:
    return 25 - q


_OPPONENT_POINT: dict[str, Callable[[int], int]] = {"rotated": _rotated,
                                                     "mirrored": _mirrored}
"""The opponent's own point ``q`` in one's own numbering (R2, H1)."""
