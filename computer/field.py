"""Backgammon through a field engine: Open Sage (the ``bgsage`` package, MPL-2.0).

The computer's own networks are the state of the art for the nardy games, but
backgammon has engines that the field trusts. This module is the one door to one of
them, Open Sage (docs/computer.md, "The field engine": why this one): it converts the
engine's positions (``nardy``) to Open Sage's boards and reads back its estimates and
cube decisions. Everything else of the computer (levels, stakes, the review) asks here.

The field engine is optional: :func:`available` says whether it can be imported (a
platform without its wheel, or an install without it); when it cannot, the callers use
the project's own backgammon network instead (the fallback, :mod:`computer.levels`).

**Boards.** Open Sage reads a position as 26 numbers from one side's view, the side to
move (before a move) or the side that has just moved (after it): index ``p`` (1..24)
is that side's own point ``p`` (H1: it bears off from its points 1-6), its checkers
positive and the opponent's negative; index 25 is that side's bar and index 0 the
opponent's bar (both counted positive); checkers borne off are not stored (15 minus
the rest). :func:`board` and :func:`position_from_board` convert exactly, both ways.

**Depths** are counted as GNU Backgammon and the rest of this project count them:
``plies=0`` is the raw network, ``plies=1`` looks one roll ahead (each of the
opponent's 21 rolls answered by its best play), ``plies=2`` two. Open Sage numbers
them one higher, as eXtreme Gammon does (its "1-ply" is the raw network).

**Estimates** are the five chances of :data:`computer.network.OUTPUTS` (win, win by 2+,
win by 3, lose by 2+, lose by 3), in that order, which is also Open Sage's.

The engine runs on the calling thread only (Open Sage's own parallel searches are not
used: the server's two cores are shared by everything).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Any

import numpy as np

from nardy import BoardPlay as Play
from nardy import BoardPosition, Side

from .board import CHECKERS, Boards, FloatArray, IntArray, profile, ruleset
from .network import equity, flip, outcome_vector
from .score import Objective

ENGINE = "Open Sage"
"""The field engine's name as the level list shows it (with :func:`engine_version`)."""
PACKAGE = "bgsage"
"""The package that brings it (requirements.lock)."""

MAX_PLIES = 2
"""The deepest search offered here (Open Sage's "3-ply"): one ply more multiplies the
time by about 20, far beyond a move's time budget (docs/computer.md)."""

FILTER_KEEP = 5
FILTER_MARGIN = 0.08
"""Before a look-ahead, the candidates are valued by the raw network and only the best
:data:`FILTER_KEEP` within :data:`FILTER_MARGIN` (on equity's scale) of the best are
searched: Open Sage's own default filter."""

MAX_STAKE = 64
"""S5: the stake (the cube) never goes above 64."""


@dataclass(frozen=True)
class Ranked:
    """One legal play as :func:`rank_plays` valued it."""

    index: int
    """Its index in the plays given."""
    value: float
    """What the side that moved plays for: the objective's value, or money equity."""
    probabilities: tuple[float, float, float, float, float]
    """The five chances after the play, for the side that moved (opponent to roll)."""
    plies: int
    """The depth it was valued at (candidates the filter dropped: 0)."""


@dataclass(frozen=True)
class CubeAction:
    """Open Sage's cube decision for the side about to roll, at a score and a cube.

    Equities are cubeful, from the roller's view, per unit of the current stake in
    money play and as match-winning chance mapped onto equity's scale in a match."""

    double: bool
    """The roller should offer the raise now."""
    take: bool
    """Offered, the opponent should accept."""
    no_double: float
    double_take: float
    double_pass: float
    probabilities: tuple[float, float, float, float, float]
    """The cubeless chances of the roller, before its roll."""


class _Engine:
    """Open Sage's strategies, built once per process: the raw network (the exact
    bear-off database in front of it) and a look-ahead search per depth."""

    def __init__(self, cpp: Any, weights: Any, bearoff: Any) -> None:
        self.cpp = cpp
        self.weights = weights
        self.bearoff = bearoff
        raw = cpp.create_strategy(weights.strategy_type, weights.weight_paths_list,
                                  weights.hidden_sizes_list)
        self.raw = cpp.BearoffStrategy(raw, bearoff) if bearoff is not None else raw
        """Values every candidate play before a look-ahead (and positions at 0 ply)."""
        self._searches: dict[int, Any] = {}
        self.lock = threading.Lock()
        """One search at a time in a process: a search's cache is shared."""

    def search(self, plies: int) -> Any:
        """The strategy of depth ``plies`` (0: the raw network)."""
        if plies == 0:
            return self.raw
        found = self._searches.get(plies)
        if found is None:
            found = self.cpp.create_multipy(
                self.weights.strategy_type, self.weights.weight_paths_list,
                self.weights.hidden_sizes_list, n_plies=plies + 1,
                filter_max_moves=FILTER_KEEP, filter_threshold=FILTER_MARGIN,
                parallel_evaluate=False, parallel_threads=1)
            if self.bearoff is not None:
                self.cpp.multipy_set_bearoff_db(found, self.bearoff)
            self._searches[plies] = found
        return found


