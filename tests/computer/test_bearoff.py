"""The exact bear-off databases: hand values, a brute force through
the engine's own legal plays, the two-sided formula, and their use by the levels."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from bench.bearoff_agreement import ExactRace
from computer import bearoff
from computer.board import boards, profile
from computer.lab.arena import ArenaError, check_player, make_player
from computer.network import equity
from computer.search import ROLLS, Evaluator
from computer.weights_io import load_net
from nardy import RULESETS
from tests.computer.util import sample_positions

BEARING_OFF = [name for name in RULESETS if profile(name).bears_off]


def dist(counts):
    off, _ = bearoff.load()
    return off[int(bearoff.index(np.array(counts))[0])]


def test_the_rule_sets_that_bear_off_are_read_from_the_descriptor():
    assert [n for n in RULESETS if RULESETS[n].descriptor.bears_off] == BEARING_OFF
    assert "nard" not in BEARING_OFF and len(BEARING_OFF) == 3
    assert not bearoff.bears_off("nard")


def test_every_home_of_up_to_15_checkers_is_a_row():
    pos = bearoff.positions()
    assert pos.shape == (54264, 6) and pos.sum(axis=1).max() == 15
    assert (bearoff.index(pos) == np.arange(len(pos))).all()
    off, first = bearoff.load()
    assert off.shape == (54264, bearoff.MAX_ROLLS)
    assert np.allclose(off.sum(axis=1), 1.0, atol=1e-3)
    on = pos.sum(axis=1)
    assert np.allclose(first[on == 15].sum(axis=1), 1.0, atol=1e-3)


@pytest.mark.parametrize(("counts", "rolls"), [
    ([1, 0, 0, 0, 0, 0], {1: 1.0}),  # one checker on point 1: any roll bears it off
    ([2, 0, 0, 0, 0, 0], {1: 1.0}),  # two on point 1: both dice (or a double) do
    # One on point 6: 27 of 36 rolls bear it off at once (a six, a total of 6 or more, a
    # double but 1-1); 1-1, 1-2, 1-3, 1-4, 2-3 leave it on point 1..3, off next roll.
    ([0, 0, 0, 0, 0, 1], {1: 27 / 36, 2: 9 / 36}),
    ([0, 0, 0, 0, 0, 0], {0: 1.0}),
])
def test_values_by_hand(counts, rolls):
    expected = np.zeros(bearoff.MAX_ROLLS)
    for n, p in rolls.items():
        expected[n] = p
    assert np.allclose(dist(counts), expected, atol=1e-4)
    assert bearoff.expected_rolls(counts) == pytest.approx(
        sum(n * p for n, p in rolls.items()), abs=1e-4)


def home_of(rules, position, side):
    b = boards(rules, [position], side)
    assert b.mine[0, 6:].sum() == 0
    return tuple(int(n) for n in b.mine[0, :6])


@pytest.mark.parametrize("rules", BEARING_OFF)
def test_the_tables_plays_are_each_rule_sets_legal_plays(rules):
    """R25-R26, H12: in the domain, the results of every roll by the engine's
    ``legal_positions`` are exactly the database's successors, for each rule set."""
    rs = RULESETS[rules]
    rng = random.Random(27)
    pos = bearoff.positions()
    for _ in range(25):
        mine, theirs = pos[rng.randrange(1, len(pos))], pos[rng.randrange(1, len(pos))]
        side = rng.randrange(2)
        position = bearoff.race_position(rules, mine, theirs, side)
        row = bearoff.index(mine)
        for dice, _ in ROLLS:
            engine = {home_of(rules, p, side) for p in rs.legal_positions(position, side,
                                                                          dice, False)}
            found = bearoff.successors(row, dice)[0]
            table = {tuple(int(n) for n in pos[i]) for i in found if i < len(pos)}
            assert engine == table, (rules, mine, theirs, dice)


@pytest.mark.parametrize("rules", BEARING_OFF)
def test_a_brute_force_through_the_engine_on_a_reduced_board(rules):
    """Up to 3 checkers on points 1..3, by plain recursion through the engine's legal
    plays (the opponent waiting with 15 checkers on its point 6): the expected rolls
    and the distributions equal the database's."""
    rs = RULESETS[rules]

    @cache
    def solve(home):
        if sum(home) == 0:
            return 0.0, (1.0,) + (0.0,) * 23
        position = bearoff.race_position(rules, [*home, 0, 0, 0], [0, 0, 0, 0, 0, 15])
        e, d = 1.0, np.zeros(24)
        for dice, weight in ROLLS:
            results = {home_of(rules, p, 0)[:3] for p in rs.legal_positions(position, 0,
                                                                            dice, False)}
            values = [solve(r) for r in results]
            best = min(values, key=lambda v: v[0])
            e += weight * best[0]
            d[1:] += weight * np.array(best[1][:-1])
        return e, tuple(d)

    for a in range(4):
        for b in range(4 - a):
            for c in range(4 - a - b):
                e, d = solve((a, b, c))
                assert bearoff.expected_rolls([a, b, c, 0, 0, 0]) == pytest.approx(e, abs=1e-4)
                assert np.allclose(dist([a, b, c, 0, 0, 0]), d, atol=1e-4)


