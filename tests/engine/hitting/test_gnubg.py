"""Differential test: ``backgammon``'s legal moves agree with GNU Backgammon's.

Positions come from seeded random games played by the engine (so they include
checkers on the bar, hits and bearing off), each with a fresh random roll. One gnubg
process (Debian package ``gnubg``, text mode) gets every position by its gnubg
position ID (``HitPosition.gnubg_id``, which this also tests), the roll, and
``hint 1000``, which lists every distinct legal move. Each move is read and applied
to the board by ``computer.lab.gnubg`` (``apply_move``: a few plain lines, independent of
the engine's move generator), and the set of resulting positions must equal the
engine's. Skipped when gnubg is not installed.
"""

from __future__ import annotations

import random
import re
import subprocess

import pytest

from computer.lab.gnubg import apply_move, find_gnubg
from nardy import BACKGAMMON_RULES, BLACK, WHITE, HitPosition

GNUBG = find_gnubg()

pytestmark = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package "
                                "gnubg) is not installed")

GAMES = 8
EVERY = 2
MOVE_LINE = re.compile(r"^\s*\d+\.\s+Cube(?:ful|less)\s+\d+-ply\s+(.*?)\s+Eq\.:")


def queries() -> list[tuple[HitPosition, int, tuple[int, int]]]:
    rng = random.Random(1207)
    found = []
    for _ in range(GAMES):
        position = BACKGAMMON_RULES.initial()
        side = rng.choice((WHITE, BLACK))
        turn = 0
        while position.outcome() is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if turn % EVERY == 0:
                found.append((position, side, (rng.randint(1, 6), rng.randint(1, 6))))
            position = rng.choice(BACKGAMMON_RULES.legal_plays(position, side, dice)).position
            side = 1 - side
            turn += 1
    return found


def run_gnubg(cases: list[tuple[HitPosition, int, tuple[int, int]]]) -> list[list[str]]:
    """gnubg's listed moves for each case, in order."""
    lines = ["set player 0 human", "set player 1 human",
             # 0-ply: every move is listed and evaluated quickly; the order is not used.
             "set evaluation chequerplay evaluation plies 0",
             "set evaluation cubedecision evaluation plies 0", "new game"]
    for i, (position, side, (a, b)) in enumerate(cases):
        lines += [f"marker_{i}", f"set board {position.gnubg_id(side)}", f"set dice {a} {b}",
                  "hint 1000"]
    lines += [f"marker_{len(cases)}", "quit"]
    assert GNUBG is not None
    result = subprocess.run([GNUBG, "-t", "-q"], input="\n".join(lines) + "\n",
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=300, cwd="/tmp")
    output = result.stdout
    moves: list[list[str]] = []
    current: list[str] | None = None
    for line in output.splitlines():
        marker = re.search(r"Unknown keyword `marker_(\d+)'", line)
        if marker:
            if current is not None:
                moves.append(current)
            current = []
            continue
        m = MOVE_LINE.match(line)
        if m and current is not None:
            current.append(m.group(1))
    assert len(moves) == len(cases), output[-2000:]
    return moves


def test_the_sample_covers_the_bar_hits_and_bearing_off() -> None:
    cases = queries()
    assert 300 <= len(cases) <= 700
    assert any(p.bar_of(s) for p, s, _ in cases)
    assert any(p.all_home(s) and p.off_of(s) for p, s, _ in cases)


def test_gnubg_position_id_of_the_start() -> None:
    """gnubg's manual: the starting position is 4HPwATDgc/ABMA."""
    start = BACKGAMMON_RULES.initial()
    assert start.gnubg_id(WHITE) == start.gnubg_id(BLACK) == "4HPwATDgc/ABMA"
    assert BACKGAMMON_RULES.position_from_gnubg_id("4HPwATDgc/ABMA", BLACK) == start


def test_gnubg_position_id_puts_the_player_on_roll_second() -> None:
    """A public example (White to play 24:2 13:2 8:3 6:3 4:3 3:2 against 21, 19, 17,
    12 and 1 in White's numbering): the key lists the opponent first."""
    position = BACKGAMMON_RULES.position_from_gnubg_id("yOeDATDsnIMBMA", WHITE)
    assert position.in_perspective(WHITE) == {24: 2, 21: -1, 19: -5, 17: -5, 13: 2, 12: -2,
                                              8: 3, 6: 3, 4: 3, 3: 2, 1: -2}
    assert position.gnubg_id(WHITE) == "yOeDATDsnIMBMA"


def test_legal_moves_agree_with_gnubg() -> None:
    cases = queries()
    listed = run_gnubg(cases)
    mismatches = []
    for (position, side, dice), gnubg_moves in zip(cases, listed, strict=True):
        assert HitPosition.from_gnubg_id(position.gnubg_id(side), side) == position
        ours = {play.position for play in BACKGAMMON_RULES.legal_plays(position, side, dice)}
        theirs = {apply_move(position, side, move) for move in gnubg_moves}
        if not gnubg_moves:
            theirs = {position}  # no legal move: the one empty play
        if ours != theirs or len(gnubg_moves) not in (len(ours), 0):
            mismatches.append((position.to_id(), position.gnubg_id(side), side, dice,
                               len(ours), len(gnubg_moves)))
    assert not mismatches, mismatches[:5]
