"""The second training stage (computer/lab/train_search.py): the network fitted to its own
1-ply search on contact positions of its self-play games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from computer import bearoff, field
from computer.board import boards, profile
from computer.lab.train import widen
from computer.lab.train_search import contact_positions, fit, main, targets, train
from computer.network import Net, encoding, weights_digest
from computer.race import is_race
from computer.search import Evaluator
from computer.weights_io import load_net

RULES = "backgammon"


def small_net(seed: int = 2) -> Net:
    return widen(Net.create(6, np.random.default_rng(seed), encoding(RULES, "td-signed24").n_inputs,
                            encoding(RULES, "td-signed24").meta),
                 encoding(RULES), 6, np.random.default_rng(seed))


def test_only_contact_positions_are_kept():
    found = contact_positions(RULES, load_net(RULES), 3, random.Random(4))
    assert len(found) > 30
    prof = profile(RULES)
    for position, side in found:
        b = boards(RULES, [position], side)
        assert not is_race(b, prof)[0] and not bearoff.in_domain(b)[0]
    assert found == contact_positions(RULES, load_net(RULES), 3, random.Random(4))


def test_the_targets_are_the_one_ply_estimates_from_the_movers_side():
    net = load_net(RULES)
    found = contact_positions(RULES, net, 1, random.Random(5))[:20]
    y = targets(RULES, net, found)
    for (position, side), row in zip(found, y, strict=True):
        expected = Evaluator(RULES, net, race=True).one_ply([position], side)[0]
        assert np.allclose(row, expected, atol=1e-6)
        assert abs(row[0] - 0.5) < 0.5


def test_two_ply_targets_are_the_two_ply_estimates_full_or_reduced():
    net = load_net(RULES)
    found = contact_positions(RULES, net, 1, random.Random(5))[:6]
    for reduced in (False, True):
        y = targets(RULES, net, found, plies=2, reduced=reduced)
        for (position, side), row in zip(found, y, strict=True):
            evaluator = Evaluator(RULES, net, race=True, reduced=reduced)
            expected = evaluator.two_ply([position], side)[0]
            assert np.allclose(row, expected, atol=1e-6)
    assert not np.allclose(targets(RULES, net, found, plies=2), targets(RULES, net, found))
    with pytest.raises(ValueError, match="1-ply or 2-ply"):
        targets(RULES, net, found, plies=3)


needs_engine = pytest.mark.skipif(not field.available(),
                                  reason="the field engine is not installed")


@needs_engine
def test_the_field_teachers_targets_are_its_search_with_the_engine_valuing():
    """``--teacher field``: the same search with every position valued by the field
    engine, at 0 plies (its own estimate) or more; short nardy's moves, backgammon's board."""
    rules = "short_nardy"
    net = load_net(rules)
    found = contact_positions(rules, net, 1, random.Random(5))[:8]
    by_field = Evaluator(rules, net, race=True, field=True)
    for plies, search in ((0, by_field.static), (1, by_field.one_ply)):
        y = targets(rules, net, found, plies=plies, field=True)
        for (position, side), row in zip(found, y, strict=True):
            assert np.allclose(row, search([position], side)[0], atol=1e-6)
            by_field.clear()
    own = targets(rules, net, found, plies=1)
    assert not np.allclose(own, targets(rules, net, found, plies=1, field=True))


def test_the_field_teacher_is_refused_where_it_cannot_value(tmp_path, capsys):
    net = load_net("long_nardy")
    found = contact_positions("long_nardy", net, 1, random.Random(5))[:2]
    with pytest.raises(ValueError, match="cannot value 'long_nardy'"):
        targets("long_nardy", net, found, plies=1, field=True)
    with pytest.raises(ValueError, match="0-, 1-ply or 2-ply"):
        targets(RULES, load_net(RULES), [], plies=3, field=True)
    with pytest.raises(ValueError, match="no teacher 'gnubg'"):
        train(RULES, small_net(), rounds=1, games=1, seed=3, teacher="gnubg")
    out = tmp_path / "fitted.npz"
    with pytest.raises(SystemExit):
        main(["--rules", "long_nardy", "--teacher", "field", "--out", str(out)])
    assert "cannot value long_nardy positions" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--rules", RULES, "--plies", "0", "--out", str(out)])
    assert "0-ply targets are the network's own estimates" in capsys.readouterr().err
    assert not out.exists()


@needs_engine
def test_the_command_with_the_field_teacher_logs_it(tmp_path):
    start, out = tmp_path / "start.npz", tmp_path / "fitted.npz"
    small_net().save(start)
    main(["--rules", RULES, "--start", str(start), "--rounds", "1", "--games", "1",
          "--epochs", "1", "--eval-games", "0", "--plies", "0", "--teacher", "field",
          "--out", str(out)])
    log = out.with_suffix(".log").read_text().splitlines()
    assert "targets=0-ply teacher=field;" in log[1]
    fitted = Net.load(out, RULES)
    assert fitted.meta["search_teacher"] == "field" and fitted.meta["search_plies"] == "0"
    assert not np.array_equal(fitted.w1, small_net().w1)


def test_fitting_moves_the_network_towards_its_targets():
    net = small_net()
    found = contact_positions(RULES, load_net(RULES), 2, random.Random(6))
    x = encoding(RULES).encode(boards(RULES, [p for p, _ in found if _ == 0], 0))
    y = np.tile(np.array([0.9, 0.3, 0.02, 0.05, 0.01]), (len(x), 1))
    first, last = fit(net, x, y, epochs=20, batch=32, rate=0.01, rng=np.random.default_rng(1))
    assert last < first
    assert abs(float(net.forward(x)[:, 0].mean()) - 0.9) < 0.1


def test_the_stage_is_reproducible_and_logs_each_round():
    runs = []
    for _ in range(2):
        log: list[str] = []
        net = train(RULES, small_net(), rounds=2, games=2, seed=3, epochs=1, eval_games=2,
                    log=log)
        runs.append((net, log))
    (a, log_a), (b, _) = runs
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert [line.split()[0] for line in log_a] == ["round=1", "round=2"]
    assert all("positions=" in line and "vs_start_0ply=" in line for line in log_a)
    assert a.meta["search_rounds"] == "2" and a.meta["encoding"] == "shape-signed24"
    assert not np.array_equal(a.w1, small_net().w1)


def test_the_command_logs_its_start_and_rounds(tmp_path):
    start, out = tmp_path / "start.npz", tmp_path / "fitted.npz"
    small_net().save(start)
    main(["--rules", RULES, "--start", str(start), "--rounds", "1", "--games", "1",
          "--epochs", "1", "--eval-games", "0", "--plies", "2", "--reduced", "--out", str(out)])
    log = out.with_suffix(".log").read_text().splitlines()
    assert log[0].startswith("# python -m computer.lab.train_search --rules backgammon")
    assert log[1].startswith(f"# start=start.npz sha256={weights_digest(start)} "
                             "(shape-signed24, 6 hidden, ")
    assert "targets=2-ply reduced teacher=search;" in log[1]
    assert log[2].startswith("round=1 ") and log[3].startswith("# done in ")
    fitted = Net.load(out, RULES)
    assert fitted.meta["search_rounds"] == "1" and fitted.meta["search_plies"] == "2 reduced"
    assert fitted.meta["search_teacher"] == "search"


def test_reduced_without_two_plies_is_refused(tmp_path, capsys):
    out = tmp_path / "fitted.npz"
    with pytest.raises(SystemExit):
        main(["--rules", RULES, "--rounds", "1", "--games", "1", "--reduced", "--out", str(out)])
    assert "--reduced is the reduced 2-ply" in capsys.readouterr().err
    assert not out.exists() and not out.with_suffix(".log").exists()
