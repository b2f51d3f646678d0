"""The race network's second stage (computer/lab/race_rollouts.py): race positions of
self-play, rolled out to the exact database, the network fitted to them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from computer import bearoff
from computer.board import boards, profile, ruleset
from computer.lab.race_rollouts import DICE36, main, race_positions, rollout, train
from computer.network import Net, flip
from computer.race import is_race, load_race_net
from computer.search import Evaluator
from computer.weights_io import load_net

RULES = "backgammon"


def position(mine: dict[int, int], theirs: dict[int, int]):
    """White (side 0) has just moved: ``mine`` by White's points, ``theirs`` by Black's
    own points (backgammon's numbering is mirrored: Black's ``q`` is White's ``25 - q``);
    the checkers not listed are borne off."""
    points = dict(mine)
    points.update({25 - q: -n for q, n in theirs.items()})
    board = {"perspective": "white", "points": points,
             "off": {"mine": 15 - sum(mine.values()), "theirs": 15 - sum(theirs.values())}}
    return ruleset(RULES).codec.position(board)[1]


def test_a_rollout_that_ends_after_one_roll_is_the_mean_over_the_36_rolls():
    """Black's last checker is on its 8 point: whatever it rolls, it must play it home or
    off, so every trial ends after Black's move, and the rollout is the mean over the 36
    first rolls (each exactly once) of what Black's 0-ply choice leads to."""
    start = position({2: 2, 3: 1}, {8: 1})
    b = boards(RULES, [start], 0)
    assert is_race(b, profile(RULES))[0] and not bearoff.in_domain(b)[0]
    evaluator = Evaluator(RULES, load_net(RULES), race=load_race_net(RULES))
    rs = ruleset(RULES)
    expected = np.zeros(5)
    ended = 0
    for dice in DICE36:
        results = rs.legal_positions(start, 1, dice, False)
        values = evaluator.static(results, 1)
        best = results[int(np.argmax(values[:, 0] * 2 - 1 + values[:, 1] + values[:, 2]
                                     - values[:, 3] - values[:, 4]))]
        if rs.outcome(best) is not None:
            ended += 1
            expected += flip(np.array([1.0, 0, 0, 0, 0]))  # Black bore its checker off
        else:
            assert bearoff.in_domain(boards(RULES, [best], 1))[0]
            expected += flip(bearoff.exact_outputs(boards(RULES, [best], 1))[0])
    assert 0 < ended < 36  # some rolls bear it off, the others bring it home
    got = rollout(evaluator, start, 0, 72, random.Random(3))
    assert np.allclose(got, expected / 36, rtol=0, atol=1e-12)


def test_a_longer_rollout_is_reproducible_and_a_probability():
    start = position({5: 3, 6: 3, 9: 2, 11: 2}, {6: 3, 4: 3, 10: 2, 13: 2})
    evaluator = Evaluator(RULES, load_net(RULES), race=load_race_net(RULES))
    one = rollout(evaluator, start, 0, 36, random.Random(5))
    assert np.array_equal(one, rollout(evaluator, start, 0, 36, random.Random(5)))
    assert 0.0 < one[0] < 1.0 and np.all((one >= 0) & (one <= 1))


@pytest.mark.parametrize("trials", [0, 30, -36])
def test_trials_are_a_positive_multiple_of_36(trials):
    evaluator = Evaluator(RULES, load_net(RULES), race=load_race_net(RULES))
    with pytest.raises(ValueError, match="multiple of 36"):
        rollout(evaluator, position({2: 1}, {8: 1}), 0, trials, random.Random(1))


def test_the_positions_are_races_outside_the_database():
    found = race_positions(RULES, load_net(RULES), load_race_net(RULES), 4, random.Random(2))
    assert len(found) >= 4
    prof = profile(RULES)
    for p, side in found:
        b = boards(RULES, [p], side)
        assert is_race(b, prof)[0] and not bearoff.in_domain(b)[0]
        assert ruleset(RULES).outcome(p) is None
    assert found == race_positions(RULES, load_net(RULES), load_race_net(RULES), 4,
                                   random.Random(2))


def test_a_round_fits_the_race_network_and_says_so(tmp_path):
    out = tmp_path / "race.npz"
    main(["--rules", RULES, "--rounds", "1", "--games", "2", "--trials", "36",
          "--epochs", "2", "--out", str(out)])
    net = Net.load(out, RULES)
    assert net.meta["class"] == "race" and net.meta["rollout_rounds"] == "1"
    assert not np.allclose(net.w1, load_race_net(RULES).w1)
    log = out.with_suffix(".log").read_text().splitlines()
    assert log[0].startswith("# python -m computer.lab.race_rollouts --rules backgammon")
    assert log[1].startswith("# start=backgammon-race.npz sha256=")
    assert log[2].startswith("round=1 ") and "positions=" in log[2]
    assert log[-1].startswith("# done in")
    again = train(RULES, 1, 2, 36, 1, epochs=2)
    assert np.allclose(again.w1, net.w1, atol=1e-6)  # the same command, the same weights


@pytest.mark.parametrize("argv, message", [
    (["--rules", "nard"], "does not bear off"),
    (["--trials", "40"], "multiple of 36"),
])
def test_the_command_refuses(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit):
        main([*argv, "--out", str(tmp_path / "x.npz")])
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()