def test_the_two_sided_formula_by_hand():
    six, one, full = [0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0], [15, 0, 0, 0, 0, 0]
    win, x_two, y_two = bearoff.race(np.array([six, six, one, six]),
                                     np.array([six, one, six, full])).T
    # X on 6 against Y on 6: X off at once (3/4), or Y fails too (1/4 * 1/4).
    assert win[0] == pytest.approx(3 / 4 + 1 / 16, abs=1e-4)
    # Y on point 1 wins at its first roll: X must be off at once.
    assert win[1] == pytest.approx(3 / 4, abs=1e-4)
    assert win[2] == pytest.approx(1.0, abs=1e-4)
    # Y with 15 on point 1 needs 2+ rolls and gets a checker off at its first: X wins,
    # by a mars/gammon only when off at once.
    assert win[3] == pytest.approx(1.0, abs=1e-4)
    assert x_two[3] == pytest.approx(3 / 4, abs=1e-4)
    assert (y_two == 0).all() and (x_two[:3] == 0).all()


def test_a_mars_needs_the_loser_to_have_none_off():
    # X (to roll) has all 15 on point 6: a roll without a six takes none off, and then Y
    # (one checker on point 1, off at its first roll) wins 2.
    full6 = [0, 0, 0, 0, 0, 15]
    win, _, y_two = bearoff.race(np.array([full6]), np.array([[1, 0, 0, 0, 0, 0]])).T
    _, first = bearoff.load()
    g = first[int(bearoff.index(np.array(full6))[0])]
    assert win[0] == pytest.approx(0.0, abs=1e-4)
    assert y_two[0] == pytest.approx(1.0 - g[1], abs=1e-4)
    assert g[0] == 0 and 0 < g[1] < 1


@pytest.mark.parametrize("rules", BEARING_OFF)
def test_the_levels_value_a_race_by_the_database(rules):
    net = load_net(rules)
    position = bearoff.race_position(rules, [2, 1, 0, 3, 0, 1], [0, 2, 2, 0, 1, 0])
    exact = Evaluator(rules, net).static([position], 0)
    b = boards(rules, [position], 0)
    assert np.array_equal(exact, bearoff.exact_outputs(b))
    assert not np.allclose(Evaluator(rules, net, exact_race=False).static([position], 0),
                           exact)


@pytest.mark.parametrize("rules", [*BEARING_OFF, "nard"])
def test_decisions_outside_the_domain_are_unchanged(rules):
    """Contact positions (their searches never reach a race): the same choices and
    bit-for-bit the same values with the database as without."""
    net = load_net(rules)
    on, off = Evaluator(rules, net), Evaluator(rules, net, exact_race=False)
    checked = 0
    for position, side, dice, first in sample_positions(rules, 40, seed=5):
        plays = RULESETS[rules].legal_plays(position, side, dice, first)
        results = [p.position for p in plays]
        if bearoff.in_domain(boards(rules, results, side)).any() or checked == 12:
            continue
        checked += 1
        assert np.array_equal(on.static(results, side), off.static(results, side))
        for plies in (0, 1):
            assert on.best_play(plays, side, plies) == off.best_play(plays, side, plies)
    assert checked == 12


def test_the_database_choice_matches_an_exact_solution_on_small_races():
    """The race target's unit check (bench/bearoff_agreement.py measures it at scale):
    on a handful of two-sided races of up to 3 checkers a side, the play the levels'
    0-ply picks with the database is the one of highest exact win chance."""

    solver = ExactRace(3)
    rules = "long_nardy"
    net = load_net(rules)
    rng = random.Random(3)
    checked = 0
    while checked < 15:
        x, y = solver.sample(rng)
        dice = ROLLS[rng.randrange(len(ROLLS))][0]
        plays = RULESETS[rules].legal_plays(bearoff.race_position(rules, x, y), 0, dice, False)
        if len({p.position for p in plays}) < 2:
            continue
        choice = Evaluator(rules, net).best_play(plays, 0, 0)
        values = [solver.after(home_of_or_empty(rules, p.position), y) for p in plays]
        assert values[choice] == pytest.approx(max(values), abs=1e-9)
        checked += 1


def home_of_or_empty(rules, position):
    b = boards(rules, [position], 0)
    return tuple(int(n) for n in b.mine[0, :6])


def test_equity_in_the_domain_has_no_triple():
    rules = "backgammon"
    position = bearoff.race_position(rules, [0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0])
    probs = Evaluator(rules, load_net(rules)).static([position], 0)
    assert probs[0, 2] == 0 and probs[0, 4] == 0
    assert equity(probs)[0] < -1.0  # a mars/gammon against the side with 15 on point 6