@cache
def _engine() -> _Engine | None:
    try:
        # Imported here, not at the top: the field engine is optional (a platform
        # without its wheel falls back to the project's own network), so its absence
        # must be an answer of available(), not an ImportError of the whole runtime.
        import bgbot_cpp
        from bgsage.analyzer import bearoff_db_path
        from bgsage.weights import default_weights
    except ImportError:
        return None
    path = bearoff_db_path()
    bearoff = None
    if path:
        bearoff = bgbot_cpp.BearoffDB()
        if not bearoff.load(path):
            bearoff = None
    return _Engine(bgbot_cpp, default_weights(), bearoff)


def available() -> bool:
    """Whether the field engine can be imported (and its weights loaded) here."""
    return _engine() is not None


def engine_version() -> str | None:
    """The installed field engine's version (``"2.0.20260907"``), or ``None`` when it
    is not :func:`available`."""
    if not available():
        return None
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return None


def engine_label() -> str | None:
    """``"Open Sage 2.0.20260907"``, or ``None`` when the engine is not available."""
    version = engine_version()
    return None if version is None else f"{ENGINE} {version}"


def _require() -> _Engine:
    engine = _engine()
    if engine is None:
        raise FieldEngineMissingError(
            f"the field engine ({ENGINE}, package {PACKAGE}) cannot be imported here")
    return engine


class FieldEngineMissingError(RuntimeError):
    """A field-engine function was called where :func:`available` is false."""


# -- boards -----------------------------------------------------------------------------


def _check_rules(rules: str) -> None:
    p = profile(rules)
    if not (p.hits and p.bears_off and p.numbering == "mirrored"):
        raise ValueError(f"{rules!r} is not played on backgammon's board (hitting, "
                         f"bearing off, mirrored numbering): the field engine cannot read it")


def board(position: BoardPosition, side: Side) -> list[int]:
    """``position`` as Open Sage's 26 numbers from ``side``'s view (the module
    docstring): ``side`` about to move, or having just moved. The position must be of a
    rule set on backgammon's board (``backgammon``; ``short_nardy``, whose board and
    start are backgammon's, H3); raises ``ValueError`` otherwise.

    >>> from nardy import BACKGAMMON_RULES, WHITE
    >>> board(BACKGAMMON_RULES.initial(), WHITE)
    [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    """
    _check_rules(position.rules)
    out = [0] * 26
    for point, count in position.in_perspective(side).items():
        out[point] = count
    out[25] = position.bar_of(side)
    out[0] = position.bar_of(1 - side)
    return out


def position_from_board(rules: str, values: Sequence[int], side: Side) -> BoardPosition:
    """The position of ``rules`` that Open Sage's ``values`` describe from ``side``'s
    view: the inverse of :func:`board`. Raises ``ValueError`` for a board of the wrong
    size and ``InvalidPositionError`` for an impossible one."""
    _check_rules(rules)
    if len(values) != 26:
        raise ValueError(f"an Open Sage board has 26 numbers, not {len(values)}")
    counts = {p: int(values[p]) for p in range(1, 25) if values[p]}
    mine = sum(n for n in counts.values() if n > 0) + int(values[25])
    theirs = sum(-n for n in counts.values() if n < 0) + int(values[0])
    return ruleset(rules).position_from_perspective(
        side, counts, off_mine=CHECKERS - mine, off_theirs=CHECKERS - theirs,
        bar_mine=int(values[25]), bar_theirs=int(values[0]))


def boards_of(b: Boards) -> IntArray:
    """The rows of ``b`` (the computer's arrays, :class:`computer.board.Boards`, seen by
    their side ``me``) as Open Sage's boards from ``me``'s view: row ``i`` is what
    :func:`board` gives for that row's position and ``me``. The rows must be of a rule
    set on backgammon's board (mirrored numbering, H1: the opponent's own point ``q`` is
    ``me``'s ``25 - q``); the caller knows the rule set, the arrays do not."""
    out: IntArray = np.zeros((len(b), 26), dtype=np.int64)
    out[:, 1:25] = b.mine - b.theirs[:, ::-1]
    out[:, 25] = b.bar[:, 0]
    out[:, 0] = b.bar[:, 1]
    return out


