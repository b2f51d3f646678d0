"""The computer's rolls are the committed dice too, the person's seed counts in them (the
computer rolls after the person), and its whole match verifies."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games import dice, fairness
from games.models import Event, Game
from tests.computer_api.conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_computers_rolls_are_derived_and_its_match_verifies(
        immediate_tasks: None, seat: Any, tmp_path: Path) -> None:
    person = seat("person")
    created = person.create(computer="random", length=1, color="white")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    # The computer waits for the person's roll-off die, so the person's seed counts.
    assert Game.objects.get(match_id=match_id, number=1).rolloff_black is None
    person.ok(match_id, "roll", {"seed": "the person's own dice"})
    game = Game.objects.get(match_id=match_id, number=1)
    assert game.white_seed == "the person's own dice"
    derived = dice.game_dice(game)
    assert derived is not None
    # The computer rolled after us: its die is the derived one of the round it rolled in
    # (the first, or the next after a tie, which clears both dice).
    blacks = Event.objects.filter(match_id=match_id, type="roll_off", data__side="black")
    last = blacks.order_by("-seq").first()
    assert last is not None
    assert last.data["die"] == derived.roll_off(blacks.count() - 1, 1)
    finished = play_out(person, match_id, random.Random(26))
    assert finished["status"] == "finished"
    record = person.client.get(f"/api/v1/matches/{match_id}/export/?format=json").json()
    computer_turns = [t for g in record["games"] for t in g["turns"] if t["side"] == "black"]
    assert computer_turns
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    out = io.StringIO()
    assert fairness.main(["verify", str(path)], out=out) == 0, out.getvalue()
