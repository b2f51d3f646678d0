"""The fast search finds what a plain one finds.

``Reference`` below is the search written the simple way (as it was before it was made
fast): the engine's ``legal_plays`` for every roll, the network on each roll's plays
alone, loops over rows and rolls, ``computer.heuristic.blocks`` in the encoding. The
expert's and the other levels' choices on fixed positions must be the same, and the
estimates the same up to float32 rounding (the network's batches differ).
"""

from __future__ import annotations

import gc
import json
import random

import numpy as np
import pytest

from computer import features, levels
from computer.board import (
    boards,
    packed_boards,
    packed_rows,
    pips,
    profile,
    ruleset,
    untouched,
)
from computer.heuristic import blocks
from computer.levels import REDUCED, picker
from computer.network import (
    CONTACT_INPUTS,
    TD_INPUTS,
    Net,
    encode,
    equity,
    flip,
    outcome_vector,
)
from computer.search import (
    EXPERT_FILTERS,
    ROLL_GROUPS,
    ROLLS,
    Evaluator,
    Filter,
    gc_paused,
    group_argmax,
    group_top,
)
from computer.weights_io import load_net
from nardy import RULESETS

from .util import general_boards, sample_positions

RULES = sorted(RULESETS)
TINY_NET = Net.create(8, np.random.default_rng(5))


def reference_encode(b, prof):
    """The encoding as first written: a side at a time, the heuristic's blocks."""
    n = len(b)
    units = np.array([[k >= 1, k >= 2, k >= 3, max(k - 3, 0) / 4.0] for k in range(16)],
                     dtype=np.float32)
    x = np.empty((n, TD_INPUTS), dtype=np.float32)
    mine_pips, their_pips = pips(b)
    sides = ((b.mine, mine_pips, blocks(b, prof)),
             (b.theirs, their_pips, blocks(b.flipped(), prof)))
    for k, (counts, side_pips, (relevant, near, longest)) in enumerate(sides):
        base = k * 104
        bar = b.bar[:, k]
        x[:, base: base + 96] = units[counts].reshape(n, 96)
        x[:, base + 96] = bar >= 1
        x[:, base + 97] = bar / 4.0
        x[:, base + 98] = b.off[:, k] / 15.0
        x[:, base + 99] = side_pips / 200.0
        x[:, base + 100] = (counts[:, 6:].sum(axis=1) == 0) & (bar == 0)
        x[:, base + 101] = relevant / 6.0
        x[:, base + 102] = near / 6.0
        x[:, base + 103] = longest / 6.0
    return x


class Reference:
    """The search of computer.search, plainly: same definition, no shortcuts."""

    def __init__(self, rules, net, reply_filter=1, reduced=False):
        self.rules, self.rs, self.net = rules, ruleset(rules), net
        self.prof, self.reply_filter, self.reduced = profile(rules), reply_filter, reduced

    def static(self, positions, me):
        b = general_boards(positions, me)
        x = reference_encode(b, self.prof)
        if self.net.n_inputs == CONTACT_INPUTS:  # the contact features (test_features.py)
            extra = features.contact(np.stack((b.mine, b.theirs), axis=1), b.bar, self.prof)
            x = np.concatenate([x, extra.reshape(len(b), -1)], axis=1)
        probs = self.net.forward(x)
        for i, position in enumerate(positions):
            outcome = self.rs.outcome(position)
            if outcome is not None:
                won = outcome_vector(outcome.points)
                probs[i] = won if outcome.winner == me else flip(won)
        return probs

    def replies(self, position, mover, dice):
        first = bool(untouched(self.rules, general_boards([position], mover))[0])
        return [p.position for p in self.rs.legal_plays(position, mover, dice, first)]

    def deeper(self, positions, me, best_reply, rolls=ROLLS):
        """Each position's average over the opponent's ``rolls`` of
        ``best_reply(replies, dice)`` (estimates from the opponent's side), from ``me``'s
        side; exact when over."""
        result = self.static(positions, me)
        for i, position in enumerate(positions):
            if self.rs.outcome(position) is None:
                total = np.zeros(5)
                for dice, weight in rolls:
                    total += weight * best_reply(self.replies(position, 1 - me, dice), dice)
                result[i] = flip(total)
        return result

    def one_ply(self, positions, me, rolls=ROLLS):
        def best(replies, dice):
            probs = self.static(replies, 1 - me)
            return probs[int(np.argmax(equity(probs)))]
        return self.deeper(positions, me, best, rolls)

    def two_ply(self, positions, me):
        def best(replies, dice):
            eq = equity(self.static(replies, 1 - me))
            chosen = np.argsort(-eq, kind="stable")[: self.reply_filter]
            # Reduced: after the opponent's roll, the next group's rolls only.
            rolls = ROLLS
            if self.reduced:
                group = next(g for g, rs in enumerate(ROLL_GROUPS) if dice in dict(rs))
                rolls = ROLL_GROUPS[(group + 1) % 3]
            deep = self.one_ply([replies[int(k)] for k in chosen], 1 - me, rolls)
            return deep[int(np.argmax(equity(deep)))]
        return self.deeper(positions, me, best)

    def best_play(self, plays, me, plies, filters=EXPERT_FILTERS):
        """(index, (candidates, values) of the last ply searched or None)."""
        if len(plays) == 1:
            return 0, None
        positions = [p.position for p in plays]
        value = dict(enumerate(equity(self.static(positions, me))))
        for ply in range(1, plies + 1):
            keep = filters[min(ply - 1, len(filters) - 1)]
            ranked = sorted(value, key=lambda i: -value[i])[: keep.keep]  # stable
            ranked = [i for i in ranked if value[i] >= value[ranked[0]] - keep.margin]
            if len(ranked) == 1:
                return ranked[0], None
            subset = [positions[i] for i in ranked]
            deeper = self.one_ply(subset, me) if ply == 1 else self.two_ply(subset, me)
            value = dict(zip(ranked, equity(deeper), strict=True))
        best = max(value, key=lambda i: value[i])  # the first of equals, as argmax
        return best, (np.array(list(value)), np.array(list(value.values())))


