"""The arena: games between two players, with the statistics of the result.

    python -m computer.lab arena expert heuristic --rules long_nardy --games 1000 --seed 1
    python -m computer.lab arena expert gnubg --rules backgammon --games 500 --jobs 2
    python -m computer.lab arena world-class gnubg-1ply --rules backgammon --match 1

``A`` and ``B`` are level names (:data:`computer.LEVELS`), ``gnubg`` (GNU Backgammon
at 0-ply, backgammon only, :mod:`computer.lab.gnubg`; ``gnubg-1ply`` at 1-ply) or
``champion`` (MetinGames' Long Narde bot, long nardy only, run by Node.js from a clone
outside the project, :mod:`computer.lab.champion`; ``champion-botrules`` with its own
prime rule, raising at a play ours refuses). The
learned levels play backgammon as the server plays them: through the field engine
(:mod:`computer.field`) where it is installed, and short nardy with the positions valued
by it; ``expert-own`` (any learned level with ``-own``) plays with the project's own
network instead, as do the levels given ``--weights``, ``--race-weights``, ``-nodb`` or
``-norace``. ``A`` has White in the even games and Black in the odd ones. Game ``i``'s
starter and dice, and the ``random`` level's choices in it, are drawn from
``(--seed, i)`` alone, so the games and their tallies do not depend on ``--jobs``
(worker processes, each with its own players, one gnubg process per gnubg player) nor
on the order the games finish in.

Prints ``A``'s share of games won with its 95 % Wilson interval, ``A``'s points per
game (marses, gammons, koks and backgammons counting, R29/H15), how many of each
side's wins were worth 2 or more and 3 points, each side's time per move (mean, p95,
max; moves with a single legal play are not asked, not timed) and the elapsed time.

``--record FILE`` keeps every game's result (and its decision times) in ``FILE``, one
JSON line a game after a first line naming the setup (rules, players, seed and the
SHA-256 of each learned player's weights file): a run that stops (a deadline, a
session's end) is taken up again by the same command, which plays only the games the
file lacks, and the report covers them all. A file written for another setup is refused
— a 1,000-game measurement can be spread over several sittings, never mixed::

    python -m computer.lab arena expert expert --rules short_nardy --games 1000 \
        --b-weights computer/lab/weights/previous/short_nardy.npz --record sn-expert.jsonl

``--weights FILE`` plays the learned levels with another network (``--b-weights`` gives
B its own), ``--race-weights FILE`` with another race network (:mod:`computer.race`;
the players of ``--weights``' network: A, and B unless ``--b-weights``), each named in
the record's header by its digest::

    python -m computer.lab arena network gnubg --rules backgammon --games 1000 --seed 2 \
        --race-weights candidates/backgammon-race-rollouts.npz
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import multiprocessing.util
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from computer.board import profile, ruleset
from computer.levels import (
    LEARNED,
    LEVELS,
    REDUCED,
    chooser,
    engine_of,
    field_valued,
    levels_for,
    picker,
    through_field,
)
from computer.network import Net, WeightsMismatchError, weights_digest
from computer.race import load_race_net
from computer.score import match_objective
from computer.weights_io import UnknownLevelError, weights_path
from nardy import LONG_NARDY_RULES, BoardPosition, Side
from nardy import BoardPlay as Play

from .champion import ChampionError, ChampionPlayer, champion_version
from .champion import missing as champion_missing
from .gnubg import GnubgError, GnubgPlayer, find_gnubg
from .match import MAX_TURNS, first_dice

GNUBG = "gnubg"
GNUBG_1PLY = "gnubg-1ply"
"""GNU Backgammon searching one roll ahead (its 1-ply)."""
CHAMPION = "champion"
"""MetinGames' Long Narde bot under our prime rule (:mod:`computer.lab.champion`)."""
CHAMPION_BOT_RULES = "champion-botrules"
"""The same bot with its own prime rule: a play ours refuses stops the run."""
OWN = "-own"
"""A learned level's name with this suffix (``expert-own``) plays backgammon with the
project's own network, not the field engine: the comparison, and the fallback."""
NO_DB = "-nodb"
"""A learned level's name with this suffix (``network-nodb``) is that level valuing
bear-off races by its network instead of the exact database (:mod:`computer.bearoff`)."""
NO_RACE = "-norace"
"""A learned level's name with this suffix (``expert-norace``) is that level valuing
races by its contact network, without the race network (:mod:`computer.race`): the
evaluation as it was before there was one."""
FULL = "-full"
"""``expert-full`` is the expert searching its 2-ply in full, all 21 rolls at the last
ply, in a rule set whose ``expert`` reduces it (:data:`computer.levels.REDUCED`): the
expert as it was before, for measuring what the reduction costs."""
MONEY = "-money"
"""A learned level's name with this suffix (``expert-money``) plays for money (gammons
count) even in a ``--match`` run: the computer as it played before it played for the
match (:mod:`computer.score`), for measuring what that changed."""
PLAYERS = (*LEVELS, *(f"{level}{suffix}" for level in LEVELS if level in LEARNED
                      for suffix in (NO_DB, NO_RACE, MONEY, OWN)), f"expert{FULL}", GNUBG,
           GNUBG_1PLY, CHAMPION, CHAMPION_BOT_RULES)
