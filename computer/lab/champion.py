"""MetinGames' Long Narde "Champion" bot as an opponent in the arena (long nardy only).

The bot is the ``champion`` difficulty of the browser game in the public repository
MetinGames/Long-Narde (plain JavaScript; ``engine/bot.js`` over ``engine/game.js``).
Its code is **never** part of this project (that repository has no licence): it is
cloned outside, by default to ``/work/ext/long-narde`` (:data:`DEFAULT_DIR`, or the
directory in ``$NARD_CHAMPION_DIR``), and run there by Node.js::

    git clone https://github.com/MetinGames/Long-Narde /work/ext/long-narde

:class:`ChampionPlayer` drives one long-lived ``node`` process running our own small
driver (:data:`DRIVER`, written for this project), which imports the bot's modules from
that directory at run time and answers one request a line: the board, the side, the
dice and whether it is that side's first turn (R12). The driver sets up the bot's
``NardeGame`` to that turn and asks ``NardeBot(player, 'champion').makeDecision`` for one
die at a time, executing each, exactly as the bot's own app and benchmark do; it answers
the dice it played and the board it reached.

The bot's board (:func:`to_slots`): slots 1..24, its player 1 (our White) starting on
slot 1 and moving up, its player 2 (our Black) starting on slot 13 and moving up through
24 to 1 and 12. Slot ``s`` is White's point ``25 - s`` (and, by R2, Black's point
``opp(25 - s)``), so one board serves either side; its target 25 is off.

The bot's play is checked against ours: its dice are applied here (:func:`apply_moves`),
the result must equal the board the bot reached (else the adapter is wrong) and must be
one of the engine's legal plays; otherwise :class:`ChampionError` says so, with the
position, the dice and the bot's moves, and the discrepancy is appended to the log file
in ``$NARD_CHAMPION_LOG`` when that is set.

Its rules differ from ours in one place (``Board.wouldCreateIllegalPrime``): it refuses
any die after which *some* full six-point window has no opposing checker ahead, where
R17 judges only the windows that die newly fills, and it allows a window across the seam
(own points 12 and 13) when an opposing checker stands between the two ends, which R18
never allows. With ``rules="ours"`` (the arena's ``champion``) the driver replaces that
one function by R15-R18's prime rule, so the bot chooses among exactly our legal plays
with its own evaluation unchanged; ``rules="own"`` (``champion-botrules``) keeps the
bot's rule and raises at the first play it makes that we do not allow.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from nardy import BLACK, WHITE, BoardPosition, Position, Side, Step
from nardy import BoardPlay as Play
from nardy.types import opp

from .external import end_process

DEFAULT_DIR = Path("/work/ext/long-narde")
"""Where the bot's repository is cloned when ``$NARD_CHAMPION_DIR`` is not set."""

ENV_DIR = "NARD_CHAMPION_DIR"
ENV_LOG = "NARD_CHAMPION_LOG"

NEEDED = ("package.json", "engine/bot.js", "engine/game.js", "engine/board.js")
"""The files of the bot's repository the driver needs (``package.json`` declares its
modules ES modules)."""

TIMEOUT = 120.0
"""Seconds to wait for the driver's start or for one answer."""

PREFIX = "nard-champion "
"""Marks the driver's own lines among whatever else node prints."""

OFF = 25
"""The bot's target for a checker borne off."""

RULES = ("ours", "own")