def decisions(rules, count, seed):
    rs = ruleset(rules)
    for position, side, dice, first in sample_positions(rules, 4 * count, seed):
        plays = rs.legal_plays(position, side, dice, first)
        if len(plays) > 1:
            yield plays, side
            count -= 1
            if not count:
                return


@pytest.mark.parametrize("reduced", [True, False])
def test_expert_with_the_committed_network_chooses_as_the_reference(reduced):
    """Long Nardy's expert (a reduced 2-ply, ``computer.levels.REDUCED``) and its full
    2-ply (``reduced=False``, the arena's ``expert-full``)."""
    net = load_net("long_nardy")
    reference = Reference("long_nardy", net, reduced=reduced)
    expert = picker("long_nardy", "expert", race=False,  # the reference has no race net
                    reduced=None if reduced else False)
    searched = 0
    for plays, side in decisions("long_nardy", 14, seed=12):
        expected, deep = reference.best_play(plays, side, 2)
        assert expert(plays, side) == expected
        if deep is not None:  # the 2-ply values themselves, up to float32 rounding
            candidates, values = deep
            subset = [plays[int(i)].position for i in candidates]
            got = equity(Evaluator("long_nardy", net, race=False,
                                   reduced=reduced).two_ply(subset, side))
            assert np.allclose(got, values, rtol=0, atol=1e-5)
            searched += 1
    assert searched >= 3


@pytest.mark.parametrize("level, plies", [("network", 0), ("strong", 1)])
def test_lower_levels_choose_as_the_reference(level, plies):
    reference = Reference("long_nardy", load_net("long_nardy"))
    pick = picker("long_nardy", level, race=False)
    for plays, side in decisions("long_nardy", 20, seed=13):
        assert pick(plays, side) == reference.best_play(plays, side, plies)[0]


@pytest.mark.parametrize("rules", RULES)
def test_every_rule_set_and_a_wider_reply_filter(rules):
    """A tiny network, two replies a roll looked at deeper and three candidates: the
    same choices and values in every rule set (the hitting games read packed too)."""
    filters = (Filter(4, 2.0), Filter(3, 2.0))
    reference = Reference(rules, TINY_NET, reply_filter=2)
    for plays, side in decisions(rules, 2, seed=3):
        expected, deep = reference.best_play(plays, side, 2, filters)
        evaluator = Evaluator(rules, TINY_NET, reply_filter=2)
        assert evaluator.best_play(plays, side, 2, filters) == expected
        if deep is not None:
            candidates, values = deep
            subset = [plays[int(i)].position for i in candidates]
            assert np.allclose(equity(evaluator.two_ply(subset, side)), values, atol=1e-5)
            one = Reference(rules, TINY_NET).one_ply(subset, side)
            assert np.allclose(evaluator.one_ply(subset, side), one, atol=1e-5)
            assert np.allclose(evaluator.one_ply(subset, side, packed=False), one, atol=1e-5)