def test_the_arena_plays_a_learned_level_without_the_database():
    assert make_player("long_nardy", "network-nodb").exact_race is False
    assert make_player("long_nardy", "network").exact_race is True
    with pytest.raises(ArenaError):
        check_player("long_nardy", "heuristic-nodb")


def test_the_committed_database_is_what_the_build_computes():
    assert bearoff.PATH.exists()
    with np.load(bearoff.PATH) as stored:
        fresh = bearoff.build()
        assert all(np.array_equal(stored[k], fresh[k]) for k in ("off", "first"))


# -- the two-sided table (exact win chance, both sides up to TWO_SIDED checkers) -------


def two_value(x, y):
    local, table = bearoff.load_two_sided()
    return table[local[bearoff.index(np.array(x))[0]], local[bearoff.index(np.array(y))[0]]]


def test_two_sided_values_by_hand():
    six, one, two_on_one = [0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]
    # One checker on point 6 against one on point 1: off at once (27 of 36) or lose.
    assert two_value(six, one) == pytest.approx(27 / 36, abs=1e-9)
    # Against one on point 6: off at once, or the other fails too (9/36) and then any
    # roll bears off what is left (on points 1..3).
    assert two_value(six, six) == pytest.approx(27 / 36 + (9 / 36) ** 2, abs=1e-9)
    # Two checkers on point 1 against one on point 1: every roll bears both off.
    assert two_value(two_on_one, one) == pytest.approx(1.0, abs=1e-9)
    # One on point 1 against two on point 1: off at once.
    assert two_value(one, two_on_one) == pytest.approx(1.0, abs=1e-9)
    # Three on point 1 against one on point 1: only a double (6 of 36) bears all three off.
    assert two_value([3, 0, 0, 0, 0, 0], one) == pytest.approx(6 / 36, abs=1e-9)
    local, table = bearoff.load_two_sided()
    assert table.shape == (924, 924) and (table[0] == 1).all() and (table[1:, 0] == 0).all()
    assert local[bearoff.index(np.array([0, 0, 0, 0, 0, 7]))[0]] == len(table)


@pytest.mark.parametrize("rules", BEARING_OFF)
def test_two_sided_against_a_brute_force_through_the_engine(rules):
    """Both sides up to 3 checkers on points 1..3: plain recursion through the engine's
    ``legal_positions``, each side playing to maximise its win chance, gives the
    table's values."""
    rs = RULESETS[rules]

    @cache
    def win(x, y):  # x to roll (side 0), y waiting; both non-empty
        position = bearoff.race_position(rules, [*x, 0, 0, 0], [*y, 0, 0, 0])
        total = 0.0
        for dice, weight in ROLLS:
            results = {home_of(rules, p, 0)[:3] for p in rs.legal_positions(position, 0,
                                                                            dice, False)}
            total += weight * max(1.0 if sum(r) == 0 else 1.0 - win(y, r) for r in results)
        return total

    homes = [(a, b, c) for a in range(4) for b in range(4 - a) for c in range(4 - a - b)
             if a + b + c]
    for x in homes:
        for y in homes:
            assert two_value([*x, 0, 0, 0], [*y, 0, 0, 0]) == pytest.approx(win(x, y),
                                                                           abs=1e-9)


def test_two_sided_equals_the_bench_solver():
    """bench/bearoff_agreement.py's expectimax (written apart) on races of up to 4 a side."""

    solver = ExactRace(4)
    small, value = bearoff.two_sided(4)
    assert np.array_equal(small, solver.rows)
    assert np.abs(value[1:, 1:] - solver.value[1:-1, 1:-1]).max() < 1e-12
    local, table = bearoff.load_two_sided()
    at = local[small]
    assert np.abs(table[np.ix_(at, at)][1:, 1:] - value[1:, 1:]).max() < 1e-9


def test_race_reads_the_two_sided_table_where_both_are_small():
    pos = bearoff.positions()
    on = pos.sum(axis=1)
    rng = np.random.default_rng(27)
    small = rng.choice(np.flatnonzero((on > 0) & (on <= bearoff.TWO_SIDED)), (50, 2))
    big = rng.choice(np.flatnonzero(on > bearoff.TWO_SIDED), 50)
    win = bearoff.race(pos[small[:, 0]], pos[small[:, 1]])
    assert np.allclose(win[:, 0], [two_value(pos[a], pos[b]) for a, b in small], atol=1e-9)
    assert (win[:, 1:] == 0).all()
    # One side above the table's size: the one-sided formula, as before.
    off, _ = bearoff.load()
    mixed = bearoff.race(pos[big], pos[small[:, 0]])[:, 0]
    px, py = off[big], off[small[:, 0]]
    at_least = np.ones_like(py)
    at_least[:, 1:] = 1.0 - np.cumsum(py, axis=1)[:, :-1]
    assert np.allclose(mixed, np.clip((px * at_least).sum(axis=1), 0.0, 1.0))
