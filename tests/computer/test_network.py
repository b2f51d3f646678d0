"""The network: encoding, forward pass, TD targets and updates, saving and loading."""

from __future__ import annotations

import math
import random

import numpy as np

from computer.board import boards, profile, ruleset
from computer.lab.train import _targets, self_play, train
from computer.network import N_OUTPUTS, TD_INPUTS, Net, encode, equity, flip, outcome_vector

from .util import sample_positions


def test_forward_shape_and_hand_computed_example():
    w1 = np.zeros((2, TD_INPUTS))
    w1[0, 0], w1[1, 1] = 1.0, -2.0
    w2 = np.zeros((N_OUTPUTS, 2))
    w2[0] = (1.0, 1.0)
    w2[3] = (0.0, 3.0)
    net = Net(w1, np.array([0.5, 0.0]), w2, np.array([0.0, 0.0, -1.0, 0.0, 0.0]))
    x = np.zeros((3, TD_INPUTS))
    x[1, 0] = 1.0
    x[2, 1] = 1.0
    probs = net.forward(x)
    assert probs.shape == (3, N_OUTPUTS)
    sig = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    h1 = math.tanh(1.5)                     # row 1: hidden = (tanh(1 + 0.5), tanh(0))
    h2 = math.tanh(-2.0)                    # row 2: hidden = (tanh(0.5), tanh(-2))
    expected = [
        [sig(math.tanh(0.5)), 0.5, sig(-1), 0.5, 0.5],
        [sig(h1), 0.5, sig(-1), 0.5, 0.5],
        [sig(math.tanh(0.5) + h2), 0.5, sig(-1), sig(3 * h2), 0.5],
    ]
    assert np.allclose(probs, expected, atol=1e-6)


def test_encoding_of_the_start_and_its_symmetry():
    rs = ruleset("long_nardy")
    b = boards("long_nardy", [rs.initial()], 0)
    x = encode(b, profile("long_nardy"))
    assert x.shape == (1, TD_INPUTS)
    half = TD_INPUTS // 2
    assert np.array_equal(x[0, :half], x[0, half:])  # the start looks the same to both
    assert list(x[0, 92:96]) == [1, 1, 1, 3]           # 15 on own point 24: n >= 1, 2, 3, 12/4
    assert x[0, :92].sum() == 0
    for position, _, _, _ in sample_positions("long_nardy", 10, seed=2):
        white = encode(boards("long_nardy", [position], 0), profile("long_nardy"))[0]
        black = encode(boards("long_nardy", [position], 1), profile("long_nardy"))[0]
        assert np.array_equal(white[:half], black[half:])


def test_flip_and_equity():
    p = np.array([0.7, 0.2, 0.05, 0.1, 0.01])
    assert np.allclose(flip(p), [0.3, 0.1, 0.01, 0.2, 0.05])
    assert np.allclose(flip(flip(p)), p)
    assert math.isclose(equity(p), 0.4 + 0.25 - 0.11)
    assert math.isclose(equity(p, mars=False), 0.4)
    assert math.isclose(equity(outcome_vector(2)), 2.0)


def test_td_update_reduces_error_on_a_fixed_target():
    rng = np.random.default_rng(3)
    net = Net.create(16, rng)
    x = (rng.random((40, TD_INPUTS)) < 0.2).astype(np.float64)
    target = rng.random((40, N_OUTPUTS))
    before = net.train_step(x, target, 0.0)
    for _ in range(100):
        net.train_step(x, target, 0.005)
    after = net.train_step(x, target, 0.0)
    assert after < 0.8 * before, (before, after)


def test_lambda_returns():
    """λ = 0: each target is the next estimate seen from the other side; λ = 1: the
    result, flipped at every turn back from the end."""
    values = [np.full(5, 0.1 * (t + 1)) for t in range(3)]
    inputs = [np.zeros(TD_INPUTS) for _ in range(3)]
    final = outcome_vector(2)  # the side that moved last (after t = 2) won a mars
    _, td0 = _targets(inputs, values, final, 0.0)
    assert np.allclose(td0[2], flip(final)) and np.allclose(td0[0], flip(values[1]))
    _, mc = _targets(inputs, values, final, 1.0)
    assert np.allclose(mc[2], flip(final)) and np.allclose(mc[1], final)
    assert np.allclose(mc[0], flip(final))


def test_self_play_game_gives_one_training_row_per_turn_but_the_last():
    net = Net.create(8, np.random.default_rng(1))
    x, target, turns = self_play("long_nardy", net, random.Random(4), 0.7)
    assert x.shape == (turns - 1, TD_INPUTS) and target.shape == (turns - 1, N_OUTPUTS)
    assert ((target >= 0) & (target <= 1)).all()


def test_a_self_play_game_without_a_result_is_abandoned_not_an_error(monkeypatch):
    """Cut at 5 turns (no game of any rule set ends that soon), the game gives no
    training rows, and the training run carries on and says how many it abandoned."""

    net = Net.create(8, np.random.default_rng(1))
    x, target, turns = self_play("backgammon", net, random.Random(4), 0.7, max_turns=5)
    assert (x.shape, target.shape, turns) == ((0, TD_INPUTS), (0, N_OUTPUTS), 5)
    log: list[str] = []
    monkeypatch.setattr("computer.lab.train.self_play",
                        lambda *a, **k: self_play(*a, **k, max_turns=5))
    train("backgammon", 3, seed=2, hidden=8, report=3, eval_games=0, log=log)
    assert log[-1].endswith("abandoned=3"), log