# -- estimates --------------------------------------------------------------------------


def _check_plies(plies: int) -> None:
    if not 0 <= plies <= MAX_PLIES:
        raise ValueError(f"plies go from 0 to {MAX_PLIES}, not {plies!r}")


def _finished(position: BoardPosition, side: Side) -> FloatArray | None:
    """The exact chances of a game already over, for ``side``; ``None`` if it is not."""
    outcome = ruleset(position.rules).outcome(position)
    if outcome is None:
        return None
    won = outcome_vector(outcome.points)
    return won if outcome.winner == side else flip(won)


def _post_move(engine: _Engine, after: list[int], before: list[int], plies: int,
               ) -> FloatArray:
    result = engine.search(plies).evaluate_board(after, before)
    return np.array(result["probs"], dtype=float)


def post_move_probabilities(position: BoardPosition, side_just_moved: Side,
                            plies: int = 0) -> tuple[float, float, float, float, float]:
    """The five chances (:data:`computer.network.OUTPUTS`) of ``side_just_moved`` in
    ``position``, the opponent about to roll, by Open Sage at ``plies`` (0-2, GNU
    Backgammon's count). Cubeless: the game as it is played on, stakes aside. A
    finished game gives its exact result. Raises :class:`FieldEngineMissingError`
    where the engine is not :func:`available`, ``ValueError`` for another board."""
    _check_plies(plies)
    values = board(position, side_just_moved)
    engine = _require()
    done = _finished(position, side_just_moved)
    if done is not None:
        return _five(done)
    with engine.lock:
        try:
            return _five(_post_move(engine, values, values, plies))
        finally:
            if plies:
                engine.search(plies).clear_cache()


def post_move_raw(b: Boards) -> FloatArray:
    """The raw network's five chances (:data:`computer.network.OUTPUTS`) for each row of
    ``b``, the side ``me`` having just moved and the opponent about to roll: a search's
    leaves, many at a time (:class:`computer.search.Evaluator` with ``field=True``). Each
    board is routed by itself (Open Sage picks its network by the board before a move,
    which a row does not carry; the moved board stands for it, as in
    :func:`post_move_probabilities`), with the engine's bear-off database in front.
    Finished games are not recognised: the caller's to value. The rows as in
    :func:`boards_of`. Raises :class:`FieldEngineMissingError` where the engine is not
    :func:`available`."""
    engine = _require()
    rows = boards_of(b).tolist()
    with engine.lock:
        evaluate = engine.raw.evaluate_board
        probs = [evaluate(row, row)["probs"] for row in rows]
    return np.array(probs, dtype=float).reshape(len(rows), 5)


def to_roll_probabilities(position: BoardPosition, side: Side,
                          plies: int = 0) -> tuple[float, float, float, float, float]:
    """The five chances of ``side`` about to roll in ``position`` (the review's
    "before the roll"): the opponent's post-move estimate seen from ``side``. The same
    errors as :func:`post_move_probabilities`."""
    return _five(flip(np.array(post_move_probabilities(position, 1 - side, plies))))


def _five(values: FloatArray) -> tuple[float, float, float, float, float]:
    a, b, c, d, e = (float(v) for v in values[:5])
    return a, b, c, d, e


def _value(probs: FloatArray, side: Side, objective: Objective | None) -> FloatArray:
    return equity(probs) if objective is None else objective.value(probs, side)


