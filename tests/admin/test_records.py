"""Match records: export as text and JSON, import, exact round trips, refusals by line."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import Event, Game, Match, Turn
from games.replay import replay_problems
from games.selectors import match_record, record_text
from nardy import Step
from nardy.record import FORMAT, RecordError, parse_record, title
from tests.admin.conftest import short_match
from tests.dice import planned as planned_dice
from tests.support import assert_error

pytestmark = pytest.mark.django_db

IMPORT_URL = "/api/v1/matches/import/"


def _export(api: Any, match_id: int, **params: Any) -> Any:
    return api.get(f"/api/v1/matches/{match_id}/export/", params)


def _history(match: Match) -> dict[str, Any]:
    """Everything a replay depends on, without ids and times."""
    games = [
        (g.number, g.starter, g.winner, g.points_won, g.mars, g.result, g.end_reason, g.turns,
         g.position_key, g.turn_key, g.phase, g.white_first_turn, g.black_first_turn,
         g.rolloff_white, g.rolloff_black)
        for g in match.games.order_by("number")]
    turns = [(t.game.number, t.number, t.side, t.dice, t.steps, t.pass_reason, t.position_after,
              t.finished_at is not None)
             for t in Turn.objects.filter(game__match=match).select_related("game")
             .order_by("game__number", "number")]
    # An imported match has no dice commitment: its events never name one; the
    # original's match_over carries its rating change; an import is never rated.
    left_out = ("commitment", "server_seed", "ratings")
    events = [(kind, {k: v for k, v in data.items() if k not in left_out})
              for kind, data in match.events.order_by("seq").values_list("type", "data")
              if kind != "player_seed"]
    start = next(i for i, (kind, _) in enumerate(events) if kind == "game_start")
    return {"match": (match.white_id, match.black_id, match.length, match.hotseat,
                      match.score_white, match.score_black, match.status, match.winner),
            "games": games, "turns": turns, "events": events[start:]}


def _import(staff_api: Any, text: str) -> Any:
    return staff_api.post(IMPORT_URL, {"record": text}, format="json")


def test_export_as_text_and_as_json(api, finished_match):
    match = finished_match
    response = _export(api, match.pk)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert f'filename="match-{match.pk}.txt"' in response["Content-Disposition"]
    text = response.content.decode()
    assert text == record_text(match)
    lines = text.splitlines()
    assert lines[:4] == [title("long_nardy"), "White: alice", "Black: bob", "Length: 3"]
    assert re.fullmatch(r"Date: \d{4}-\d\d-\d\d", lines[4])
    assert lines[5] == "Result: white wins 4-1"
    assert [line for line in lines if line.startswith("Game ")] == ["Game 1", "Game 2", "Game 3"]
    assert [line for line in lines if line.startswith("Result: ") and "score" in line] == [
        "Result: white wins 2 points (mars), borne off; score 2-0",
        "Result: black wins 1 point, borne off; score 2-1",
        "Result: white wins 2 points (mars), borne off; score 4-1",
    ]
    assert "Roll-off: white 6, black 1" in lines and "Starter: black" in lines
    turn_lines = [line for line in lines if re.match(r"\d+\. (white|black) \d-\d: ", line)]
    assert len(turn_lines) == Turn.objects.filter(game__match=match).count()
    first = Turn.objects.get(game__match=match, game__number=1, number=1)
    assert turn_lines[0] == (f"1. white {first.dice[0]}-{first.dice[1]}: "
                             + " ".join(f"{s['from']}/{s['to']}" for s in first.steps))
    assert any(line.endswith("(pass: no legal move)") for line in turn_lines)
    assert any(re.search(r"\d/off\(\d\)", line) for line in turn_lines)

    as_json = _export(api, match.pk, format="json")
    assert as_json.status_code == 200 and as_json["Content-Type"] == "application/json"
    body = as_json.json()
    assert body["format"] == FORMAT and body["id"] == match.pk
    assert (body["white"], body["black"], body["length"], body["status"], body["winner"],
            body["score"]) == ("alice", "bob", 3, "finished", "white", {"white": 4, "black": 1})
    assert [(g["result"]["points"], g["result"]["mars"]) for g in body["games"]] == [
        (2, True), (1, False), (2, True)]
    assert body["games"][0]["roll_off"] == [{"white": 6, "black": 1}]
    assert sum(len(g["turns"]) for g in body["games"]) == len(turn_lines)
    assert body["games"][0]["turns"][0]["steps"] == first.steps
    assert body == {**match_record(match), "date": body["date"]}
    by_accept = api.get(f"/api/v1/matches/{match.pk}/export/", HTTP_ACCEPT="application/json")
    assert by_accept["Content-Type"] == "application/json" and by_accept.json() == body
    assert _export(api, match.pk, format="txt").content.decode() == text

    assert_error(_export(api, 999999), 404, "not_found")
    assert_error(_export(api, 999999, format="json"), 404, "not_found")
    assert_error(_export(api, match.pk, format="xml"), 404, "not_found")


def test_export_then_import_round_trips_a_match_exactly(api, staff_api, staff_user,
                                                          finished_match):
    original = finished_match
    text = _export(api, original.pk).content.decode()
    response = _import(staff_api, text)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["status"], body["winner"], body["score"]) == (
        "finished", "white", {"white": 4, "black": 1})
    copy = Match.objects.get(pk=body["id"])
    assert copy.pk != original.pk and copy.created_by == staff_user
    assert _export(api, copy.pk).content.decode() == text
    assert _history(copy) == _history(original)
    created = copy.events.get(seq=1)
    assert created.type == "match_created" and created.data["imported"] is True
    # the importer is named, but not as a player
    assert created.data["imported_by"] == staff_user.username
    assert created.data["by"] == created.data["white"] == "alice"
    assert staff_user.username not in (created.data["white"], created.data["black"])
    assert list(copy.events.values_list("seq", flat=True)) == list(range(1, copy.last_event_seq
                                                                          + 1))
    assert (copy.started_at.date(), copy.version) == (original.started_at.date(), 1)
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert "6 games replayed, 0 differ." in out.getvalue()


def test_resignations_mid_turn_ties_in_the_roll_off_and_hotseat_round_trip(api, staff_api,
                                                                          players):
    alice = players[0]
    match = services.match_create(user=alice, length=3, hotseat=True)
    with planned_dice([3, 3, 2, 5, 6, 5, 4, 2]):
        services.match_roll(match_id=match.pk, user=alice)  # White 3
        services.match_roll(match_id=match.pk, user=alice)  # Black 3: a tie (R7)
        services.match_roll(match_id=match.pk, user=alice)  # White 2
        services.match_roll(match_id=match.pk, user=alice)  # Black 5: Black starts
        services.match_roll(match_id=match.pk, user=alice)  # Black rolls 6-5
        services.match_move(match_id=match.pk, user=alice, steps=[Step(24, 18)])
        services.match_resign(match_id=match.pk, user=alice, side="black")  # mid-turn: mars
        services.match_resign(match_id=match.pk, user=alice, side="white")  # before a roll
        services.match_roll(match_id=match.pk, user=alice)  # White (loser, R8) rolls 4-2
        services.match_move(match_id=match.pk, user=alice,
                            steps=[Step(24, 20), Step(20, 18)])
        match = services.match_resign(match_id=match.pk, user=alice, side="black")
    assert (match.status, match.score_white, match.score_black) == ("finished", 4, 2)
    text = _export(api, match.pk).content.decode()
    assert "Hotseat: yes" in text
    assert "Roll-off: white 3, black 3; white 2, black 5" in text
    assert "1. black 6-5: 24/18\nResult: black resigns, white wins 2 points (mars); score 2-0" \
        in text
    response = _import(staff_api, text)
    assert response.status_code == 201, response.content
    copy = Match.objects.get(pk=response.json()["id"])
    assert _export(api, copy.pk).content.decode() == text
    assert _history(copy) == _history(match)
    # The replay check judges the copy exactly as it judges the match played online.
    assert [replay_problems(g) for g in copy.games.order_by("number")] == [
        replay_problems(g) for g in match.games.order_by("number")]


def _line_of(text: str, pattern: str) -> int:
    """The 1-based number of the first line matching ``pattern``."""
    return next(i for i, line in enumerate(text.splitlines(), start=1)
                if re.search(pattern, line))


def _replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def test_an_illegal_move_is_refused_with_its_line_number(api, staff_api, finished_match):
    text = record_text(finished_match)
    counts = (Match.objects.count(), Game.objects.count(), Turn.objects.count(),
              Event.objects.count())
    # A later White turn that moved from the head with unequal dice: two from the head is
    # one too many (R11) -- the first step is fine, the second is refused.
    number = _line_of(text, r"^(?:[3-9]|\d\d+)\. white (\d)-(?!\1)\d: 24/")
    line = text.splitlines()[number - 1]
    head, rest = line.split(": ", 1)
    d1, d2 = (int(d) for d in re.search(r"(\d)-(\d)", head).groups())
    first = rest.split()[0]
    other = d2 if first == f"24/{24 - d1}" else d1
    bad = _replace_line(text, number, f"{head}: {first} 24/{24 - other}")
    error = assert_error(_import(staff_api, bad), 400, "validation_error")
    assert error["details"]["line"] == number
    assert error["details"]["reason"] == "head_rule"
    assert error["message"].startswith(f"Line {number}: step 2 (24/{24 - other}) is illegal")

    # No checker there at all.
    number = _line_of(text, r"^3\. white ")
    head = text.splitlines()[number - 1].split(": ", 1)[0]
    error = assert_error(_import(staff_api, _replace_line(text, number, f"{head}: 1/off")),
                         400, "validation_error")
    assert (error["details"]["line"], error["details"]["reason"]) == (number, "no_checker")
    assert counts == (Match.objects.count(), Game.objects.count(), Turn.objects.count(),
                      Event.objects.count())


def test_passes_results_and_starters_are_checked_against_the_rules(staff_api, finished_match):
    text = record_text(finished_match)

    def refused(bad: str, line: int, reason: str) -> str:
        error = assert_error(_import(staff_api, bad), 400, "validation_error")
        assert (error["details"]["line"], error["details"]["reason"]) == (line, reason), error
        return error["message"]

    # R23: a pass while a die can still be played.
    number = _line_of(text, r"^3\. white \d-\d: \d+/\d+ \d")
    line = text.splitlines()[number - 1]
    short = line.rsplit(" ", 1)[0]
    message = refused(_replace_line(text, number, short + " (pass: no legal move)"), number,
                      "unjustified_pass")
    assert "can still be played" in message
    message = refused(_replace_line(text, number, line + " (pass: no legal move)"), number,
                      "unjustified_pass")
    assert "every die was played" in message
    # A turn that stops while dice can still be played.
    refused(_replace_line(text, number, short), number, "incomplete_turn")
    # A pass the engine makes may be left unsaid; a made-up reason may not.
    number = _line_of(text, r"\(pass: no legal move\)$")
    line = text.splitlines()[number - 1]
    quiet = _replace_line(text, number, line.replace(" (pass: no legal move)", ""))
    assert _import(staff_api, quiet).status_code == 201
    refused(_replace_line(text, number, line.replace("no legal move", "tired")), number,
            "unjustified_pass")
    # R29: the result must be what the board gives.
    number = _line_of(text, r"^Result: white wins 2 points \(mars\), borne off; score 2-0")
    refused(_replace_line(text, number, "Result: white wins 1 point, borne off; score 1-0"),
            number, "wrong_result")
    refused(_replace_line(text, number, "Result: white wins 2 points (mars), borne off; "
                                        "score 3-0"), number, "wrong_result")
    # R8: the loser of game 2 (White) starts game 3.
    game3 = _line_of(text, r"^Game 3$")
    refused(_replace_line(text, game3 + 1, "Starter: black"), game3 + 1, "starter")
    # R7: the roll-off decides who starts game 1.
    refused(text.replace("Roll-off: white 6, black 1", "Roll-off: white 1, black 6"),
            _line_of(text, r"^Starter: white"), "roll_off")
    # R31: the record stops before the match is over; the match result must add up.
    cut = "\n".join(text.splitlines()[:game3 - 1]) + "\n"
    refused(cut, game3 - 2, "unfinished")
    refused(text.replace("Result: white wins 4-1", "Result: white wins 4-2"), 6,
            "wrong_result")
    # Players must exist.
    error = assert_error(_import(staff_api, text.replace("Black: bob", "Black: nobody")), 400,
                         "validation_error")
    assert error["details"]["line"] == 3 and "nobody" in error["message"]


def test_only_staff_may_import(api, client_for, players):
    text = record_text(short_match(*players))
    assert_error(api.post(IMPORT_URL, {"record": text}, format="json"), 401,
                 "not_authenticated")
    assert_error(client_for(players[0]).post(IMPORT_URL, {"record": text}, format="json"), 403,
                 "permission_denied")
    assert Match.objects.count() == 1


@pytest.mark.parametrize(("text", "line", "words"), [
    ("White: a\nBlack: b\nLength: 3\nColour: red\n", 4, "unknown header"),
    ("White: a\nWhite: b\n", 2, "given twice"),
    ("White: a\n\n# a comment\n1. white 6-5: 24/18 18/13\n", 4, "before the first"),
    ("Game 2\n", 1, "expected 'Game 1'"),
    ("Game 1\nStarter: white\n1. white 7-5: 24/17\n", 3, "each die shows 1 to 6"),
    ("Game 1\nStarter: white\n1. white 6-5: 24/18 18/10\n", 3, "step 2 (18/10)"),
    ("Game 1\nStarter: purple\n", 2, "not a side"),
    ("Game 1\nStarter: white\n1. white 6-5: 24/18\nStarter: black\n", 4, "before the game"),
    ("Game 1\nRoll-off: white six\n", 2, "a roll-off reads"),
    ("Game 1\nResult: white wins 2 points, borne off\n", 2, "(mars)"),
    ("Game 1\nResult: white wins 1 point\n", 2, "how the game ended"),
    ("Game 1\nResult: white resigns, white wins 1 point\n", 2, "cannot win"),
    ("Game 1\nResult: white wins 1 point, borne off\n2. black 6-5: 24/18\n", 3, "after the"),
    ("Game 1\nthis is not a record\n", 2, "cannot read"),
    ("Game 1\nStarter: white\n1. white 6-5: " + "24/18 " * 100 + "\n", 3, "longer than"),
])
def test_records_that_cannot_be_read_name_their_line(text, line, words):
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert caught.value.line == line
    assert words in caught.value.text, caught.value.text


def test_import_match_command(tmp_path, players):
    original = short_match(*players)
    text = record_text(original)
    path = tmp_path / "match.txt"
    path.write_text(text, encoding="utf-8")
    out = StringIO()
    call_command("import_match", str(path), "--by", "bob", stdout=out)
    assert "black wins 0-2 (1 game)" in out.getvalue()
    copy = Match.objects.exclude(pk=original.pk).get()
    assert copy.created_by == players[1] and record_text(copy) == text
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("Length: 1", "Length: 4"), encoding="utf-8")
    with pytest.raises(CommandError, match=r"Line 4: a match is 1, 3, 5 or 7 points"):
        call_command("import_match", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_match", str(tmp_path / "missing.txt"))
    with pytest.raises(CommandError, match="no user named"):
        call_command("import_match", str(path), "--by", "nobody")
    assert Match.objects.count() == 2


def test_the_example_record_in_the_docs_reads():
    """docs/notation.md's example (less its '...' lines) is a readable record."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text()
    section = docs[docs.index("## Match record (export/import)"):]
    example = section.split("```text\n", 1)[1].split("```", 1)[0]
    record = parse_record("\n".join(line for line in example.splitlines() if line != "..."))
    assert list(record.headers) == ["white", "black", "length", "date", "result"]
    assert [(g.number, len(g.turns)) for g in record.games] == [(1, 5), (2, 1)]
    assert record.games[0].roll_offs == [(3, 3), (6, 1)]
    assert record.games[0].turns[2].pass_reason == "no legal move"
    assert [str(s) for _, s in record.games[0].turns[4].steps] == ["2/off(6)", "1/off(6)"]
    assert record.games[0].turns[4].steps[0][1].die == 6
    result = record.games[1].result
    assert result is not None and (result.resigned, result.winner, result.points) == (1, 0, 2)