@pytest.mark.parametrize("rules", RULES)
def test_the_reduced_2_ply_is_the_reference_over_a_third_of_the_rolls(rules):
    """A reduced 2-ply (the expert's in short nardy and nard) averages, at its last ply,
    the group of rolls after the opponent roll's own: the same values and choices as a
    plain search doing just that, and other values than the full 2-ply's."""
    filters = (Filter(4, 2.0), Filter(3, 2.0))
    reference = Reference(rules, TINY_NET, reply_filter=2, reduced=True)
    full = Reference(rules, TINY_NET, reply_filter=2)
    differs = 0
    for plays, side in decisions(rules, 2, seed=3):
        expected, deep = reference.best_play(plays, side, 2, filters)
        evaluator = Evaluator(rules, TINY_NET, reply_filter=2, reduced=True)
        assert evaluator.best_play(plays, side, 2, filters) == expected
        assert deep is not None
        candidates, values = deep
        subset = [plays[int(i)].position for i in candidates]
        got = equity(evaluator.two_ply(subset, side))
        assert np.allclose(got, values, atol=1e-5)
        differs += not np.allclose(got, equity(full.two_ply(subset, side)), atol=1e-4)
    assert differs


def test_the_roll_groups_are_balanced_thirds_of_the_rolls():
    """The three groups share out the 21 rolls; each weighs 12 of 36 (two doubles, five
    others), shows every die value a third of its times, and moves 8 1/6 pips on average
    as the whole does."""
    def ordered(rolls):  # the 36 (or 12) rolls, a non-double both ways
        return [(a, b) for (a, b), w in rolls for a, b in ([(a, b)] if a == b
                                                           else [(a, b), (b, a)])]
    def pips(a, b):
        return 4 * a if a == b else a + b
    assert sorted(d for group in ROLL_GROUPS for d, _ in group) == sorted(d for d, _ in ROLLS)
    whole = ordered(ROLLS)
    assert len(whole) == 36
    mean = sum(pips(a, b) for a, b in whole) / 36
    for group in ROLL_GROUPS:
        thirds = ordered(group)
        assert len(thirds) == 12 and sum(1 for a, b in thirds if a == b) == 2
        assert sum(w for _, w in group) == pytest.approx(1.0)
        for value in range(1, 7):
            assert sum((a == value) + (b == value) for a, b in thirds) == 4
        assert sum(pips(a, b) for a, b in thirds) / 12 == pytest.approx(mean)
        for (a, b), w in group:
            assert w == pytest.approx((1 if a == b else 2) / 12)


def test_the_expert_reduces_its_2_ply_where_levels_say(monkeypatch):
    """``computer.levels.REDUCED``: the expert of the nardy games searches reduced,
    backgammon's in full; ``strong`` never reaches 2-ply."""
    assert {"long_nardy", "short_nardy", "nard"} == REDUCED
    seen = []

    class Spy(Evaluator):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            seen.append((self.rules, self.reduced))

    monkeypatch.setattr("computer.levels.Evaluator", Spy)
    for rules in RULES:
        plays, side = next(decisions(rules, 1, seed=4))
        for level in ("strong", "expert"):
            seen.clear()
            picker(rules, level, net=TINY_NET)(plays, side)
            picker(rules, level, net=TINY_NET, reduced=False)(plays, side)
            assert seen == [(rules, level == "expert" and rules in REDUCED), (rules, False)]


@pytest.mark.parametrize("rules, counts", [
    ("long_nardy", {1: 2, 2: 1, 13: -2, 14: -1}),   # the opponent's 1 and 2 are our 13, 14
    ("backgammon", {1: 2, 2: 1, 24: -2, 23: -1}),   # ... and here our 24 and 23 (H1)
])
def test_games_ending_inside_the_search_get_their_exact_results(rules, counts):
    """Both sides bearing off their last three: replies and leaves that end the game
    (read packed, the position then listed to read its result) are valued exactly. (The
    network's search, without the bear-off database, which would value these races:
    tests/computer/test_bearoff.py.)"""
    rs = ruleset(rules)
    position = rs.position_from_perspective(0, counts, 12, 12)  # White has just moved
    reference = Reference(rules, TINY_NET)
    evaluator = Evaluator(rules, TINY_NET, exact_race=False)
    assert np.allclose(evaluator.one_ply([position], 0), reference.one_ply([position], 0),
                       atol=1e-5)
    assert np.allclose(evaluator.two_ply([position], 0), reference.two_ply([position], 0),
                       atol=1e-5)
    for dice, _ in ROLLS:  # Black to play: every roll's choice at 2-ply
        plays = rs.legal_plays(position, 1, dice, False)
        expected = reference.best_play(plays, 1, 2, (Filter(8, 2.0),))[0]
        assert Evaluator(rules, TINY_NET, exact_race=False).best_play(
            plays, 1, 2, (Filter(8, 2.0),)) == expected


