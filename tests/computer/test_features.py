"""The contact and shape encodings' features: computer/features.py, checked by
hand on concrete positions (docs/computer.md, "Contact features", "Shape features")."""

from __future__ import annotations

import numpy as np
import pytest

from computer import features
from computer.board import Boards, boards, profile, ruleset
from computer.lab import previous_network
from computer.lab.train import widen
from computer.network import (
    CONTACT_INPUTS,
    SHAPE_INPUTS,
    TD_INPUTS,
    Net,
    encode,
    encoding,
    net_encoding,
)
from computer.search import Evaluator
from tests.computer.util import one_board as board
from tests.computer.util import sample_positions

SHOTS, PIPS_LOST, BLOTS, ESCAPES, CLOSED, ANCHORS, BACK = range(7)
MOBILITY = slice(7, 13)


def extras(rules: str, b: Boards, side: int = 0) -> np.ndarray:
    counts = np.stack((b.mine, b.theirs), axis=1)
    return features.contact(counts, b.bar, profile(rules))[0, side]


# Shots at one blot from one checker d pips behind it, nothing in between (out of 36):
# the table every backgammon player learns.
SHOT_TABLE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2,
              12: 3, 13: 0, 15: 1, 16: 1, 18: 1}


@pytest.mark.parametrize("distance", sorted(SHOT_TABLE))
def test_shots_at_a_blot_are_the_classic_numbers(distance):
    # My blot on my 20-point; the opponent's one checker `distance` pips behind it (my
    # point 20 - distance is its point 25 - (20 - distance)); my other 14 on my 1-point.
    b = board({20: 1, 1: 14}, {5 + distance: 1})
    x = extras("backgammon", b)
    assert x[SHOTS] == pytest.approx(SHOT_TABLE[distance] / 36)
    assert x[PIPS_LOST] == pytest.approx(SHOT_TABLE[distance] / 36 * (25 - 20) / 25)
    assert x[BLOTS] == pytest.approx(1 / 5)


def test_held_points_block_the_combination_shots():
    # Eight away (6 shots), my points 2 and 6 pips in front of the hitter held: 6-2 and
    # 2-2 cannot pass, 5-3 and 4-4 still hit.
    hitter = 20 - 8                                      # my point 12
    b = board({20: 1, hitter + 2: 2, hitter + 6: 2, 1: 10}, {25 - hitter: 1})
    assert extras("backgammon", b)[SHOTS] == pytest.approx(3 / 36)


def test_an_entering_checker_hits_and_the_costliest_hit_counts():
    # The opponent on the bar enters on my points 1..6 (its 24..19): my blot on my
    # 3-point is 3 away (14 shots) and costs 22 pips; my blot on 23 is out of reach (no
    # roll moves one checker 23 pips); my 24-point stands in no path.
    b = board({3: 1, 23: 1, 24: 13}, {}, bar=(0, 1))
    x = extras("backgammon", b)
    assert x[SHOTS] == pytest.approx(14 / 36)
    assert x[PIPS_LOST] == pytest.approx(14 / 36 * 22 / 25)
    assert x[BLOTS] == pytest.approx(2 / 5)
    # Two blots in reach: each roll counts the hit that costs most (the lower point).
    b = board({3: 1, 5: 1, 24: 13}, {}, bar=(0, 1))
    x = extras("backgammon", b)
    both = sum(1 for a in range(1, 7) for c in range(1, 7)
               if {3, 5} & {a, c, a + c} or (a == c and {3, 5} & {a * k for k in (3, 4)}))
    assert x[SHOTS] == pytest.approx(both / 36)
    hits_3 = SHOT_TABLE[3]
    assert x[PIPS_LOST] == pytest.approx((hits_3 * 22 + (both - hits_3) * 20) / 36 / 25)


def test_escapes_of_the_rearmost_checker():
    # My back checker on my 24-point: free road, a six-prime in front, one block 6 away.
    assert extras("backgammon", board({24: 1, 1: 14}, {}))[ESCAPES] == 1.0
    prime = {25 - p: 2 for p in range(18, 24)}           # the opponent holds my 18..23
    assert extras("backgammon", board({24: 1, 1: 14}, prime))[ESCAPES] == 0.0
    one = board({24: 1, 1: 14}, {25 - 18: 2})            # my 18-point: 6 pips ahead
    # Lands on the block: 5-1, 4-2, 3-3 (5 rolls); 6-6 cannot stop 6 pips on: 30 left.
    assert extras("backgammon", one)[ESCAPES] == pytest.approx(30 / 36)
    # From the bar the checker stands at 25: the same block is 7 pips ahead.
    assert extras("backgammon", board({1: 14}, {25 - 18: 2}, bar=(1, 0)))[ESCAPES] == \
        pytest.approx(1 - 6 / 36)                         # 6-1, 5-2, 4-3