DRIVER = r"""
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const dir = process.env.NARD_CHAMPION_DIR;
const rules = process.env.NARD_CHAMPION_RULES;
const load = file => import(pathToFileURL(path.join(dir, file)).href);
const { NardeGame } = await load('engine/game.js');
const { NardeBot } = await load('engine/bot.js');
const { Board } = await load('engine/board.js');

const answer = value => process.stdout.write('nard-champion ' + JSON.stringify(value) + '\n');

if (rules === 'ours') {
    // The prime rule of the project's RULES.md (R15-R18) in place of the bot's: a die
    // may not newly fill a six-point window (R17) with no opposing checker ahead of it
    // (R15), and never one across the seam between own points 12 and 13 (R18).
    Board.prototype.wouldCreateIllegalPrime = function (player, fromSlot, toSlot) {
        if (toSlot < 1 || toSlot > 24) return false;
        const after = this.slots.map(slot => ({ ...slot }));
        after[fromSlot].count--;
        if (after[fromSlot].count === 0) after[fromSlot].player = null;
        after[toSlot].count++;
        after[toSlot].player = player;
        const full = (slots, start) => {
            const ids = [];
            for (let offset = 0; offset < 6; offset++) {
                const id = this.getSlotFromProgress(player, start + offset);
                if (slots[id].player !== player || slots[id].count <= 0) return null;
                ids.push(id);
            }
            return ids;
        };
        for (let start = 0; start <= 18; start++) {
            const ids = full(after, start);
            if (!ids || full(this.slots, start)) continue;
            if (start <= 11 && start + 5 >= 12) return true;
            if (!this.hasOpponentCheckerAhead(player, ids, after)) return true;
        }
        return false;
    };
}

const game = new NardeGame();
const bots = { 1: new NardeBot(1, 'champion'), 2: new NardeBot(2, 'champion') };

function turn(request) {
    game.initGame();
    for (let s = 1; s <= 24; s++) {
        const n = request.slots[s - 1];
        game.board.slots[s] = n === 0
            ? { count: 0, player: null }
            : { count: Math.abs(n), player: n > 0 ? 1 : 2 };
    }
    game.board.borneOff = { 1: request.off[0], 2: request.off[1] };
    const player = request.player;
    const [d1, d2] = request.dice;
    game.currentPlayer = player;
    game.turnsCompleted = { 1: 1, 2: 1 };
    game.turnsCompleted[player] = request.first ? 0 : 1;
    game.dice.values = [d1, d2];
    game.availableMoves = d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
    game.gameStatus = 'PLAYING';
    game.headMovesThisTurn = 0;
    game.moveHistory = [];
    const bot = bots[player];
    if (request.all) return { plays: allPlays(bot) };
    bot.resetPlannedTurn();
    const moves = [];
    while (game.availableMoves.length > 0 && game.hasValidMoves()) {
        const move = bot.makeDecision(game);
        if (!move) break;
        if (!game.executeMove(move.from, move.dice)) {
            throw new Error(`the bot chose ${move.from}/${move.dice}/${move.target}, ` +
                            'which its own game refuses');
        }
        moves.push([move.from, move.dice, move.target]);
        if (game.board.hasPlayerWon(player)) break;
    }
    return { moves, ...board() };
}

function board() {
    const slots = [];
    for (let s = 1; s <= 24; s++) {
        const slot = game.board.slots[s];
        slots.push(slot.count === 0 ? 0 : (slot.player === 1 ? slot.count : -slot.count));
    }
    return { slots, off: [game.board.borneOff[1], game.board.borneOff[2]] };
}

// Every complete play the bot's own game allows (one die at a time, as its search
// explores them), as the distinct boards they reach.
function allPlays(bot) {
    const seen = new Map();
    const explore = () => {
        const legal = bot.getRuleCompliantSingleMoves(game);
        if (legal.length === 0) {
            const reached = board();
            seen.set(JSON.stringify(reached), reached);
            return;
        }
        for (const move of legal) {
            const snapshot = game.createMoveStateSnapshot();
            try {
                if (game.executeMove(move.from, move.dice, false)) explore();
            } finally {
                game.restoreMoveState(snapshot);
            }
        }
    };
    explore();
    return [...seen.values()];
}

answer({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === 'quit') break;
    try {
        answer(turn(JSON.parse(line)));
    } catch (error) {
        answer({ error: String(error && error.stack || error) });
    }
}
"""
"""Our driver (ES module, run by ``node --input-type=module``): ``$NARD_CHAMPION_DIR``
is the bot's directory, ``$NARD_CHAMPION_RULES`` ``ours`` or ``own``; one JSON request
a line (``{"slots", "off", "player", "dice", "first"}``), one answer a line
(``{"moves": [[from, die, target], ...], "slots", "off"}`` or ``{"error"}``); a request
with ``"all": true`` is answered every complete play the bot's own game allows
(``{"plays": [{"slots", "off"}, ...]}``), what its rules are compared with ours by."""

Move = tuple[int, int, int]
"""One die of the bot's play: ``(from slot, die, target slot)``, target 25 = off."""


class ChampionError(RuntimeError):
    """The bot or node is missing, failed, or chose a play our rules do not allow."""


def champion_dir(directory: str | Path | None = None) -> Path:
    """The bot's directory: ``directory``, else ``$NARD_CHAMPION_DIR``, else
    :data:`DEFAULT_DIR` (whether or not it exists)."""
    if directory is not None:
        return Path(directory)
    return Path(os.environ.get(ENV_DIR) or DEFAULT_DIR)


def find_node() -> str | None:
    """The Node.js executable on ``$PATH`` (``node``, or Debian's ``nodejs``), or None."""
    return shutil.which("node") or shutil.which("nodejs")


def missing(directory: str | Path | None = None) -> str | None:
    """Why the bot cannot run (no node, no clone, a clone without the bot), or None."""
    if find_node() is None:
        return "champion: Node.js is not installed (Debian: apt-get install nodejs)"
    where = champion_dir(directory)
    lacking = [name for name in NEEDED if not (where / name).is_file()]
    if lacking:
        return (f"champion: MetinGames' Long Narde bot is not in {where} (lacks "
                f"{', '.join(lacking)}); clone it there outside the project (git clone "
                f"https://github.com/MetinGames/Long-Narde {where}) or name its "
                f"directory in ${ENV_DIR}")
    return None


