"""``python -m bench.review_validation`` (the review's validation): its rank correlation,
its games written for gnubg, and both commands' lines of figures."""

from __future__ import annotations

import re

import pytest

import bench.review_validation as validation
from bench.review_latency import main as latency
from bench.review_validation import (
    gnubg_path,
    main,
    mat_record,
    played_games,
    ranks,
    reference_losses,
    spearman,
)
from nardy import RULESETS
from nardy.mat import MAT_RULES, format_mat

BACKGAMMON = sorted(MAT_RULES)[0]


def test_ranks_share_ties_and_spearman_is_worked_by_hand():
    assert list(ranks([10, 20, 20, 5])) == [2, 3.5, 3.5, 1]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # d = (0, 0, 1, -1): 1 - 6 * 2 / (4 * 15) = 0.8
    assert spearman([1, 2, 3, 4], [1, 2, 4, 3]) == pytest.approx(0.8)


def test_the_games_swap_colours_and_are_written_as_one_money_session():
    games = played_games(BACKGAMMON, 2, 5, ("heuristic", "random"))
    assert [seated for _, seated in games] == [("heuristic", "random"), ("random", "heuristic")]
    text = format_mat(mat_record(BACKGAMMON, [g for g, _ in games]))
    assert " 0 point match" in text and text.count(" Game ") == 2


def test_a_stored_reference_is_read_for_the_same_games_and_plies_only(tmp_path, monkeypatch):
    calls: list[int] = []

    def analyse(rules, games, plies):
        calls.append(plies)
        return [[float(plies)] * len(g) for g in games]

    monkeypatch.setattr(validation, "gnubg_losses", analyse)
    games = [g for g, _ in played_games(BACKGAMMON, 2, 5, ("heuristic", "random"))]
    stored = str(tmp_path / "reference.json")
    first = reference_losses(BACKGAMMON, games, 2, stored)
    assert calls == [2] and [len(g) for g in first] == [len(g) for g in games]
    assert reference_losses(BACKGAMMON, games, 2, stored) == first and calls == [2]
    reference_losses(BACKGAMMON, games, 0, stored)  # other plies: analysed again
    assert calls == [2, 0]
    others = [g for g, _ in played_games(BACKGAMMON, 2, 6, ("heuristic", "random"))]
    reference_losses(BACKGAMMON, others, 0, stored)  # other games: analysed again
    assert calls == [2, 0, 0]


def test_levels_prints_a_line_per_level(capsys):
    other = next(r for r in RULESETS if r not in MAT_RULES)
    main(["levels", "--games", "2", "--depth", "0", "--rules", other,
          "--levels", "heuristic", "random"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{other}: 2 games of heuristic vs random")
    assert all(re.search(r"error rate [\d.]+ +rating +[\d.]+", line) for line in out[1:3])


@pytest.mark.skipif(gnubg_path() is None, reason="gnubg is not installed (CI installs it)")
def test_gnubg_compares_every_move_with_a_choice(capsys):
    main(["gnubg", "--games", "2", "--depths", "0", "--levels", "heuristic", "random"])
    out = capsys.readouterr().out
    assert re.search(r"Spearman rank correlation of the equity loss: -?[\d.]+", out)
    assert re.search(r"gnubg's blunders \(loss >= 0.08\): \d+", out)


def test_review_latency_prints_the_three_cases(capsys):
    latency(["--rules", BACKGAMMON, "--level", "network", "--positions", "3"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{BACKGAMMON}: network's decisions on 3 positions")
    labels = ["alone", "beside a review at nice 0", "beside a review at nice 10"]
    assert [line.split("wall")[0].strip() for line in out[1:4]] == labels
    assert all(re.search(r"p95 +[\d.]+", line) for line in out[1:4])