def rank_plays(position: BoardPosition, side: Side, plays: Sequence[Play], plies: int = 0,
               objective: Objective | None = None, *, keep: int = FILTER_KEEP,
               margin: float = FILTER_MARGIN) -> list[Ranked]:
    """``side``'s legal ``plays`` from ``position`` (the engine's plays of one roll, or
    the rest of a turn in progress from the position it stands at) valued by Open Sage,
    best first (the first of equals first). All are valued by the raw network; with
    ``plies`` > 0 the best ``keep`` within ``margin`` (equity's scale) of the best are
    searched to ``plies`` and rank above the rest (by default Open Sage's own filter,
    :data:`FILTER_KEEP` within :data:`FILTER_MARGIN`). ``objective``: what ``side``
    plays for (:mod:`computer.score`, the match score's); ``None``: money equity,
    gammons and backgammons counting. The same errors as
    :func:`post_move_probabilities`; ``ValueError`` for no plays."""
    _check_plies(plies)
    if not plays:
        raise ValueError("no plays to rank")
    engine = _require()
    # Open Sage picks the network for a moved board by the board before the move (its
    # game-plan routing), so the position the plays start from is part of the question.
    before = board(position, side)
    boards = [board(p.position, side) for p in plays]
    with engine.lock:
        probs = np.empty((len(plays), 5))
        for i, (play, after) in enumerate(zip(plays, boards, strict=True)):
            done = _finished(play.position, side)
            probs[i] = done if done is not None else _post_move(engine, after, before, 0)
        values = _value(probs, side, objective)
        depth = np.zeros(len(plays), dtype=int)
        if plies and len(plays) > 1:
            order = np.argsort(-values, kind="stable")
            top = values[order[0]]
            chosen = [int(i) for i in order[:max(keep, 1)] if values[i] >= top - margin]
            try:
                for i in chosen:
                    if _finished(plays[i].position, side) is None:
                        probs[i] = _post_move(engine, boards[i], before, plies)
                    depth[i] = plies
            finally:
                engine.search(plies).clear_cache()
            values = _value(probs, side, objective)
    # Searched plays first, then by value; the first of equals first.
    ranking = sorted(range(len(plays)), key=lambda i: (-int(depth[i]), -float(values[i]), i))
    return [Ranked(i, float(values[i]), _five(probs[i]), int(depth[i])) for i in ranking]


def best_play(position: BoardPosition, side: Side, plays: Sequence[Play], plies: int = 0,
              objective: Objective | None = None, *, keep: int = FILTER_KEEP,
              margin: float = FILTER_MARGIN) -> int:
    """The index of the best of ``side``'s ``plays`` from ``position``
    (:func:`rank_plays`'s first; 0 without computing when there is one play)."""
    if len(plays) == 1:
        return 0
    return rank_plays(position, side, plays, plies, objective, keep=keep,
                      margin=margin)[0].index


# -- the cube ---------------------------------------------------------------------------

CUBE_OWNERS = ("centred", "roller", "opponent")
"""Who holds the cube (the right to offer the next raise, S2): nobody yet (stake 1), the
side about to roll, or its opponent."""


def cube_action(position: BoardPosition, side: Side, *, stake: int = 1,
                owner: str = "centred", away: tuple[int, int] | None = None,
                crawford: bool = False, plies: int = 0) -> CubeAction:
    """Open Sage's cube decision for ``side`` about to roll in ``position``: whether
    it should offer the raise ``stake`` → ``2 * stake`` (the cube, S4) and whether the
    opponent should accept it, cubeful, by its search at ``plies`` (0-2).

    ``owner``: one of :data:`CUBE_OWNERS`. ``away``: the points the roller and its
    opponent still need in a match (its match equity table, Crawford and post-Crawford
    play); ``None``: money play. ``crawford``: this is the Crawford game. Money play
    has neither the Jacoby rule nor beavers (the rules have none); the stake stops at
    64 (S5). The same errors as :func:`post_move_probabilities`; ``ValueError`` for an
    unknown owner or a score already won."""
    _check_plies(plies)
    if owner not in CUBE_OWNERS:
        raise ValueError(f"owner must be one of {', '.join(CUBE_OWNERS)}, not {owner!r}")
    if away is not None and min(away) < 1:
        raise ValueError(f"a match still being played needs points on both sides, not {away}")
    if stake < 1:
        raise ValueError(f"a stake is at least 1, not {stake}")
    values = board(position, side)
    engine = _require()
    cpp = engine.cpp
    held = {"centred": cpp.CubeOwner.CENTERED, "roller": cpp.CubeOwner.PLAYER,
            "opponent": cpp.CubeOwner.OPPONENT}[owner]
    away1, away2 = away if away is not None else (0, 0)
    common = {"away1": away1, "away2": away2, "is_crawford": crawford, "jacoby": False,
              "beaver": False, "max_cube_value": MAX_STAKE, "bearoff_db": engine.bearoff}
    weights = engine.weights
    with engine.lock:
        if plies == 0:
            result = cpp.evaluate_cube_decision_unified(
                values, stake, held, weights.strategy_type, weights.weight_paths_list,
                weights.hidden_sizes_list, **common)
        else:
            result = cpp.cube_decision_nply_unified(
                values, stake, held, plies + 1, weights.strategy_type,
                weights.weight_paths_list, weights.hidden_sizes_list,
                filter_max_moves=FILTER_KEEP, filter_threshold=FILTER_MARGIN, n_threads=1,
                **common)
    return CubeAction(double=bool(result["should_double"]), take=bool(result["should_take"]),
                      no_double=float(result["equity_nd"]),
                      double_take=float(result["equity_dt"]),
                      double_pass=float(result["equity_dp"]),
                      probabilities=_five(np.array(result["probs"], dtype=float)))