def test_mobility_from_the_bar_and_on_the_board():
    closed = dict.fromkeys(range(1, 7), 2)                 # the opponent's home closed
    assert list(extras("backgammon", board({1: 14}, closed, bar=(1, 0)))[MOBILITY]) == [0] * 6
    one_held = board({1: 14}, {1: 2}, bar=(1, 0))         # its 1-point is my 24: a 1 stays out
    assert list(extras("backgammon", one_held)[MOBILITY]) == [0, 1, 1, 1, 1, 1]
    # All home, one checker on my 2-point: every die bears it off or moves it.
    assert list(extras("backgammon", board({2: 1}, {20: 2}))[MOBILITY]) == [1] * 6
    # Long Nardy: one checker blocks (R6); my last checker on my 8-point, the opponent
    # on my 7, 5 and 2 (its 19, 17 and 14): the dice 1, 3 and 6 are blocked.
    b = board({8: 1}, {19: 1, 17: 1, 14: 1})
    assert list(extras("long_nardy", b)[MOBILITY]) == [0, 1, 0, 1, 1, 0]


@pytest.mark.parametrize(("rules", "expected"), [
    # escapes 24/36 (the opponent's 6, 8 and 13 points are 5, 7 and 12 in front of my
    # back checkers), my 6-point closed, my 24-point an anchor, two checkers back.
    ("backgammon", [0, 0, 0, 24 / 36, 1 / 6, 1 / 3, 2 / 5, 1, 1, 1, 1, 1, 1]),
    # Long Nardy: the opponent's head is 12 in front of mine (6-6 lands on it), no hits,
    # nothing in the opponent's home.
    ("long_nardy", [0, 0, 0, 35 / 36, 0, 0, 0, 1, 1, 1, 1, 1, 1]),
])
def test_the_starting_position(rules, expected):
    b = boards(rules, [ruleset(rules).initial()], 0)
    for side in (0, 1):
        assert extras(rules, b, side) == pytest.approx(np.array(expected, np.float32))


@pytest.mark.parametrize("rules", ["long_nardy", "backgammon", "short_nardy", "nard"])
def test_the_contact_encoding_extends_the_td_encoding(rules):
    enc = encoding(rules, "contact-signed24")
    assert (enc.name, enc.n_inputs) == ("contact-signed24", CONTACT_INPUTS)
    rs = ruleset(rules)
    for position, side, dice, first in sample_positions(rules, 12, seed=5):
        b = boards(rules, rs.legal_positions(position, side, dice, first), side)
        x = enc.encode(b)
        assert np.array_equal(x[:, :TD_INPUTS], encode(b, profile(rules)))
        swapped = enc.encode(b.flipped())  # the two sides' blocks swap with the view
        half = features.EXTRA
        assert np.array_equal(x[:, TD_INPUTS:TD_INPUTS + half], swapped[:, TD_INPUTS + half:])


@pytest.mark.parametrize("rules", ["long_nardy", "backgammon"])
def test_a_widened_network_starts_where_its_start_was(rules):
    start = Net.load(previous_network(rules, "td-signed24"), rules)
    assert net_encoding(rules, start).name == "td-signed24"
    wide = widen(start, encoding(rules), 96, np.random.default_rng(1))
    assert (wide.n_inputs, wide.hidden) == (SHAPE_INPUTS, 96)
    assert net_encoding(rules, wide).name == "shape-signed24"
    positions = []
    rs = ruleset(rules)
    for position, side, dice, first in sample_positions(rules, 10, seed=6):
        positions += [(p, side) for p in rs.legal_positions(position, side, dice, first)]
    for p, side in positions[:50]:
        a = Evaluator(rules, start, race=False, exact_race=False).static([p], side)
        b = Evaluator(rules, wide, race=False, exact_race=False).static([p], side)
        assert np.allclose(a, b, atol=1e-6)
    with pytest.raises(ValueError, match="cannot widen"):
        widen(wide, encoding(rules, "td-signed24"), 96, np.random.default_rng(1))


