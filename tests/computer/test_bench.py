"""``python -m bench.computer`` runs and prints a line of figures per level (the
figures themselves are the benchmark's to print, not a test's to judge)."""

from __future__ import annotations

import re

import pytest

from bench import computer as bench_computer
from bench import filters
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


def test_the_filter_bench_scores_each_setting_against_its_reference(capsys):
    """``python -m bench.filters``: a line per setting, its agreement an interval that
    holds it, the committed setting first; a setting as wide as the reference agrees."""

    wide = filters.Setting("as wide as the reference",
                           (filters.Filter(99, 99.0), filters.Filter(3, 99.0)), 2)
    filters.SETTINGS = (*filters.SETTINGS, wide)
    try:
        filters.main(["--rules", "backgammon", "--positions", "3", "--reference-keep", "3"])
    finally:
        filters.SETTINGS = filters.SETTINGS[:-1]
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("backgammon: 3 decisions (seed 1); reference: all plays")
    rows = [re.match(r"(.+?) +([\d.]+) % \[([\d.]+), +([\d.]+)\] +([\d.]+) / +([\d.]+) "
                     r"+([\d.]+) / +(\d+)$", line) for line in lines[2:]]
    assert all(rows) and rows[0].group(1) == "committed"
    for row in rows:
        share, low, high = (float(row.group(k)) for k in (2, 3, 4))
        assert low <= share <= high
    assert rows[-1].group(1) == "as wide as the reference"
    assert float(rows[-1].group(2)) == 100.0 and float(rows[-1].group(5)) == 0.0


def test_expert_full_is_benched_beside_the_reduced_expert(capsys, monkeypatch):
    """``--levels expert,expert-full``: where the expert's 2-ply is reduced, the full
    search is timed too, each with its own picker."""

    calls = []
    real = bench_computer.picker
    monkeypatch.setattr(bench_computer, "picker",
                        lambda *a, **k: calls.append(k.get("reduced", "-")) or real(*a, **k))
    main(["--rules", "short_nardy", "--positions", "2", "--levels", "expert,expert-full"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1::2]] == ["expert", "expert-full"]
    assert calls == ["-", None, False]  # the sample's heuristic, then the two


def test_backgammons_levels_are_timed_as_the_server_plays_them(capsys):
    """By default every learned level the rule set has, ``world-class`` in backgammon,
    each line naming the engine that played it."""
    from computer import field
    from computer.levels import engine_of

    main(["--rules", "backgammon", "--positions", "2", "--levels", "strong,world-class"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1::2]] == ["strong", "world-class"]
    assert lines[3].endswith(f"({engine_of('backgammon', 'world-class')})")
    if field.available():
        assert "(Open Sage " in lines[3]


def test_the_field_engines_bench_times_each_installed_engine(capsys):
    """``python -m bench.field_engines``: a line per engine and depth (gnubg-nn only where
    it is installed; it is not a dependency)."""
    from bench import field_engines
    from computer import field

    field_engines.main(["--positions", "2", "--gnubg-nn", "/nonexistent"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("backgammon: 2 positions")
    timed = [line for line in lines[1:] if re.search(r"\d-ply +mean", line)]
    assert len(timed) == (3 if field.available() else 0) + (
        3 if field_engines._gnubg_nn(None) is not None else 0)
