"""A rule set that lives only in tests/ plays through the whole server.

"Sprint" is a hitting game whose checkers all start in their home (a short race) with
result names of its own (``sweep``, ``rout``). It is registered at test time
(``nardy.register``) and then created, rolled and moved through the public API to the
end of a match, described by ``GET rules/``, exported and imported as a record, replayed
by ``manage.py verify_games`` and shown in the admin — and no non-test file names it
(tests/architecture/test_rule_names.py keeps the other direction).
"""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

import nardy
from games.models import Game, Match
from nardy.descriptor import SINGLE, Descriptor, ResultKind
from nardy.hitting import HittingGame
from nardy.hitting.variants import Variant

NAME, TITLE = "sprint", "Sprint Race"
SPRINT = Descriptor(
    name=NAME, title=TITLE, tag="SP",
    results=(SINGLE, ResultKind("sweep", 2, "Sweep", "The loser had borne off no checker."),
             ResultKind("rout", 3, "Rout", "The loser still had a checker on the bar or in "
                                           "the winner's home.")),
    head=False, hits=True, bar=True, bears_off=True, cap=0, numbering="mirrored",
    start={6: 5, 5: 5, 4: 5}, opening="roll_off", later_games="loser_starts",
    summary="A test-only race: every checker starts at home.")


@pytest.fixture
def sprint() -> Any:
    rules = nardy.register(HittingGame(Variant(SPRINT, no_hit_and_hide=False)))
    yield rules
    nardy.unregister(NAME)
    assert NAME not in nardy.RULESETS and "sweep" not in nardy.RESULT_POINTS


def _play_to_the_end(seat: Any, match_id: int) -> dict[str, Any]:
    """Roll and play the first legal step until the match is over (hotseat: one seat)."""
    url = f"/api/v1/matches/{match_id}/"
    match = seat.get(url).json()
    for _ in range(2000):
        if match["status"] != "active":
            return match
        state = match["state"]
        if state["phase"] == "move":
            body = {"steps": [state["legal_steps"][0]], "expected_version": match["version"]}
            response = seat.post(url + "moves/", body, format="json")
        else:
            response = seat.post(url + "roll/", {"expected_version": match["version"]},
                                 format="json")
        assert response.status_code == 200, response.content
        match = response.json()
    raise AssertionError("the match did not end")


@pytest.mark.django_db(transaction=False)
def test_a_test_only_rule_set_plays_a_whole_match(sprint, make_user, client_for, api,
                                                  staff_api, staff_client) -> None:
    # GET rules/ describes it like the built-in ones.
    described = api.get(f"/api/v1/rules/{NAME}/")
    assert described.status_code == 200, described.content
    body = described.json()
    assert (body["title"], body["default"], body["start"]) == (TITLE, False,
                                                               {"6": 5, "5": 5, "4": 5})
    assert [r["name"] for r in body["results"]] == ["single", "sweep", "rout"]
    assert NAME in [d["name"] for d in api.get("/api/v1/rules/").json()]

    # The public API: create, roll, move until the match is over.
    user = make_user("sprinter")
    seat = client_for(user)
    created = seat.post("/api/v1/matches/", {"length": 3, "hotseat": True, "rules": NAME},
                        format="json")
    assert created.status_code == 201, created.content
    assert created.json()["rules"] == NAME
    match_id = created.json()["id"]
    final = _play_to_the_end(seat, match_id)
    assert final["status"] == "finished" and final["winner"] in ("white", "black")
    assert max(final["score"].values()) >= 3
    match = Match.objects.get(pk=match_id)
    games = list(match.games.order_by("number"))
    assert games and all(g.result in ("single", "sweep", "rout") for g in games)
    assert all(g.position_key.startswith("SPP-") for g in games)

    # The record: exported, imported (a new match), the same text.
    text = api.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    assert text.splitlines()[0] == f"{TITLE} match record" and f"Rules: {NAME}" in text
    imported = staff_api.post("/api/v1/matches/import/", {"record": text}, format="json")
    assert imported.status_code == 201, imported.content
    copy_id = imported.json()["id"]
    assert api.get(f"/api/v1/matches/{copy_id}/export/").content.decode() == text

    # The replay check: every stored game of both matches replays.
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert f"{2 * len(games)} games replayed, 0 differ." in out.getvalue()

    # The admin: the match list, the match and a game, with its title.
    for url in ("/admin/games/match/", f"/admin/games/match/{match_id}/change/",
                f"/admin/games/game/{games[0].pk}/change/", "/admin/games/game/"):
        page = staff_client.get(url)
        assert page.status_code == 200, url
        assert TITLE in page.content.decode(), url
    filtered = staff_client.get("/admin/games/match/", {"rules__exact": NAME})
    assert filtered.status_code == 200 and f"/admin/games/match/{copy_id}/" in (
        filtered.content.decode())
    assert Game.objects.filter(match__rules=NAME).count() == 2 * len(games)


def test_no_non_test_file_names_the_test_rule_set() -> None:
    root = Path(__file__).resolve().parents[2]
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    naming = [p for p in files if not p.startswith("tests/") and (root / p).is_file()
              and TITLE in (root / p).read_text(encoding="utf-8", errors="replace")]
    assert naming == []
