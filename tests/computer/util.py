"""Helpers for the computer's tests: sample positions of every rule set."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from computer.board import POINTS, Boards, ruleset
from computer.score import WINS_ONLY, Objective
from computer.search import Evaluator
from computer.weights_io import load_net
from nardy import RULESETS, BoardPosition, Side


def sample_positions(rules: str, count: int, seed: int,
                     ) -> list[tuple[BoardPosition, Side, tuple[int, int], bool]]:
    """(position, side to move, dice, first turn) from seeded random games of ``rules``."""
    rs = ruleset(rules)
    rng = random.Random(seed)
    found: list[tuple[BoardPosition, Side, tuple[int, int], bool]] = []
    while len(found) < count:
        position, side, first = rs.initial(), rng.randrange(2), [True, True]
        while rs.outcome(position) is None and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if rng.random() < 0.15:
                found.append((position, side, dice, first[side]))
            plays = rs.legal_plays(position, side, dice, first[side])
            first[side] = False
            position = rng.choice(plays).position
            side = 1 - side
    return found


def general_boards(positions: Sequence[BoardPosition], me: Side) -> Boards:
    """The positions as :class:`~computer.board.Boards` read through the engine's
    protocol only (``in_perspective``, ``bar_of``, ``off_of``): the reference that the
    computer's reading through the rule set's codec must equal."""
    n = len(positions)
    mine = np.zeros((n, POINTS), dtype=np.int64)
    theirs = np.zeros((n, POINTS), dtype=np.int64)
    bar = np.zeros((n, 2), dtype=np.int64)
    off = np.zeros((n, 2), dtype=np.int64)
    them = 1 - me
    for i, pos in enumerate(positions):
        for p, count in pos.in_perspective(me).items():
            if count > 0:
                mine[i, p - 1] = count
        for q, count in pos.in_perspective(them).items():
            if count > 0:
                theirs[i, q - 1] = count
        bar[i] = (pos.bar_of(me), pos.bar_of(them))
        off[i] = (pos.off_of(me), pos.off_of(them))
    return Boards(mine, theirs, bar, off)


def one_board(mine: dict[int, int], theirs: dict[int, int], bar: tuple[int, int] = (0, 0),
              ) -> Boards:
    """One position seen by ``me``: ``mine`` on own points, ``theirs`` on the opponent's
    own points (``q``), the rest of each side's 15 borne off."""
    m, t = np.zeros((1, POINTS), np.int64), np.zeros((1, POINTS), np.int64)
    for p, n in mine.items():
        m[0, p - 1] = n
    for q, n in theirs.items():
        t[0, q - 1] = n
    on = (sum(mine.values()) + bar[0], sum(theirs.values()) + bar[1])
    return Boards(m, t, np.array([bar], np.int64),
                  np.array([[15 - on[0], 15 - on[1]]], np.int64))


def differing(rules: str, count: int, seed: int = 3):
    """Sample decisions where the network's 0-ply choice differs between money play and
    playing for the win alone."""
    net = load_net(rules)
    wins = Objective.for_side(0, WINS_ONLY)
    found = []
    for position, side, dice, first in sample_positions(rules, 400, seed):
        plays = RULESETS[rules].legal_plays(position, side, dice, first)
        if len(plays) < 2:
            continue
        money = Evaluator(rules, net).best_play(plays, side, 0)
        alone = Evaluator(rules, net, objective=wins).best_play(plays, side, 0)
        if money != alone:
            found.append((position, side, dice, first, plays))
            if len(found) == count:
                break
    return found