def champion_version(directory: str | Path | None = None) -> str:
    """The bot's git commit in its directory (what an arena record names), or
    ``"unknown"`` when that is no git clone."""
    git = shutil.which("git")
    if git is None:
        return "unknown"
    try:
        done = subprocess.run([git, "-C", str(champion_dir(directory)), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else "unknown"


# -- translation ----------------------------------------------------------------------


def player_of(side: Side) -> int:
    """The bot's player number of ``side``: 1 for White, 2 for Black."""
    return 1 if side == WHITE else 2


def point_of(side: Side, slot: int) -> int:
    """``side``'s own point number (R1, R2) of the bot's ``slot`` (1..24).

    >>> point_of(WHITE, 1), point_of(WHITE, 24), point_of(BLACK, 13), point_of(BLACK, 12)
    (24, 1, 24, 1)
    """
    if not 1 <= slot <= 24:
        raise ValueError(f"a slot is 1..24, not {slot}")
    white = 25 - slot
    return white if side == WHITE else opp(white)


def slot_of(side: Side, point: int) -> int:
    """The bot's slot of ``side``'s own point ``point`` (the inverse of :func:`point_of`)."""
    if not 1 <= point <= 24:
        raise ValueError(f"a point is 1..24, not {point}")
    return 25 - (point if side == WHITE else opp(point))


def to_slots(position: BoardPosition) -> tuple[int, ...]:
    """The bot's board of ``position``: 24 signed counts for slots 1..24, positive for
    White (its player 1), negative for Black (its player 2)."""
    if not isinstance(position, Position):
        raise ChampionError(f"the champion plays long nardy only, not {position.rules}")
    return tuple(reversed(position.points))


def from_slots(slots: Sequence[int], off: Sequence[int]) -> Position:
    """The position of the bot's board (``slots`` as :func:`to_slots`, ``off`` = its
    ``borneOff`` of players 1 and 2)."""
    if len(slots) != 24 or len(off) != 2:
        raise ValueError(f"24 slots and 2 borne-off counts, not {len(slots)} and {len(off)}")
    return Position(tuple(reversed([int(n) for n in slots])), (int(off[0]), int(off[1])))


def to_steps(side: Side, moves: Sequence[Move]) -> tuple[Step, ...]:
    """The bot's ``moves`` for ``side`` as our steps (own numbering, 0 = off, with the die
    used, which may exceed the point when bearing off, R26)."""
    steps = []
    for start, die, target in moves:
        src = point_of(side, start)
        dst = 0 if target == OFF else point_of(side, target)
        if dst and src - dst != die:
            raise ValueError(f"the bot's move {start}/{die}/{target} does not move {die} "
                             f"points for side {side}")
        steps.append(Step(src, dst, die))
    return tuple(steps)


def apply_moves(position: Position, side: Side, moves: Sequence[Move]) -> Position:
    """The position after ``side`` moves its checkers by the bot's ``moves`` (checked only
    for a checker to move, not against any rule). Raises ``ValueError``."""
    mine = {p: n for p, n in position.in_perspective(side).items() if n > 0}
    theirs = {p: -n for p, n in position.in_perspective(side).items() if n < 0}
    off = position.off_of(side)
    for step in to_steps(side, moves):
        if mine.get(step.src, 0) <= 0:
            raise ValueError(f"side {side} has no checker on its point {step.src}: {moves}")
        mine[step.src] -= 1
        if step.dst == 0:
            off += 1
        else:
            mine[step.dst] = mine.get(step.dst, 0) + 1
    counts = {p: n for p, n in mine.items() if n} | {p: -n for p, n in theirs.items()}
    return Position.from_perspective(side, counts, off, position.off_of(1 - side))


def request(position: BoardPosition, side: Side, dice: tuple[int, int],
            first_turn: bool) -> str:
    """The driver's request line (without its newline) for ``side`` to play ``dice``."""
    return json.dumps({"slots": list(to_slots(position)),
                       "off": [position.off_of(WHITE), position.off_of(BLACK)],
                       "player": player_of(side), "dice": list(dice), "first": first_turn})


def moves_text(side: Side, moves: Sequence[Move]) -> str:
    """The bot's moves in our notation (``"24/18 18/13"``), or ``"-"``."""
    return " ".join(map(str, to_steps(side, moves))) or "-"


# -- the player -----------------------------------------------------------------------


class ChampionPlayer:
    """One node process running :data:`DRIVER` over the bot in ``directory`` (see
    :func:`champion_dir`); ``rules``: ``"ours"`` (the bot under R15-R18's prime rule) or
    ``"own"`` (its own prime rule). An arena player (:class:`computer.lab.arena.Player`).
    Raises :class:`ChampionError` when node or the bot is missing or does not start."""

    name = "champion"

    def __init__(self, directory: str | Path | None = None, rules: str = "ours") -> None:
        if rules not in RULES:
            raise ValueError(f"rules are one of {RULES}, not {rules!r}")
        why = missing(directory)
        if why is not None:
            raise ChampionError(why)
        node = find_node()
        assert node is not None
        self.directory = champion_dir(directory).resolve()
        self.rules = rules
        self.asked = 0
        self.discrepancies = 0
        self._recent: deque[str] = deque(maxlen=20)
        self._answers: queue.Queue[str | None] = queue.Queue()
        env = {**os.environ, ENV_DIR: str(self.directory), "NARD_CHAMPION_RULES": rules}
        try:
            self._process = subprocess.Popen(
                [node, "--input-type=module", "-e", DRIVER], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                cwd=self.directory, env=env)
        except OSError as error:
            raise ChampionError(f"cannot start {node}: {error}") from None
        threading.Thread(target=self._read, daemon=True).start()
        self._expect()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            line = line.rstrip("\n")
            if line.startswith(PREFIX):
                self._answers.put(line[len(PREFIX):])
            else:
                self._recent.append(line)
        self._answers.put(None)

    def _expect(self) -> dict[str, object]:
        try:
            text = self._answers.get(timeout=TIMEOUT)
        except queue.Empty:
            text = json.dumps({"error": f"no answer in {TIMEOUT:.0f} s"})
        answer = json.loads(text) if text is not None else {"error": "node ended"}
        if "error" in answer:
            self.close()
            said = "\n".join(self._recent)
            raise ChampionError(f"the champion failed ({answer['error']}); node's output:\n"
                                f"{said}")
        return answer

    def best_moves(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                   first_turn: bool) -> tuple[list[Move], Position]:
        """The bot's play of ``dice`` for ``side``: its moves (one die each) and the
        board it reached."""
        answer = self._ask(request(position, side, dice, first_turn))
        moves = [(int(a), int(b), int(c)) for a, b, c in answer["moves"]]  # type: ignore[attr-defined]
        reached = from_slots(answer["slots"], answer["off"])  # type: ignore[arg-type]
        return moves, reached

    def legal_positions(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                        first_turn: bool) -> set[Position]:
        """The positions of every complete play of ``dice`` that the bot's game allows
        ``side`` (under :attr:`rules`): what our legal plays are compared with."""
        answer = self._ask(json.dumps({**json.loads(request(position, side, dice,
                                                            first_turn)), "all": True}))
        return {from_slots(b["slots"], b["off"]) for b in answer["plays"]}  # type: ignore[attr-defined]

    def _ask(self, line: str) -> dict[str, object]:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError as error:
            raise ChampionError(f"node is gone: {error}") from None
        return self._expect()

    def new_game(self, rng: random.Random) -> None:
        """The champion is deterministic: nothing to draw."""

    def choose(self, position: BoardPosition, side: Side, dice: tuple[int, int],
               first_turn: bool, plays: Sequence[Play]) -> int:
        """The index in ``plays`` (the engine's legal plays) of the bot's play. Raises
        :class:`ChampionError` when it is none of them (a discrepancy, logged to
        ``$NARD_CHAMPION_LOG`` when set) or when applying its moves here does not reach
        the board it reached (the adapter is wrong)."""
        if not isinstance(position, Position):
            raise ChampionError(f"the champion plays long nardy only, not {position.rules}")
        self.asked += 1
        moves, reached = self.best_moves(position, side, dice, first_turn)
        try:
            target = apply_moves(position, side, moves)
        except ValueError as error:
            raise ChampionError(f"the adapter cannot apply the champion's moves: {error}"
                                ) from None
        if target != reached:
            raise ChampionError(f"adapter error: the champion's moves {moves} from "
                                f"{position.to_id()} reach {target}, the bot reached "
                                f"{reached}")
        for i, play in enumerate(plays):
            if play.position == target:
                return i
        self.discrepancies += 1
        text = (f"the champion's play {moves_text(side, moves)} {moves} for side {side} "
                f"with {dice[0]}-{dice[1]}{' (first turn)' if first_turn else ''} in "
                f"{position.to_id()} ({position}) is not one of the {len(plays)} legal "
                f"plays: {', '.join(map(str, plays))}")
        log = os.environ.get(ENV_LOG)
        if log:
            with open(log, "a") as sink:
                sink.write(json.dumps({
                    "position": position.to_id(), "side": side, "dice": list(dice),
                    "first_turn": first_turn, "rules": self.rules, "moves": moves,
                    "play": moves_text(side, moves), "legal": [str(p) for p in plays],
                }) + "\n")
        raise ChampionError(text)

    def close(self) -> None:
        """End the node process (idempotent)."""
        end_process(self._process)

    def __enter__(self) -> ChampionPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