"""Every name the arena takes for ``A`` and ``B``."""


def _level(name: str) -> tuple[str, bool]:
    """A player's level and whether it uses the bear-off database (:data:`NO_DB`)."""
    if name.endswith(NO_DB) and name.removesuffix(NO_DB) in LEARNED:
        return name.removesuffix(NO_DB), False
    if name.endswith(NO_RACE) and name.removesuffix(NO_RACE) in LEARNED:
        return name.removesuffix(NO_RACE), True
    if name == f"expert{FULL}":
        return "expert", True
    if name.endswith(MONEY) and name.removesuffix(MONEY) in LEARNED:
        return name.removesuffix(MONEY), True
    if name.endswith(OWN) and name.removesuffix(OWN) in LEARNED:
        return name.removesuffix(OWN), True
    return name, True


def _through_field(rules: str, name: str, weights: Path | None = None,
                   race_weights: Path | None = None) -> bool:
    """Whether player ``name`` plays through the field engine: a learned level in
    backgammon, or valuing the positions in short nardy (:func:`field_valued`), as the
    server plays it (no ``-own``, ``-nodb``, ``-norace``, ``-full``, no other network
    given)."""
    level = _level(name)[0]
    return (name in (level, f"{level}{MONEY}") and weights is None and race_weights is None
            and (through_field(rules, level) or field_valued(rules, level)))


def _reduced(rules: str, name: str) -> bool:
    """Whether player ``name`` searches a reduced 2-ply in ``rules`` (:data:`FULL`)."""
    return name != f"expert{FULL}" and _level(name)[0] == "expert" and rules in REDUCED


def _uses_race(name: str) -> bool | None:
    """False for a ``-norace`` level; else None (the Evaluator's default: the committed
    race network with the committed network)."""
    return False if name.endswith(NO_RACE) and name.removesuffix(NO_RACE) in LEARNED else None


