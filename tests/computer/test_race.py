"""Position classes and the race network."""

from __future__ import annotations

import random

import numpy as np
import pytest

import computer.race as race
from computer import bearoff
from computer.board import boards, profile
from computer.lab.arena import make_player
from computer.lab.train_race import race_game, train
from computer.network import Net, WeightsMismatchError
from computer.race import is_race, load_race_net, race_weights_path
from computer.search import Evaluator
from computer.weights_io import load_net
from nardy import RULESETS
from tests.computer.util import one_board as board
from tests.computer.util import sample_positions

BEARING_OFF = [name for name in RULESETS if profile(name).bears_off]
MIRRORED = next(n for n in BEARING_OFF if profile(n).numbering == "mirrored")
ROTATED = next(n for n in BEARING_OFF if profile(n).numbering == "rotated")
WITH_RACE_NET = [n for n in BEARING_OFF if race_weights_path(n).exists()]


@pytest.mark.parametrize(("mine", "theirs", "bar", "race"), [
    ({10: 2}, {14: 2}, (0, 0), True),    # H1: 10 + 14 < 25, passed
    ({10: 2}, {16: 2}, (0, 0), False),   # the opponent's 16 is our 9: ours on 10 passes it
    ({1: 3}, {1: 3}, (1, 0), False),     # on the bar
    ({24: 1, 3: 2}, {}, (0, 0), True),   # nothing left to pass
])
def test_race_by_hand_mirrored(mine, theirs, bar, race):
    assert is_race(board(mine, theirs, bar), profile(MIRRORED))[0] == race


@pytest.mark.parametrize(("mine", "theirs", "race"), [
    # R2: the opponent's q is our q + 12 (q <= 12) or q - 12.
    ({5: 2}, {10: 2}, True),    # theirs on our 22, ours on 5 (their 17): passed
    ({5: 2}, {20: 2}, False),   # theirs on our 8 but must pass our 5 (their 17)
    ({20: 1}, {4: 1}, False),   # theirs on our 16: ours on 20 passes it
    ({12: 1, 1: 3}, {12: 1}, True),  # ours up to 12, theirs on our 24 and their way home
])
def test_race_by_hand_rotated(mine, theirs, race):
    assert is_race(board(mine, theirs), profile(ROTATED))[0] == race


@pytest.mark.parametrize("rules", BEARING_OFF)
def test_the_start_is_contact_and_the_bear_off_a_race(rules):
    rs = RULESETS[rules]
    assert not is_race(boards(rules, [rs.initial()], 0), profile(rules))[0]
    position = bearoff.race_position(rules, [2, 1, 0, 3, 0, 1], [0, 2, 2, 0, 1, 0])
    assert is_race(boards(rules, [position], 0), profile(rules))[0]
    assert is_race(boards(rules, [position], 1), profile(rules))[0]


@pytest.mark.parametrize("rules", BEARING_OFF)
def test_the_evaluator_reads_the_race_net_in_races_only(rules):
    net = load_net(rules)
    other = Net(net.w1 * 0.5, net.b1, net.w2, net.b2 + 0.3, net.meta)
    with_race = Evaluator(rules, net, race=other)
    without = Evaluator(rules, net, race=False)
    positions, sides = [], []
    for position, side, _dice, _first in sample_positions(rules, 400, seed=8):
        positions.append(position)
        sides.append(side)
    for side in (0, 1):
        group = [p for p, s in zip(positions, sides, strict=True) if s == side]
        b = boards(rules, group, side)
        racing = is_race(b, profile(rules)) & ~bearoff.in_domain(b)
        a, c = with_race.static(group, side), without.static(group, side)
        done = b.off[:, 0] == 15
        assert np.array_equal(a[~racing], c[~racing])
        assert not np.allclose(a[racing & ~done], c[racing & ~done])
    assert any(is_race(boards(rules, [p], s), profile(rules))[0]
               and not bearoff.in_domain(boards(rules, [p], s))[0]
               for p, s in zip(positions, sides, strict=True))


def test_a_race_net_must_say_it_is_one(tmp_path, monkeypatch):
    rules = MIRRORED
    net = load_net(rules)
    net.save(tmp_path / f"{rules}-race.npz")  # a contact network's meta: no class=race
    monkeypatch.setattr(race, "WEIGHTS_DIR", tmp_path)
    load_race_net.cache_clear()
    try:
        with pytest.raises(WeightsMismatchError):
            load_race_net(rules)
    finally:
        load_race_net.cache_clear()


def test_race_training_is_reproducible_and_trains_race_positions_only():
    rules = MIRRORED
    a = train(rules, 6, seed=3, report=6, eval_games=0)
    b = train(rules, 6, seed=3, report=6, eval_games=0)
    assert np.array_equal(a.w1, b.w1) and a.meta["class"] == "race"
    assert not np.array_equal(a.w1, load_net(rules).w1)
    net = load_net(rules)
    x, target, turns = race_game(rules, net, net, random.Random(5), 0.7)
    assert len(x) == turns and target.shape == (len(x), 5)


@pytest.mark.parametrize("rules", WITH_RACE_NET)
def test_the_committed_race_net_goes_with_the_committed_network_only(rules):
    net = load_net(rules)
    assert Evaluator(rules, net).race_net is load_race_net(rules) is not None
    copy = Net(net.w1, net.b1, net.w2, net.b2, net.meta)
    assert Evaluator(rules, copy).race_net is None
    assert Evaluator(rules, copy, race=True).race_net is load_race_net(rules)
    assert Evaluator(rules, net, race=False).race_net is None
    assert Evaluator("nard", load_net("nard")).race_net is None


def test_the_arena_plays_a_level_without_the_race_net():
    assert make_player(MIRRORED, "expert-norace").race is False
    assert make_player(MIRRORED, "expert-own").race is None  # the own network, committed pair
    assert WITH_RACE_NET  # the committed race networks (computer/weights/*-race.npz)
    assert make_player(MIRRORED, "expert-norace").level == "expert"
