"""``python -m bench.loss_classes``: gnubg's equity loss of a level's moves by class of
position (the classes checked on hand-made boards; the whole run skipped without gnubg)."""

from __future__ import annotations

import numpy as np
import pytest

from bench import loss_classes
from bench.analysis import heuristic_game
from bench.review_validation import gnubg_path
from computer.bearoff import race_position
from computer.board import Boards, boards


def board(mine: dict[int, int], theirs: dict[int, int], bar: int = 0) -> Boards:
    """One position seen by the mover: own points -> checkers, the opponent's own points
    -> checkers, the mover's bar; the rest borne off."""
    m = np.zeros((1, 24), dtype=np.int64)
    t = np.zeros((1, 24), dtype=np.int64)
    for p, n in mine.items():
        m[0, p - 1] = n
    for q, n in theirs.items():
        t[0, q - 1] = n
    bars = np.array([[bar, 0]])
    off = np.array([[15 - bar - int(m.sum()), 15 - int(t.sum())]])
    return Boards(m, t, bars, off)


def test_each_class_on_a_position_made_for_it() -> None:
    home = race_position("backgammon", [3, 3, 3, 2, 2, 2], [2, 2, 2, 3, 3, 3])
    assert loss_classes.classify(boards("backgammon", [home], 0)) == ["bear-off db"]
    # my checkers on my 7..12, theirs on their 7..12 (my 13..18): passed, no contact
    race = board({7: 3, 8: 3, 9: 3, 10: 2, 11: 2, 12: 2}, {7: 3, 8: 3, 9: 3, 10: 2, 11: 2, 12: 2})
    assert loss_classes.classify(race) == ["race"]
    opening = {24: 2, 13: 5, 8: 3, 6: 5}
    assert loss_classes.classify(board(opening, opening)) == ["contact, other"]
    assert loss_classes.classify(board({24: 1, 13: 5, 8: 3, 6: 5}, opening, bar=1)) == [
        "contact, bar"]
    back = {24: 2, 22: 1, 13: 4, 6: 5, 5: 3}
    assert loss_classes.classify(board(back, opening)) == ["contact, 3+ back"]
    bearing = {24: 1, 9: 3, 6: 5, 5: 3, 4: 3}  # 11 home, one anchor man back
    assert loss_classes.classify(board(bearing, opening)) == ["contact, bear-in/off"]
    assert loss_classes.classify(board({24: 1, 9: 4, 6: 5, 5: 3, 4: 2}, opening)) == [
        "contact, other"]  # 10 home


def test_the_table_sums_the_classes_and_counts_blunders() -> None:
    by = {name: [] for name in loss_classes.CLASSES}
    by["race"] = [0.1, 0.0]
    by["contact, other"] = [0.02, 0.08]
    lines = loss_classes.table(by)
    rows = {line[:22].strip(): line[22:].split() for line in lines[1:]}
    assert rows["race"] == ["2", "0.0500", "1", "50.0%"]
    assert rows["contact, other"] == ["2", "0.0500", "1", "50.0%"]
    assert rows["bear-off db"] == ["0", "0.0000", "0", "0.0%"]
    assert rows["all"] == ["4", "0.0500", "2", "100.0%"]


def test_gnubg_rounding_below_zero_counts_as_no_loss_and_moves_must_match() -> None:
    game = heuristic_game("backgammon", 3)[:4]
    by = loss_classes.tally([game], [[-0.001, None, 0.05, 0.0]])
    assert sorted(x for values in by.values() for x in values) == [0.0, 0.0, 0.05]
    with pytest.raises(SystemExit, match="another number of moves"):
        loss_classes.tally([game], [[0.0]])


@pytest.mark.skipif(gnubg_path() is None, reason="gnubg is not installed")
def test_the_command_prints_a_row_per_class(capsys: pytest.CaptureFixture[str]) -> None:
    loss_classes.main(["--level", "heuristic", "--games", "2", "--seed", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("backgammon: 2 games of heuristic against itself, seed 3")
    names = [line[:22].strip() for line in lines[3:]]
    assert names == [*loss_classes.CLASSES, "all"]
    moves = [int(line[22:].split()[0]) for line in lines[3:]]
    assert moves[-1] == sum(moves[:-1]) > 0


def test_bad_weights_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        loss_classes.main(["--race-weights", "/no/such.npz"])
    assert stopped.value.code == 2 and "/no/such.npz" in capsys.readouterr().err