class ArenaError(ValueError):
    """A player or rule set the arena cannot set up (the message says why)."""


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` out of ``games`` (95 % with ``z = 1.96``).

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if games <= 0 or not 0 <= wins <= games:
        raise ValueError(f"no interval for {wins} wins out of {games} games")
    p = wins / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


# -- players ---------------------------------------------------------------------------


class Player(Protocol):
    def new_game(self, rng: random.Random) -> None:
        """A game starts; ``rng`` is this player's randomness for it."""

    def choose(self, position: BoardPosition, side: Side, dice: tuple[int, int],
               first_turn: bool, plays: Sequence[Play]) -> int:
        """The index of the play ``side`` makes among ``plays`` (the legal plays of
        ``dice`` in ``position``)."""

    def close(self) -> None: ...


class FieldPlayer:
    """A learned level played through the field engine (:func:`computer.levels.chooser`);
    ``match`` as :class:`LevelPlayer`'s."""

    def __init__(self, rules: str, level: str, match: int = 0) -> None:
        self.objective = (match_objective(rules, 0, length=match, own=0, opponent=0)
                          if match else None)
        self._choose = chooser(rules, level, objective=self.objective)

    def new_game(self, rng: random.Random) -> None:
        """The field engine is deterministic: nothing to draw."""

    def choose(self, position: BoardPosition, side: Side, dice: tuple[int, int],
               first_turn: bool, plays: Sequence[Play]) -> int:
        return self._choose(position, plays, side)

    def close(self) -> None:
        pass


class LevelPlayer:
    """One of :data:`computer.LEVELS`; ``net``: the learned levels' network; ``race``:
    their race network (see :func:`computer.levels.picker`)."""

    def __init__(self, rules: str, level: str, net: Net | None = None,
                 exact_race: bool = True, race: bool | Net | None = None,
                 reduced: bool | None = None, match: int = 0) -> None:
        self.rules, self.level, self.net, self.exact_race = rules, level, net, exact_race
        self.race, self.reduced = race, reduced
        # The first game of a match: 0-0, the same objective for either side.
        self.objective = (match_objective(rules, 0, length=match, own=0, opponent=0)
                          if match else None)
        self._pick = picker(rules, level, random.Random(0), net, exact_race, race, reduced,
                            self.objective)

    def new_game(self, rng: random.Random) -> None:
        self._pick = picker(self.rules, self.level, rng, self.net, self.exact_race,
                            self.race, self.reduced, self.objective)

    def choose(self, position: BoardPosition, side: Side, dice: tuple[int, int],
               first_turn: bool, plays: Sequence[Play]) -> int:
        return self._pick(plays, side)

    def close(self) -> None:
        pass


def check_player(rules: str, name: str, weights: Path | None = None,
                 race_weights: Path | None = None) -> None:
    """Raise :class:`ArenaError` unless ``name`` can play ``rules`` (with ``weights``
    for the learned levels, default the committed network, and ``race_weights`` their
    race network, default the committed one)."""
    name, _ = _level(name)
    try:
        ruleset(rules)
    except KeyError as error:
        raise ArenaError(error.args[0]) from None
    if name in (GNUBG, GNUBG_1PLY):
        if rules != "backgammon":
            raise ArenaError(f"gnubg plays backgammon only, not {rules!r}")
        if find_gnubg() is None:
            raise ArenaError("gnubg: GNU Backgammon is not installed (Debian: apt-get "
                             "install gnubg; looked on $PATH and in /usr/games)")
    elif name in (CHAMPION, CHAMPION_BOT_RULES):
        if rules != LONG_NARDY_RULES.name:
            raise ArenaError(f"the champion plays {LONG_NARDY_RULES.name} only, not {rules!r}")
        why = champion_missing()
        if why is not None:
            raise ArenaError(why)
    elif name not in LEVELS:
        raise ArenaError(f"no player {name!r}; players: {', '.join(PLAYERS)}")
    elif name in LEARNED:
        if weights is not None and not weights.exists():
            raise ArenaError(f"no weights file {weights}")
        if race_weights is not None and not race_weights.exists():
            raise ArenaError(f"no weights file {race_weights}")
        if weights is None and name not in levels_for(rules):
            raise ArenaError(f"{name!r} needs a trained network for {rules!r} "
                             f"({weights_path(rules)} is missing; --weights FILE gives one)")


def make_player(rules: str, name: str, weights: Path | None = None, match: int = 0,
                race_weights: Path | None = None) -> Player:
    """The player called ``name`` in ``rules`` (see :func:`check_player`); ``match``:
    money play (0) or each game the first of a ``match``-point match; ``race_weights``:
    the race network a learned level plays races with (default the committed one; a
    ``-norace`` level has none)."""
    check_player(rules, name, weights, race_weights)
    if name in (GNUBG, GNUBG_1PLY):
        return GnubgPlayer(match=match, plies=1 if name == GNUBG_1PLY else 0)
    if name in (CHAMPION, CHAMPION_BOT_RULES):  # plays for the game: it knows no match
        return ChampionPlayer(rules="ours" if name == CHAMPION else "own")
    if _through_field(rules, name, weights, race_weights):
        return FieldPlayer(rules, _level(name)[0], 0 if name.endswith(MONEY) else match)
    race: bool | Net | None = _uses_race(name)
    if race is None and weights is not None:  # a given network plays as the committed
        race = True                            # one would: with the committed race network
    reduced = _reduced(rules, name)
    if name.endswith(MONEY):
        match = 0
    name, exact_race = _level(name)
    try:
        if race is not False and race_weights is not None and name in LEARNED:
            if not profile(rules).bears_off:
                raise ArenaError(f"{rules} does not bear off: no race network")
            race = load_race_net(rules, race_weights)
        net = Net.load(weights, rules) if weights is not None and name in LEARNED else None
        return LevelPlayer(rules, name, net, exact_race, race, reduced, match)
    except (UnknownLevelError, WeightsMismatchError) as error:
        raise ArenaError(str(error)) from None


# -- games -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game's result: ``a_side`` is the side ``A`` had, ``points`` the winner's."""

    index: int
    a_side: Side
    winner: Side
    points: int
    turns: int

    @property
    def a_won(self) -> bool:
        return self.winner == self.a_side


@dataclass
class Tally:
    """Games played and the time each side took per decision (seconds)."""

    games: list[Game] = field(default_factory=list)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def add(self, game: Game, times: tuple[list[float], list[float]]) -> None:
        self.games.append(game)
        self.times[0].extend(times[0])
        self.times[1].extend(times[1])

    def results(self) -> list[Game]:
        """The games in index order: what ``--jobs`` does not change."""
        return sorted(self.games, key=lambda g: g.index)

    @property
    def wins(self) -> int:
        return sum(g.a_won for g in self.games)

    @property
    def points(self) -> int:
        """``A``'s net points."""
        return sum(g.points if g.a_won else -g.points for g in self.games)

    def wins_by_points(self, player: int) -> Counter[int]:
        """How many of ``A``'s (``player`` 0) or ``B``'s (1) wins were worth 1, 2, 3."""
        return Counter(g.points for g in self.games if g.a_won == (player == 0))


def game_rng(seed: int, index: int, who: str = "dice") -> random.Random:
    """Game ``index``'s randomness: its dice and starter (``who="dice"``), or ``A``'s
    and ``B``'s (``"a"``, ``"b"``). Seeded by text, which Python hashes the same way in
    every process."""
    return random.Random(f"arena/{seed}/{index}/{who}")


def play(rules: str, a: Player, b: Player, seed: int, index: int,
         ) -> tuple[Game, tuple[list[float], list[float]]]:
    """Game ``index`` between ``a`` and ``b`` (``a`` White when ``index`` is even), and
    the seconds each took per decision with more than one legal play."""
    rs = ruleset(rules)
    rng = game_rng(seed, index)
    a.new_game(game_rng(seed, index, "a"))
    b.new_game(game_rng(seed, index, "b"))
    a_side: Side = index % 2
    seats = (a, b) if a_side == 0 else (b, a)
    times: tuple[list[float], list[float]] = ([], [])
    side: Side = rng.randrange(2)
    position = rs.initial()
    first = [True, True]
    for turn in range(1, MAX_TURNS + 1):
        if turn == 1:
            dice = first_dice(rng, rs.opening == "roll_off_played")
        else:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = rs.legal_plays(position, side, dice, first[side])
        choice = 0
        if len(plays) > 1:
            start = time.perf_counter()
            choice = seats[side].choose(position, side, dice, first[side], plays)
            times[side != a_side].append(time.perf_counter() - start)
        first[side] = False
        position = plays[choice].position
        outcome = rs.outcome(position)
        if outcome is not None:
            return Game(index, a_side, outcome.winner, outcome.points, turn), times
        side = 1 - side
    raise RuntimeError(f"game {index}: no result after {MAX_TURNS} turns")


@dataclass(frozen=True)
class Setup:
    rules: str
    a: str
    b: str
    seed: int
    weights: Path | None = None
    b_weights: Path | None = None
    """B's network when it is not ``weights`` (the new expert against the old)."""
    match: int = 0
    """0: money play; else each game is the first of a ``match``-point match, both
    players playing for the match (:mod:`computer.score`; gnubg told the length)."""
    race_weights: Path | None = None
    """The race network of the players of ``weights``' network (A, and B unless
    ``b_weights``); ``None``: the committed one."""

    def weights_of(self, player: str) -> Path | None:
        return self.b_weights if player == "b" and self.b_weights is not None else self.weights

    def race_weights_of(self, player: str) -> Path | None:
        return None if player == "b" and self.b_weights is not None else self.race_weights

    def header(self) -> dict[str, object]:
        """What a record file's first line says: the setup, with each learned player's
        network named by its file's digest (the committed file when none was given)."""
        digests: dict[str, str | None] = {}
        engines: dict[str, str] = {}
        for player, name in (("a", self.a), ("b", self.b)):
            path = self.weights_of(player)
            if _through_field(self.rules, name, path, self.race_weights_of(player)):
                digests[player] = None  # the field engine's weights: named by its version
                engines[f"{player}_engine"] = engine_of(self.rules, _level(name)[0])
            elif _level(name)[0] not in LEARNED:
                digests[player] = None
            else:
                digests[player] = weights_digest(path or weights_path(self.rules))
        header: dict[str, object] = {
            "arena": 1, "rules": self.rules, "a": self.a, "b": self.b, "seed": self.seed,
            "a_weights": digests["a"], "b_weights": digests["b"]}
        reduced = [player for player, name in (("a", self.a), ("b", self.b))
                   if _reduced(self.rules, name)]
        if reduced:  # a record of the full search (all before there was a reduced one)
            header["reduced"] = reduced  # cannot go on with the reduced, nor this with it
        if self.match:  # money play's records (all before there was match play) say none
            header["match"] = self.match
        header.update(engines)  # nor those before the field engine played
        for player, name in (("a", self.a), ("b", self.b)):  # the bot's commit
            if name in (CHAMPION, CHAMPION_BOT_RULES):
                header[f"{player}_champion"] = champion_version()
        for player, name in (("a", self.a), ("b", self.b)):  # nor those before this option
            path = self.race_weights_of(player)
            if path is not None and _level(name)[0] in LEARNED and _uses_race(name) is None:
                header[f"{player}_race_weights"] = weights_digest(path)
        return header


class _Worker:
    """The two players of one process, kept for all the games it plays."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.a = make_player(setup.rules, setup.a, setup.weights_of("a"), setup.match,
                             setup.race_weights_of("a"))
        try:
            self.b = make_player(setup.rules, setup.b, setup.weights_of("b"), setup.match,
                                 setup.race_weights_of("b"))
        except BaseException:
            self.a.close()
            raise

    def play(self, index: int) -> tuple[Game, tuple[list[float], list[float]]]:
        return play(self.setup.rules, self.a, self.b, self.setup.seed, index)

    def close(self) -> None:
        self.a.close()
        self.b.close()


_worker: _Worker | Exception | None = None
"""A worker process's players, or why they could not be set up (a pool would start
new workers forever if its initializer raised)."""


def _start_worker(setup: Setup) -> None:
    global _worker
    try:
        _worker = _Worker(setup)
    except Exception as error:
        _worker = error
        return
    multiprocessing.util.Finalize(_worker, _worker.close, exitpriority=10)


def _play_in_worker(index: int) -> tuple[Game, tuple[list[float], list[float]]]:
    if isinstance(_worker, Exception):
        raise _worker
    assert _worker is not None
    return _worker.play(index)


Result = tuple[Game, tuple[list[float], list[float]]]


def read_record(path: Path, setup: Setup) -> list[Result]:
    """The games a record file holds (see the module docstring). Raises
    :class:`ArenaError` when it was written for another setup or is not a record."""
    lines = path.read_text().splitlines()
    if not lines:
        return []
    try:
        header = json.loads(lines[0])
        games = [json.loads(line) for line in lines[1:] if line.strip()]
        results = [(Game(g["index"], g["a_side"], g["winner"], g["points"], g["turns"]),
                     (list(g["times"][0]), list(g["times"][1]))) for g in games]
    except (ValueError, KeyError, TypeError, IndexError):
        raise ArenaError(f"{path} is not an arena record") from None
    if header != setup.header():
        raise ArenaError(f"{path} records another setup ({json.dumps(header)}); this one is "
                         f"{json.dumps(setup.header())}")
    return results


def _record_line(result: Result) -> str:
    game, times = result
    return json.dumps({"index": game.index, "a_side": game.a_side, "winner": game.winner,
                       "points": game.points, "turns": game.turns,
                       "times": [[round(t, 6) for t in side] for side in times]})


def run(setup: Setup, games: int, jobs: int = 1, progress: bool = False,
        record: Path | None = None) -> Tally:
    """Play games ``0 .. games - 1``, in this process (``jobs=1``) or spread over
    ``jobs`` worker processes; with ``record``, only those the record file lacks, each
    appended to it as it ends (the tally has them all). Raises :class:`ArenaError` for a
    player that cannot be set up or a record of another setup,
    :class:`~computer.lab.gnubg.GnubgError` when gnubg fails,
    :class:`~computer.lab.champion.ChampionError` when the champion does."""
    for player, name in (("a", setup.a), ("b", setup.b)):
        check_player(setup.rules, name, setup.weights_of(player),
                     setup.race_weights_of(player))
    if games < 1 or jobs < 1:
        raise ArenaError("--games and --jobs must be at least 1")
    tally = Tally()
    recorded = read_record(record, setup) if record is not None and record.exists() else []
    for result in recorded:
        if result[0].index < games:
            tally.add(*result)
    have = {g.index for g in tally.games}
    todo = [index for index in range(games) if index not in have]
    sink = None
    if record is not None:
        record.parent.mkdir(parents=True, exist_ok=True)
        sink = record.open("a")
        if not recorded:
            sink.write(json.dumps(setup.header()) + "\n")
            sink.flush()
    start = time.perf_counter()
    if progress and have:
        print(f"  {len(have)} games from {record}: {setup.a} won {tally.wins}", flush=True)

    def add(result: Result) -> None:
        tally.add(*result)
        if sink is not None:
            sink.write(_record_line(result) + "\n")
            sink.flush()
        done = len(tally.games)
        if progress and (done % 10 == 0 or done == games):
            print(f"  {done} games: {setup.a} won {tally.wins} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)

    try:
        if not todo:
            return tally
        if jobs == 1:
            worker = _Worker(setup)
            try:
                for index in todo:
                    add(worker.play(index))
            finally:
                worker.close()
            return tally
        pool = multiprocessing.get_context("fork").Pool(
            min(jobs, len(todo)), initializer=_start_worker, initargs=(setup,))
        try:
            for result in pool.imap_unordered(_play_in_worker, todo):
                add(result)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
        return tally
    finally:
        if sink is not None:
            sink.close()


# -- the report ------------------------------------------------------------------------


def ms_per_move(times: Sequence[float]) -> str:
    """``mean, p95 (nearest rank), max`` in milliseconds, and how many moves."""
    if not times:
        return "no moves with a choice"
    ordered = sorted(times)
    p95 = ordered[math.ceil(0.95 * len(ordered)) - 1]
    return (f"{1000 * sum(ordered) / len(ordered):.1f} ms mean, {1000 * p95:.1f} ms p95, "
            f"{1000 * ordered[-1]:.1f} ms max over {len(ordered)} moves")


def _named(player: str, weights: Path | None) -> str:
    return player if weights is None or _level(player)[0] not in LEARNED else (
        f"{player} ({weights})")


def report(setup: Setup, tally: Tally, jobs: int, elapsed: float) -> list[str]:
    """The lines :func:`main` prints."""
    names = ruleset(setup.rules).results  # ("single", "mars"[, "koks"]) and the like
    games, wins = len(tally.games), tally.wins
    low, high = wilson(wins, games)
    lines = [
        f"{setup.rules}: A = {_named(setup.a, setup.weights_of('a'))}, "
        f"B = {_named(setup.b, setup.weights_of('b'))}; {games} games, seed {setup.seed}, "
        f"{jobs} job{'s' * (jobs > 1)}; A has White in the even games"
        + (f"; each game the first of a {setup.match}-point match" if setup.match else ""),
        f"A won {wins} of {games} = {100 * wins / games:.1f} % "
        f"(95 % Wilson interval {100 * low:.1f}-{100 * high:.1f} %)",
        f"A's points per game: {tally.points / games:+.3f}",
    ]
    for player, label in enumerate("AB"):
        by = tally.wins_by_points(player)
        won = sum(by.values())
        parts = [f"{by[points]} {names[points - 1]}" for points in range(1, len(names) + 1)]
        line = f"{label}'s {won} win{'s' * (won != 1)}: {', '.join(parts)}"
        if won:
            line += f"; {names[1]} or more {100 * (by[2] + by[3]) / won:.1f} %"
            if len(names) > 2:
                line += f", {names[2]} {100 * by[3] / won:.1f} %"
        lines.append(line)
    for player, label in enumerate("AB"):
        lines.append(f"{label}'s time per move: {ms_per_move(tally.times[player])}")
    lines.append(f"elapsed {elapsed:.1f} s")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m computer.lab arena",
        description="Play games between two players (levels or gnubg) and print the "
                    "result with its 95 %% Wilson interval.")
    parser.add_argument("a", metavar="A", help=f"one of {', '.join(PLAYERS)}")
    parser.add_argument("b", metavar="B", help="the same")
    parser.add_argument("--rules", required=True, help="the rule set (nardy.RULESETS)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--weights", type=Path, default=None,
                        help="the learned levels' network (default: the committed one)")
    parser.add_argument("--b-weights", type=Path, default=None,
                        help="B's network when it is not --weights' (e.g. the previous "
                             "committed one: computer/lab/weights/previous/RULES.npz)")
    parser.add_argument("--race-weights", type=Path, default=None,
                        help="the race network of the players of --weights' network (A, "
                             "and B unless --b-weights); default: the committed one")
    parser.add_argument("--progress", action="store_true", help="a line every 10 games")
    parser.add_argument("--record", type=Path, default=None,
                        help="keep each game in this file (JSON lines) and, when it "
                             "exists, play only the games it lacks")
    parser.add_argument("--match", type=int, default=0, metavar="N",
                        help="play each game as the first of an N-point match: the "
                             "players play for the match (1: gammons count for nothing); "
                             "default 0, money play")
    args = parser.parse_args(argv)
    if args.match < 0:
        parser.error(f"--match: a match length is positive (or 0, money play), not "
                     f"{args.match}")
    setup = Setup(args.rules, args.a, args.b, args.seed, args.weights, args.b_weights,
                  args.match, args.race_weights)
    start = time.perf_counter()
    try:
        tally = run(setup, args.games, args.jobs, args.progress, args.record)
    except ArenaError as error:  # the players, the counts or the record: before any game
        parser.error(str(error))
    except (GnubgError, ChampionError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 1
    for line in report(setup, tally, args.jobs, time.perf_counter() - start):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
