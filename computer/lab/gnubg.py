"""GNU Backgammon as an opponent in the arena (backgammon only), and its move notation.

:class:`GnubgPlayer` drives one persistent ``gnubg`` process (Debian package
``gnubg``) in its no-GUI Python scripting mode (``gnubg -t -q -r -p script``): the
script (:data:`SERVER`) reads one request a line — a position ID
(:meth:`HitPosition.gnubg_id`) and a roll — and answers with
``gnubg.findbestmove`` at **0-ply** (or 1-ply: the arena's ``gnubg-1ply``), **cubeless,
no noise**, money play without the Jacoby rule (so gammons and backgammons count, as in
the arena) or the first game of a match. Its move comes back
as ``(from, to)`` pairs in the mover's numbering (25 = the bar, 0 = off), is applied
to the engine's position here (:func:`apply_steps`) and matched against the engine's
legal plays by the resulting position; a move that matches none raises
:class:`GnubgError`.

:func:`parse_move` reads gnubg's written notation (``24/18(2) 13/7*/5 bar/22 6/off``,
as ``hint`` prints it); ``tests/engine/hitting/test_gnubg.py`` uses it with
:func:`apply_steps` to compare every legal move with gnubg's.
"""

from __future__ import annotations

import os
import queue
import random
import re
import shutil
import subprocess
import tempfile
import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from nardy import BACKGAMMON_RULES, BoardPosition, HitPosition, Side
from nardy import BoardPlay as Play

from .external import end_process

Steps = tuple[tuple[int, int], ...]
"""A move as ``(from, to)`` pairs in the mover's numbering: 25 is the bar, 0 off."""

BAR = 25
OFF = 0

TIMEOUT = 60.0
"""Seconds to wait for gnubg's start or for one answer."""

PREFIX = "nard-gnubg"
"""Marks the script's own lines among whatever else gnubg prints."""

SERVER = f'''\
import sys

import gnubg

gnubg.command("set jacoby off")
# Money play (MATCH_TO 0), centred cube, no Jacoby rule: gammons count (the evaluation
# is cubeless); or the first game of a MATCH_TO-point match (gammons worth what they do
# for the match: nothing in a 1-point one).
CUBE = gnubg.cubeinfo(1, -1, 0, MATCH_TO, (0, 0), 0, 0)
CONTEXT = {{"cubeful": 0, "plies": PLIES, "deterministic": 1, "prune": 0, "noise": 0.0}}


def answer(text):
    sys.stdout.write("{PREFIX} " + text + "\\n")
    sys.stdout.flush()


answer("ready")
while True:
    line = sys.stdin.readline()
    words = line.split()
    if not line or words == ["quit"]:
        break
    try:
        board = gnubg.positionfromid(words[0])
        move = gnubg.findbestmove(board, CUBE, CONTEXT, (int(words[1]), int(words[2])))
        text = gnubg.movetupletostring(move, board) if move else ""
        answer("move " + " ".join(str(n) for n in move) + "|" + text)
    except Exception as error:
        answer("error " + repr(error))
'''
"""The script gnubg runs: one request a line (``<position ID> <die> <die>``), one
answer a line (``move <from> <to> ...|<notation>`` or ``error ...``), ``quit`` ends it.
``MATCH_TO`` and ``PLIES`` are set before it (:func:`server_script`)."""


def server_script(match: int = 0, plies: int = 0) -> str:
    """:data:`SERVER` for money play (``match=0``) or for the first game of a ``match``-point
    match, gnubg searching ``plies`` (0: its raw network; 1: one roll ahead)."""
    if match < 0:
        raise ValueError(f"a match length is positive, or 0 for money play, not {match}")
    if plies not in (0, 1, 2):
        raise ValueError(f"gnubg plays at 0, 1 or 2 plies here, not {plies}")
    return f"MATCH_TO = {int(match)}\nPLIES = {int(plies)}\n" + SERVER


class GnubgError(RuntimeError):
    """gnubg is missing, failed, or answered a move that is not legal here."""


def find_gnubg() -> str | None:
    """The gnubg executable (``$PATH``, then Debian's ``/usr/games/gnubg``), or None."""
    return shutil.which("gnubg") or next(
        (p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), None)


MOVE_TOKEN = re.compile(r"(bar|\d+)((?:/(?:\d+|off)\*?)+)(?:\((\d)\))?")


def parse_move(text: str) -> Steps:
    """gnubg's notation (``24/18(2) 13/7*/5 bar/22 6/off``) as ``(from, to)`` pairs,
    repeats (``(2)``) and chains (``13/7*/5``: 13 to 7, then 7 to 5) spelt out.
    Raises ``ValueError`` for text it cannot read."""
    steps: list[tuple[int, int]] = []
    for token in text.split():
        m = MOVE_TOKEN.fullmatch(token)
        if not m:
            raise ValueError(f"cannot read gnubg move {token!r} in {text!r}")
        start = BAR if m.group(1) == "bar" else int(m.group(1))
        points = [OFF if part.rstrip("*") == "off" else int(part.rstrip("*"))
                  for part in m.group(2).split("/")[1:]]
        for _ in range(int(m.group(3) or 1)):
            here = start
            for there in points:
                steps.append((here, there))
                here = there
    return tuple(steps)


