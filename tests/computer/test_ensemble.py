"""Several networks averaged into one (computer/lab/ensemble.py): the mean of their output
logits, as a network of their hidden units side by side."""

from __future__ import annotations

import numpy as np
import pytest

from computer.board import boards
from computer.lab.ensemble import average, main
from computer.network import Net, encoding, weights_digest
from computer.search import Evaluator
from tests.computer.util import sample_positions

RULES = "backgammon"


def member(hidden: int, seed: int, name: str | None = None) -> Net:
    enc = encoding(RULES, name)
    net = Net.create(hidden, np.random.default_rng(seed), enc.n_inputs, enc.meta)
    net.b1 = np.random.default_rng(seed + 100).normal(0.0, 0.3, hidden)  # not all zero
    return net


def logits(net: Net, x: np.ndarray) -> np.ndarray:
    """The output logits in float64, from the weights directly."""
    return np.tanh(x @ net.w1.T + net.b1) @ net.w2.T + net.b2


def inputs(name: str | None = None, count: int = 60) -> np.ndarray:
    positions = sample_positions(RULES, count, seed=41)
    b = boards(RULES, [p for p, _, _, _ in positions], 0)
    return encoding(RULES, name).encode(b).astype(np.float64)


def test_the_ensemble_is_the_mean_of_the_members_logits():
    a, b, c = member(5, 1), member(7, 2), member(3, 3)
    net = average([a, b, c], encoding(RULES))
    assert (net.hidden, net.n_inputs) == (15, encoding(RULES).n_inputs)
    assert net.meta["members"] == "3" and net.meta["hidden"] == "15"
    assert net.meta["encoding"] == encoding(RULES).name
    x = inputs()
    mean = (logits(a, x) + logits(b, x) + logits(c, x)) / 3
    assert np.allclose(logits(net, x), mean, rtol=0, atol=1e-12)
    # and what it plays with (float32): within float32's rounding of the same thing
    assert np.allclose(net.forward(x), 1 / (1 + np.exp(-mean)), rtol=0, atol=1e-5)
    # not the mean of the probabilities, which is another (here a measurably other) thing
    probs = np.mean([1 / (1 + np.exp(-logits(m, x))) for m in (a, b, c)], axis=0)
    assert not np.allclose(net.forward(x), probs, rtol=0, atol=1e-5)


def test_one_member_is_itself():
    a = member(6, 4)
    net = average([a], encoding(RULES))
    x = inputs().astype(np.float32)
    assert np.array_equal(net.forward(x), a.forward(x))


def test_a_member_of_an_older_encoding_reads_its_own_inputs_only():
    """A ``td-signed24`` member (208 inputs, the first of ``contact-signed24``'s) gets
    zero weights for the contact inputs: in the ensemble it computes what it computed."""
    old, new = member(4, 5, "td-signed24"), member(4, 6)
    net = average([old, new], encoding(RULES))
    assert np.all(net.w1[:4, encoding(RULES, "td-signed24").n_inputs:] == 0)
    expected = (logits(old, inputs("td-signed24")) + logits(new, inputs())) / 2
    assert np.allclose(logits(net, inputs()), expected, rtol=0, atol=1e-12)


def test_no_members_is_refused():
    with pytest.raises(ValueError, match="at least one member"):
        average([], encoding(RULES))


def test_the_command_writes_the_ensemble_and_a_log_naming_its_members(tmp_path):
    paths = []
    for i, hidden in enumerate((5, 3)):
        path = tmp_path / f"m{i}.npz"
        member(hidden, 10 + i).save(path)
        paths.append(path)
    out = tmp_path / "both.npz"
    main(["--rules", RULES, "--out", str(out), *map(str, paths)])
    net = Net.load(out, RULES)
    assert net.hidden == 8 and net.meta["ensemble"] == "m0.npz m1.npz"
    expected = average([Net.load(p, RULES) for p in paths], encoding(RULES))
    assert np.allclose(net.w2, expected.w2, atol=1e-7)  # saved as float32
    log = out.with_suffix(".log").read_text().splitlines()
    assert log[0].startswith("# python -m computer.lab.ensemble --rules backgammon")
    for path in paths:
        assert any(line.startswith("# member=") and path.name in line
                   and weights_digest(path) in line for line in log)
    assert log[-1].startswith("# done in")
    # the ensemble is a network like any other: the search reads it
    position, side, _, _ = sample_positions(RULES, 1, seed=5)[0]
    values = Evaluator(RULES, net, race=False).static([position], side)
    assert values.shape == (1, 5) and np.all((values >= 0) & (values <= 1))


def test_the_command_refuses_to_overwrite_a_member_or_mix_rule_sets(tmp_path, capsys):
    path = tmp_path / "m.npz"
    member(3, 1).save(path)
    with pytest.raises(SystemExit):
        main(["--rules", RULES, "--out", str(path), str(path)])
    assert "is one of the members" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--rules", "short_nardy", "--out", str(tmp_path / "x.npz"), str(path)])
    assert "not 'short_nardy'" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()
