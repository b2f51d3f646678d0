"""A match's two rooms through HTTP: the players', logged as match events, and the
spectators', which the players do not see during play."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, MatchStatus
from tests.chat.conftest import chat_url, read, say, texts
from tests.support import Seat, assert_error, events

pytestmark = pytest.mark.django_db


def test_two_players_chat_and_each_line_is_a_match_event(alice: Seat, bob: Seat,
                                                        active_match: int) -> None:
    version = alice.get(active_match)["state"]["version"]
    first = say(alice, active_match, "hi, good luck")
    assert first.status_code == 201, first.content
    line = first.json()
    assert line["by"] == "alice" and line["room"] == "players" and line["text"] == "hi, good luck"
    assert (line["flagged"], line["hidden"]) == (False, False)
    assert say(bob, active_match, "you too").status_code == 201
    assert texts(bob, active_match) == ["hi, good luck", "you too"]
    assert texts(alice, active_match, "players") == ["hi, good luck", "you too"]
    logged = events(active_match, "chat")
    assert [(e["by"], e["text"], e["line"]) for e in logged] == [
        ("alice", "hi, good luck", line["id"]), ("bob", "you too", line["id"] + 1)]
    # A line is not a move: no client's expected_version goes stale.
    assert alice.get(active_match)["state"]["version"] == version


def test_spectators_room_is_apart_from_the_players_during_play(
        alice: Seat, bob: Seat, seat: Callable[..., Seat], active_match: int) -> None:
    carol = seat("carol")
    assert say(carol, active_match, "who wins?", "spectators").status_code == 201
    assert texts(carol, active_match, "spectators") == ["who wins?"]
    assert_error(read(alice, active_match, "spectators"), 403, "permission_denied")
    assert_error(say(bob, active_match, "hello", "spectators"), 403, "permission_denied")
    assert_error(say(carol, active_match, "hello players"), 403, "permission_denied")
    assert events(active_match, "chat") == []  # never a match event
    # The spectator reads the players' room; the players read the spectators' once over.
    assert say(alice, active_match, "gl").status_code == 201
    assert texts(carol, active_match) == ["gl"]
    assert alice.post(active_match, "resign").status_code == 200
    Match.objects.filter(pk=active_match).update(status=MatchStatus.FINISHED,
                                                 finished_at=timezone.now())
    assert texts(alice, active_match, "spectators") == ["who wins?"]


def test_anyone_reads_the_players_room_without_signing_in(alice: Seat, active_match: int,
                                                          api) -> None:
    say(alice, active_match, "hello")
    response = api.get(chat_url(active_match))
    assert response.status_code == 200
    assert [line["text"] for line in response.json()["lines"]] == ["hello"]
    assert_error(api.post(chat_url(active_match), {"text": "hi"}, format="json"), 401,
                 "not_authenticated")


def test_after_line_id_reads_only_newer_lines(alice: Seat, bob: Seat, active_match: int) -> None:
    first = say(alice, active_match, "one").json()["id"]
    say(bob, active_match, "two")
    response = alice.client.get(chat_url(active_match) + f"?after={first}")
    assert [line["text"] for line in response.json()["lines"]] == ["two"]
    assert_error(alice.client.get(chat_url(active_match) + "?after=x"), 400,
                 "validation_error")


@pytest.mark.parametrize(("text", "field"), [
    ("", "text"), ("   ", "text"), ("x" * 10_000, "text"), ("bad\x07bell", "text"),
    ("rtl\u202eoverride", "text"), (42, "text"), (None, "text")])
def test_bad_lines_are_refused(alice: Seat, active_match: int, text: object,
                               field: str) -> None:
    error = assert_error(say(alice, active_match, text), 400, "validation_error")
    assert field in error["details"]


def test_a_line_of_the_maximum_length_passes(alice: Seat, active_match: int,
                                             settings) -> None:
    assert say(alice, active_match, "y" * settings.CHAT_MAX_CHARS).status_code == 201
    assert_error(say(alice, active_match, "y" * (settings.CHAT_MAX_CHARS + 1)), 400,
                 "validation_error", limit=settings.CHAT_MAX_CHARS)


def test_unknown_room_match_and_another_match(alice: Seat, seat: Callable[..., Seat],
                                              active_match: int) -> None:
    assert_error(say(alice, active_match, "hi", "lobby"), 400, "validation_error")
    assert_error(say(alice, 999_999, "hi"), 404, "not_found")
    assert_error(alice.client.get(chat_url(10**30)), 404, "not_found")
    dave, erin = seat("dave"), seat("erin")
    other = dave.create(opponent="erin").json()["id"]
    erin.ok(other, "join")
    assert_error(say(alice, other, "let me in"), 403, "permission_denied")


def test_a_finished_match_players_room_is_open_for_gg_then_closed(
        alice: Seat, bob: Seat, active_match: int, settings) -> None:
    assert alice.post(active_match, "resign").status_code == 200
    ended = timezone.now()
    Match.objects.filter(pk=active_match).update(status=MatchStatus.FINISHED, finished_at=ended)
    assert say(bob, active_match, "gg").status_code == 201
    late = ended - timedelta(minutes=settings.CHAT_AFTER_MATCH_MINUTES, seconds=1)
    Match.objects.filter(pk=active_match).update(finished_at=late)
    error = assert_error(say(alice, active_match, "gg"), 409, "chat_closed")
    assert error["details"] == {"status": "finished"}
    assert texts(alice, active_match) == ["gg"]  # still readable


def test_an_invitation_not_yet_accepted_has_no_chat(alice: Seat, bob: Seat) -> None:
    match_id = alice.create(opponent="bob").json()["id"]
    error = assert_error(say(alice, match_id, "hi"), 409, "chat_closed")
    assert error["details"] == {"status": "invited"}


def test_rate_limit(alice: Seat, active_match: int, settings) -> None:
    settings.CHAT_LINES_PER_MINUTE = 3
    for n in range(3):
        assert say(alice, active_match, f"line {n}").status_code == 201
    assert_error(say(alice, active_match, "one too many"), 429, "throttled", limit=3)


def test_chat_off_for_oneself(alice: Seat, bob: Seat, active_match: int) -> None:
    say(bob, active_match, "hello")
    response = alice.client.put("/api/v1/chat/options/", {"enabled": False}, format="json")
    assert response.status_code == 200 and response.json() == {"enabled": False}
    room = read(alice, active_match).json()
    assert (room["enabled"], room["lines"]) == (False, [])
    assert_error(say(alice, active_match, "hi"), 403, "chat_off")
    assert_error(alice.client.put("/api/v1/chat/options/", {"enabled": "no"}, format="json"),
                 400, "validation_error")
    alice.client.put("/api/v1/chat/options/", {"enabled": True}, format="json")
    assert texts(alice, active_match) == ["hello"]


def test_links_are_plain_for_new_accounts(alice: Seat, active_match: int, settings) -> None:
    line = say(alice, active_match, "see https://example.com").json()
    assert line["plain_links"] is True
    assert say(alice, active_match, "no link here").json()["plain_links"] is False
    settings.CHAT_LINKS_MIN_GAMES, settings.CHAT_LINKS_MIN_HOURS = 0, 0
    assert say(alice, active_match, "www.example.com").json()["plain_links"] is False


def test_tournament_rooms_are_404_until_a_kind_is_registered(alice: Seat) -> None:
    assert_error(alice.client.get("/api/v1/tournaments/1/chat/"), 404, "not_found")
    assert_error(alice.client.post("/api/v1/tournaments/1/chat/", {"text": "hi"},
                                   format="json"), 404, "not_found")


def test_refusals_speak_russian_with_the_same_code(alice: Seat, active_match: int) -> None:
    url = chat_url(active_match)
    response = alice.client.post(url, {"text": " "}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert assert_error(response, 400, "validation_error")["message"] == "Сообщение пустое."
    alice.client.put("/api/v1/chat/options/", {"enabled": False}, format="json")
    response = alice.client.post(url, {"text": "hi"}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert assert_error(response, 403, "chat_off")["message"] == (
        "Вы выключили чат; включите его, чтобы писать.")


def test_a_guest_talks_with_its_opponent_only(api, alice: Seat, active_match: int) -> None:
    """A guest writes in its own match's players' room; a public room (another match's
    spectators) is refused with its own code."""
    made = api.post("/api/v1/accounts/guest/", {}, format="json")
    assert made.status_code == 201, made.content
    guest = APIClient()
    guest.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    spoken = guest.post(chat_url(active_match, "spectators"), {"text": "hello"}, format="json")
    assert_error(spoken, 403, "chat_guest")
    played = guest.post("/api/v1/matches/", {"length": 1, "opponent": "alice"}, format="json")
    assert played.status_code == 201, played.content
    own = played.json()["id"]
    alice.ok(own, "join")
    assert guest.post(chat_url(own, "players"), {"text": "hi"}, format="json").status_code == 201
    assert texts(alice, own) == ["hi"]
