"""A backgammon match as the `.mat` text GNU Backgammon imports
(``GET matches/{id}/export/?format=mat``, :mod:`nardy.mat`).

The round trip through gnubg itself (``/usr/games/gnubg -t``: ``import mat``, then its
``gnubg.match()``) checks that gnubg accepts every move, with the same dice and the same
checkers moved, from the same positions (gnubg's position ID of the engine's position
before each move), and scores every game as the server did. Skipped where gnubg is not
installed (CI installs it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import selectors
from games.models import Match
from nardy import RULESETS, Step, parse_side
from nardy.mat import MAT_RULES, format_mat, mat_refusal
from tests.games.test_record_round_trip import _play_randomly

pytestmark = pytest.mark.django_db

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg")
                                  else None)
BACKGAMMON = sorted(MAT_RULES)[0]


def _play_with_cube(user: Any, seed: int) -> Match:
    """A hotseat backgammon match with the cube: random plays, offers taken or dropped
    now and then, a resignation now and then (also in the middle of a turn)."""
    return _play_randomly(user, BACKGAMMON, seed, length=5, stakes="cube", offers=0.06)


def _expected(match: Match) -> dict[str, Any]:
    """Per game the moves gnubg should see, with the position ID before each, and the
    scores and points."""
    rs = RULESETS[match.rules]
    record = selectors.match_record(match)
    games = []
    for game in record["games"]:
        position, first, moves = rs.initial(), [True, True], []
        for turn in game["turns"]:
            side = parse_side(turn["side"])
            dice = (turn["dice"][0], turn["dice"][1])
            steps = [Step(s["from"], s["to"], s["die"]) for s in turn["steps"]]
            state = rs.start_turn(position, side, dice, first[side]).apply_all(steps)
            if state.is_turn_over() or state.outcome() is not None:
                moves.append({"player": "XO"[side], "dice": sorted(dice),
                              "board": position.gnubg_id(side),
                              "move": sorted([s.src, s.dst] for s in steps)})
            first[side] = False
            position = state.position
        result = game["result"]
        games.append({"moves": moves,
                      "winner": "XO"[parse_side(result["winner"])] if result else None,
                      "points": result["points"] if result else None})
    return {"games": games, "score": [record["score"]["white"], record["score"]["black"]]}


SCRIPT = """
import gnubg, json
gnubg.command("import mat " + PATH)
m = gnubg.match()
out = []
for g in m["games"]:
    moves = [{"player": a["player"], "dice": sorted(a["dice"]), "board": a["board"],
              "move": sorted([list(x) for x in a["move"]])}
             for a in g["game"] if a["action"] == "move"]
    out.append({"moves": moves, "info": g["info"]})
print("RESULT " + json.dumps({"games": out, "length": m["match-info"]["match-length"]}))
"""


def _gnubg_reads(tmp_path: Path, text: str) -> dict[str, Any]:
    assert GNUBG is not None
    (tmp_path / "match.mat").write_text(text, encoding="utf-8")
    (tmp_path / "read.py").write_text(f"PATH = {str(tmp_path / 'match.mat')!r}\n" + SCRIPT,
                                      encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    done = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(tmp_path / "read.py")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(home)},
        stdin=subprocess.DEVNULL)
    assert "Invalid move" not in done.stdout + done.stderr, done.stdout[-3000:]
    assert "Unrecognised" not in done.stdout + done.stderr, done.stdout[-3000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def _check_gnubg_replays(tmp_path: Path, match: Match) -> None:
    text = format_mat(selectors.match_record(match))
    read = _gnubg_reads(tmp_path, text)
    expected = _expected(match)
    assert read["length"] == match.length
    assert len(read["games"]) == len(expected["games"])
    score = {"X": 0, "O": 0}
    for number, (got, want) in enumerate(zip(read["games"], expected["games"],
                                             strict=True), start=1):
        assert got["info"]["score-X"] == score["X"] and got["info"]["score-O"] == score["O"]
        assert len(got["moves"]) == len(want["moves"]), number
        for i, (a, b) in enumerate(zip(got["moves"], want["moves"], strict=True)):
            assert a == b, (number, i, a, b)
        if want["winner"] is not None:
            assert got["info"]["winner"] == want["winner"], number
            assert got["info"]["points-won"] == want["points"], number
            score[want["winner"]] += want["points"]
    assert [score["X"], score["O"]] == expected["score"]


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (CI installs it)")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gnubg_imports_a_random_match_and_replays_every_move(make_user, tmp_path, seed):
    match = _play_randomly(make_user(), BACKGAMMON, seed)
    _check_gnubg_replays(tmp_path, match)


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed (CI installs it)")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_gnubg_imports_a_match_with_the_cube(make_user, tmp_path, seed):
    match = _play_with_cube(make_user(), seed)
    text = format_mat(selectors.match_record(match))
    assert "Doubles => 2" in text
    _check_gnubg_replays(tmp_path, match)


def test_the_layout_is_gnubgs(make_user):
    match = _play_with_cube(make_user(), 2)
    text = format_mat(selectors.match_record(match))
    lines = text.splitlines()
    assert lines[0] == '; [Site "nard_site"]'
    assert " 5 point match" in lines
    first = lines.index(" Game 1")
    assert lines[first + 1].split() == [f"{match.white.username}-white", ":", "0",
                                        f"{match.black.username}-black", ":", "0"]
    assert lines[first + 2].startswith("  1) ")
    numbered = [x for x in lines if x[3:5] == ") "]
    assert all(int(x[:3]) >= 1 for x in numbered)
    assert any(x.strip().startswith("Wins ") for x in lines)


def test_the_api_answers_mat_for_backgammon_and_refuses_other_rules(make_user):
    user = make_user()
    match = _play_randomly(user, BACKGAMMON, 1)
    answer = APIClient().get(f"/api/v1/matches/{match.pk}/export/?format=mat")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    assert f'match-{match.pk}.mat' in answer["Content-Disposition"]
    assert answer.content.decode() == format_mat(selectors.match_record(match))
    other = next(name for name in RULESETS if mat_refusal(name, "none"))
    refused = APIClient().get(
        f"/api/v1/matches/{_play_randomly(user, other, 1).pk}/export/?format=mat")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "no_mat_form"
    assert mat_refusal(BACKGAMMON, "dave")
