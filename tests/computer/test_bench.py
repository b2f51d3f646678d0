"""``python -m bench.computer`` runs and prints a line of figures per level (the
figures themselves are the benchmark's to print, not a test's to judge)."""

from __future__ import annotations

import re

import pytest

from bench.computer import decisions, main


def test_the_sample_is_decisions_with_a_choice():
    sample = decisions("backgammon", 12, seed=3)
    assert len(sample) == 12 and all(len(plays) > 1 for plays, _ in sample)
    assert sample == decisions("backgammon", 12, seed=3)


def test_it_prints_cpu_and_wall_figures_per_level(capsys):
    main(["--rules", "long_nardy", "--positions", "4", "--levels", "heuristic,network"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("long_nardy: 4 decisions from heuristic self-play (seed 1)")
    figures = re.compile(r"(CPU|wall) +mean +[\d.]+ +median +[\d.]+ +p95 +[\d.]+ +max +[\d.]+ ms")
    assert [bool(figures.search(line)) for line in lines[1:]] == [True] * 4


def test_a_level_the_rule_set_lacks_is_an_error(capsys, monkeypatch):
    monkeypatch.setattr("bench.computer.levels_for", lambda rules: {"random": "", "heuristic": ""})
    with pytest.raises(SystemExit) as stop:
        main(["--rules", "nard", "--levels", "expert"])
    assert stop.value.code == 2 and "nard has no level expert" in capsys.readouterr().err