@pytest.mark.parametrize("rules", RULES)
def test_to_roll_is_the_reference_average(rules):
    reference = Reference(rules, TINY_NET)
    rs = ruleset(rules)
    for position, side, _, first in sample_positions(rules, 3, seed=8):
        total = np.zeros(5)
        for dice, weight in ROLLS:
            found = [p.position for p in rs.legal_plays(position, side, dice, first)]
            probs = reference.static(found, side)
            total += weight * probs[int(np.argmax(equity(probs)))]
        got = Evaluator(rules, TINY_NET).to_roll(position, side, first, 1)
        assert np.allclose(got, total, atol=1e-5)


@pytest.mark.parametrize("rules", RULES)
def test_encoding_is_the_reference_encoding_bit_for_bit(rules):
    """So training (tests/computer/test_train.py) repeats its results exactly."""
    positions = [p for p, _, _, _ in sample_positions(rules, 300, seed=5)]
    rs = ruleset(rules)
    rng = random.Random(1)
    positions += [rng.choice(rs.legal_plays(p, s, d, f)).position
                  for p, s, d, f in sample_positions(rules, 100, seed=6)]
    for me in (0, 1):
        b = boards(rules, positions, me)
        assert np.array_equal(encode(b, profile(rules)), reference_encode(b, profile(rules)))


@pytest.mark.parametrize("rules", RULES)
def test_packed_results_read_as_the_positions(rules):
    rs = ruleset(rules)
    for position, side, _, first in sample_positions(rules, 6, seed=7):
        dice = [d for d, _ in ROLLS]
        for roll, data in zip(dice, rs.legal_positions_packed(position, side, dice, first),
                              strict=True):
            found = rs.legal_positions(position, side, roll, first)
            for me in (0, 1):
                a, b = packed_boards(rules, packed_rows(rules, data), me), general_boards(found, me)
                for x, y in ((a.mine, b.mine), (a.theirs, b.theirs), (a.bar, b.bar),
                             (a.off, b.off)):
                    assert np.array_equal(x, y)


def test_group_maxima_are_numpys_per_group():
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 7, 50)
    values = rng.integers(0, 4, int(sizes.sum())).astype(float)  # many ties
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    expected = [s + int(np.argmax(values[s: s + n])) for s, n in zip(starts, sizes, strict=True)]
    assert list(group_argmax(values, sizes)) == expected
    kept, counts = group_top(values, sizes, 3)
    tops = [s + np.argsort(-values[s: s + n], kind="stable")[:3]
            for s, n in zip(starts, sizes, strict=True)]
    assert list(kept) == [int(i) for top in tops for i in top]
    assert list(counts) == [len(top) for top in tops]


def test_the_collector_is_paused_for_a_decision_and_back_after():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), gc_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()
    plays, side = next(decisions("long_nardy", 1, seed=12))
    evaluator = Evaluator("long_nardy", TINY_NET)
    evaluator.best_play(plays, side, 2)
    assert gc.isenabled() and not evaluator._positions and not evaluator._values


def test_the_reduced_rule_sets_are_read_from_the_weights_directory(tmp_path, monkeypatch):
    """``computer/weights/search.json`` lists them (data beside the networks, not a rule
    set's name in the code); a name that is no rule set is refused."""

    listed = json.loads(levels.SEARCH_FILE.read_text())["reduced_2_ply"]
    assert frozenset(listed) == REDUCED and set(listed) <= set(RULES)
    bad = tmp_path / "search.json"
    bad.write_text(json.dumps({"reduced_2_ply": ["long_nardy", "longnardy"]}))
    monkeypatch.setattr(levels, "SEARCH_FILE", bad)
    with pytest.raises(ValueError, match="no rule set 'longnardy'"):
        levels._reduced()