# --- the shape features ----------------------------------------------------------------

HEAD, QUARTER, NOT_HOME, BEAR_IN, REAR, LAST_THREE, SPARE_PIPS, TRAPPED = range(8)


def shape(rules: str, b: Boards, side: int = 0) -> np.ndarray:
    counts = np.stack((b.mine, b.theirs), axis=1)
    return features.shape(counts, b.bar, profile(rules))[0, side]


def test_shape_of_a_long_nardy_block():
    # Mine: a run on my 16..19 (the opponent's 4..7, R2) and 11 home; the opponent's 3
    # checkers past it on its 3-point, 3 on its 8 and 10 on its head, all behind the run.
    b = board({16: 1, 17: 1, 18: 1, 19: 1, 1: 11}, {3: 2, 8: 3, 24: 10})
    assert shape("long_nardy", b, 0) == pytest.approx(np.array(
        [0, 1 / 15, 4 / 15, (10 + 11 + 12 + 13) / 200, 19 / 24, (19 + 18 + 17) / 75,
         10 / 300, 13 / 15], np.float32))
    # The opponent's: its points 3, 8 and 24 are my 15, 20 and 12: no run of three.
    assert shape("long_nardy", b, 1) == pytest.approx(np.array(
        [10 / 15, 10 / 15, 13 / 15, (2 * 3 + 10 * 18) / 200, 1, 72 / 75,
         (1 * 3 + 2 * 8 + 9 * 24) / 300, 0], np.float32))


def test_a_run_of_two_traps_nothing():
    b = board({13: 1, 14: 1, 1: 13}, {10: 4, 24: 11})
    assert shape("long_nardy", b)[TRAPPED] == 0


def test_shape_from_the_bar_and_behind_a_backgammon_prime():
    # My 18..20 held (the opponent's 5..7, H1): behind them its 8 and 24 and its bar.
    b = board({18: 2, 19: 2, 20: 2, 1: 9}, {8: 2, 24: 3, 1: 9}, bar=(0, 1))
    assert shape("backgammon", b)[TRAPPED] == pytest.approx(6 / 15)
    assert shape("backgammon", b)[SPARE_PIPS] == pytest.approx(7 / 300)   # 7 spare on my 1
    on_bar = board({1: 13}, {}, bar=(2, 0))
    got = shape("backgammon", on_bar)
    assert got[REAR] == pytest.approx(25 / 24)
    assert got[LAST_THREE] == pytest.approx((25 + 25 + 1) / 75)
    assert (got[QUARTER], got[NOT_HOME]) == pytest.approx((2 / 15, 2 / 15))
    assert got[BEAR_IN] == pytest.approx(2 * 19 / 200)
    assert got[SPARE_PIPS] == pytest.approx(11 / 300)


def test_the_starting_shape():
    b = boards("long_nardy", [ruleset("long_nardy").initial()], 0)
    start = [1, 1, 1, 15 * 18 / 200, 1, 72 / 75, 14 * 24 / 300, 0]
    for side in (0, 1):
        assert shape("long_nardy", b, side) == pytest.approx(np.array(start, np.float32))
    gone = board({}, {1: 15})                                  # nothing left of mine
    assert shape("long_nardy", gone)[[REAR, LAST_THREE, NOT_HOME]] == pytest.approx([0, 0, 0])


@pytest.mark.parametrize("rules", ["long_nardy", "backgammon", "short_nardy", "nard"])
def test_the_shape_encoding_extends_the_contact_encoding(rules):
    enc = encoding(rules)
    assert (enc.name, enc.n_inputs) == ("shape-signed24", SHAPE_INPUTS)
    rs = ruleset(rules)
    for position, side, dice, first in sample_positions(rules, 12, seed=5):
        b = boards(rules, rs.legal_positions(position, side, dice, first), side)
        x = enc.encode(b)
        assert np.array_equal(x[:, :CONTACT_INPUTS],
                              encoding(rules, "contact-signed24").encode(b))
        swapped = enc.encode(b.flipped())
        half = features.SHAPE
        assert np.array_equal(x[:, CONTACT_INPUTS:CONTACT_INPUTS + half],
                              swapped[:, CONTACT_INPUTS + half:])
