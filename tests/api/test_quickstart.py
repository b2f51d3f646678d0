"""docs/api.md's quick start, run as written against a live server."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.models import Event, Match

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def quickstart_script() -> str:
    text = DOC.read_text()
    section = text.split("## Quick start", 1)[1]
    match = re.search(r"```bash\n(.*?)```", section, re.S)
    assert match, "docs/api.md has no bash block in its quick start"
    return match.group(1)


@pytest.mark.skipif(shutil.which("curl") is None, reason="the quick start uses curl")
def test_the_quick_start_session_works(live_server, scripted_dice, transactional_db):
    scripted_dice(3, 3, 5, 2, 6, 1)  # a tie, then White 5 v Black 2, then White's 6-1
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", quickstart_script()],
        env={**os.environ, "BASE": live_server.url}, capture_output=True, text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "active" in out and "white starts" in out and "[6, 1]" in out
    match = Match.objects.get()
    types = list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))
    assert types == ["match_created", "joined", "game_start", "roll_off", "roll_off",
                     "roll_off", "roll_off", "offer", "accept", "roll", "step"]
    assert "11 step" in out  # the log was printed, ending with the step
    assert match.stakes == "cube" and match.current_game.stake == 2
    assert match.current_game.turn_records.get().steps[0]["from"] == 24