def apply_steps(position: HitPosition, side: Side, steps: Sequence[tuple[int, int]],
                ) -> HitPosition:
    """The backgammon position after ``side`` moves checkers by ``steps`` (``(from,
    to)`` in its own numbering, 25 = bar, 0 = off). Landing on a single opposing
    checker hits it (gnubg marks hits with ``*``, but not on every repeat of ``(2)``;
    the points a step passes over are not landed on). Raises ``ValueError`` when a
    step starts where ``side`` has no checker."""
    mine = [0] * 26  # 0 = off, 25 = the bar
    theirs = [0] * 25
    for p, n in position.in_perspective(side).items():
        if n > 0:
            mine[p] = n
        else:
            theirs[p] = -n
    mine[BAR] = position.bar_of(side)
    mine[OFF] = position.off_of(side)
    their_bar = position.bar_of(1 - side)
    for here, there in steps:
        if not (0 < here <= BAR and 0 <= there < here and mine[here] > 0):
            raise ValueError(f"{steps!r}: no checker of side {side} can go {here} to {there}")
        mine[here] -= 1
        mine[there] += 1
        if there != OFF and theirs[there] == 1:
            theirs[there] = 0
            their_bar += 1
    counts = {p: mine[p] - theirs[p] for p in range(1, 25) if mine[p] or theirs[p]}
    return BACKGAMMON_RULES.position_from_perspective(
        side, counts, mine[OFF], position.off_of(1 - side), mine[BAR], their_bar)


def apply_move(position: HitPosition, side: Side, text: str) -> HitPosition:
    """The position after ``side`` plays gnubg's written move ``text``."""
    return apply_steps(position, side, parse_move(text))


class GnubgPlayer:
    """One gnubg process answering best moves at ``plies`` (0 by default, see the module
    doc); ``match``: money play (0) or the first game of a ``match``-point match.

    ``new_game`` and ``choose`` make it an arena player (:class:`computer.lab.arena.Player`);
    ``close`` (or ``with``) ends the process, which also ends by itself when this
    process's end closes its input.
    Raises :class:`GnubgError` when gnubg is not installed or does not start."""

    name = "gnubg"

    def __init__(self, executable: str | None = None, match: int = 0, plies: int = 0) -> None:
        path = executable or find_gnubg()
        if path is None:
            raise GnubgError("GNU Backgammon is not installed (Debian: apt-get install "
                             "gnubg; looked on $PATH and in /usr/games)")
        self._dir = tempfile.TemporaryDirectory(prefix="nard-gnubg-")
        script = Path(self._dir.name) / "server.py"
        script.write_text(server_script(match, plies))
        self._recent: deque[str] = deque(maxlen=20)
        self._answers: queue.Queue[str | None] = queue.Queue()
        try:
            self._process = subprocess.Popen(
                [path, "-t", "-q", "-r", "-p", str(script)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                cwd=self._dir.name, env={**os.environ, "HOME": self._dir.name})
        except OSError as error:
            raise GnubgError(f"cannot start {path}: {error}") from None
        threading.Thread(target=self._read, daemon=True).start()
        self._expect("ready")

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            line = line.rstrip("\n")
            if line.startswith(PREFIX + " "):
                self._answers.put(line[len(PREFIX) + 1:])
            else:
                self._recent.append(line)
        self._answers.put(None)

    def _expect(self, kind: str) -> str:
        try:
            answer = self._answers.get(timeout=TIMEOUT)
        except queue.Empty:
            answer = f"error no answer in {TIMEOUT:.0f} s"
        if answer is None or not answer.startswith(kind):
            self.close()
            said = "\n".join(self._recent)
            raise GnubgError(f"gnubg failed ({answer or 'it ended'}); its output:\n{said}")
        return answer[len(kind):].strip()

    def best_move(self, position: HitPosition, side: Side, dice: tuple[int, int],
                  ) -> tuple[Steps, str]:
        """gnubg's best move for ``side`` to play ``dice`` in ``position``: the steps
        and gnubg's notation (both empty when nothing can be played)."""
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(f"{position.gnubg_id(side)} {dice[0]} {dice[1]}\n")
            self._process.stdin.flush()
        except OSError as error:
            raise GnubgError(f"gnubg is gone: {error}") from None
        numbers, _, text = self._expect("move").partition("|")
        values = [int(n) for n in numbers.split()]
        return tuple(zip(values[::2], values[1::2], strict=True)), text

    def new_game(self, rng: random.Random) -> None:
        """gnubg is deterministic here (no noise): nothing to draw."""

    def choose(self, position: BoardPosition, side: Side, dice: tuple[int, int],
               first_turn: bool, plays: Sequence[Play]) -> int:
        """The index in ``plays`` (the engine's legal plays) of gnubg's move. Raises
        :class:`GnubgError` when its move is none of them."""
        if not isinstance(position, HitPosition) or position.rules != "backgammon":
            raise GnubgError("gnubg plays backgammon only")
        steps, text = self.best_move(position, side, dice)
        try:
            target = apply_steps(position, side, steps)
        except ValueError as error:
            target, text = None, f"{text} ({error})"
        for i, play in enumerate(plays):
            if play.position == target:
                return i
        raise GnubgError(f"gnubg's move {text or '(none)'} {steps} for side {side} with "
                         f"{dice[0]}-{dice[1]} in {position.gnubg_id(side)} is not one of "
                         f"the {len(plays)} legal plays: {', '.join(map(str, plays))}")

    def close(self) -> None:
        """End the gnubg process (idempotent)."""
        end_process(self._process)
        self._dir.cleanup()

    def __enter__(self) -> GnubgPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
