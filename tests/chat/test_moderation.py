"""Reports, the staff's queue and their actions through HTTP: a reported line reaches
the queue with its context, a time-out hides it and refuses its author until it ends;
mutes, closed accounts and panic mode. Every action is kept."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from chat.models import Line, ModerationAction, Report
from games.models import Match, MatchStatus
from tests.chat.conftest import say, texts
from tests.support import Seat, assert_error

pytestmark = pytest.mark.django_db

QUEUE = "/api/v1/moderation/reports/"
PANIC = "/api/v1/moderation/panic/"


def report(seat: Seat, line_id: int, reason: str = "insult", **extra: object):
    return seat.client.post(f"/api/v1/chat/{line_id}/report/", {"reason": reason, **extra},
                            format="json")


def act(staff: Seat, report_id: int, **body: object):
    return staff.client.post(f"{QUEUE}{report_id}/action/", body, format="json")


def test_a_report_reaches_the_queue_and_a_timeout_hides_the_line_and_refuses_its_author(
        alice: Seat, bob: Seat, staff: Seat, active_match: int) -> None:
    say(alice, active_match, "good luck")
    rude = say(bob, active_match, "you play like a potato").json()["id"]
    say(alice, active_match, "that is rude")
    made = report(alice, rude, comment="insulting")
    assert made.status_code == 201 and made.json()["reason"] == "insult"
    assert_error(report(alice, rude), 409, "already_reported")

    assert_error(alice.client.get(QUEUE), 403, "permission_denied")
    queue = staff.client.get(QUEUE)
    assert queue.status_code == 200 and queue.json()["count"] == 1
    item = queue.json()["results"][0]
    assert (item["reporter"], item["accused"], item["comment"]) == ("alice", "bob", "insulting")
    assert item["place"] == {"kind": "match", "id": active_match, "room": "players"}
    assert [line["text"] for line in item["context"]] == [
        "good luck", "you play like a potato", "that is rude"]

    done = act(staff, item["id"], action="timeout", duration="15m", reason="insult")
    assert done.status_code == 201, done.content
    until = done.json()["until"]
    assert done.json()["action"] == "timeout" and done.json()["target"] == "bob"
    assert texts(alice, active_match) == ["good luck", "that is rude"]
    mine = bob.client.get(f"/api/v1/matches/{active_match}/chat/").json()["lines"]
    assert [(line["text"], line["hidden"]) for line in mine] == [
        ("good luck", False), ("you play like a potato", True), ("that is rude", False)]
    error = assert_error(say(bob, active_match, "sorry"), 403, "chat_timeout")
    assert error["details"]["until"] is not None
    assert error["details"]["until"][:19] == until[:19]
    assert staff.client.get(QUEUE).json()["count"] == 0
    assert staff.client.get(QUEUE + "?resolved=1").json()["count"] == 1

    # The time-out ends: bob speaks again; the line and the action stay.
    ModerationAction.objects.filter(action="timeout").update(
        until=timezone.now() - timedelta(seconds=1))
    assert say(bob, active_match, "sorry").status_code == 201
    assert Line.objects.filter(pk=rude, hidden_by__isnull=False).exists()
    assert ModerationAction.objects.count() == 1


def test_bad_reports(alice: Seat, bob: Seat, seat: Callable[..., Seat],
                     active_match: int) -> None:
    mine = say(alice, active_match, "hello").json()["id"]
    theirs = say(bob, active_match, "hi").json()["id"]
    assert_error(report(alice, mine), 404, "not_found")
    assert_error(report(alice, 999_999), 404, "not_found")
    assert_error(report(alice, theirs, "boring"), 400, "validation_error")
    assert_error(report(alice, theirs, "filter"), 400, "validation_error")
    carol = seat("carol")
    spectator_line = say(carol, active_match, "psst", "spectators").json()["id"]
    assert_error(report(alice, spectator_line), 404, "not_found")  # not hers to read


def test_a_player_report(alice: Seat, bob: Seat, staff: Seat) -> None:
    url = "/api/v1/accounts/users/bob/report/"
    made = alice.client.post(url, {"reason": "cheating", "comment": "always the best move"},
                             format="json")
    assert made.status_code == 201
    item = staff.client.get(QUEUE).json()["results"][0]
    assert (item["accused"], item["reason"], item["line"], item["context"]) == (
        "bob", "cheating", None, [])
    assert_error(alice.client.post("/api/v1/accounts/users/alice/report/",
                                   {"reason": "spam"}, format="json"), 400, "validation_error")


def test_bad_actions(alice: Seat, bob: Seat, staff: Seat, active_match: int) -> None:
    line = say(bob, active_match, "hm").json()["id"]
    report_id = report(alice, line).json()["id"]
    assert_error(act(staff, report_id, action="timeout", duration="2y", reason="x"), 400,
                 "validation_error")
    assert_error(act(staff, report_id, action="ban", reason="x"), 400, "validation_error")
    assert_error(act(staff, report_id, action="warn", reason="  "), 400, "validation_error")
    assert_error(act(staff, 999_999, action="warn", reason="x"), 404, "not_found")
    assert_error(act(alice, report_id, action="warn", reason="x"), 403, "permission_denied")
    assert not ModerationAction.objects.exists()


def test_mute_until_lifted_and_warn_and_dismiss(alice: Seat, bob: Seat, staff: Seat,
                                                active_match: int) -> None:
    first = report(alice, say(bob, active_match, "one").json()["id"]).json()["id"]
    assert act(staff, first, action="mute", reason="spam").status_code == 201
    error = assert_error(say(bob, active_match, "two"), 403, "chat_muted")
    assert error["details"] == {"until": None}
    ModerationAction.objects.create(moderator=staff.user, target=bob.user, action="unmute",
                                    reason="served", created=timezone.now())
    second = report(alice, say(bob, active_match, "three").json()["id"]).json()["id"]
    assert act(staff, second, action="dismiss", reason="harmless").status_code == 201
    assert texts(alice, active_match) == ["three"]  # a dismissal hides nothing
    assert say(bob, active_match, "four").status_code == 201


def test_closing_an_account_keeps_everything(alice: Seat, bob: Seat, staff: Seat,
                                             active_match: int) -> None:
    line = say(bob, active_match, "spam spam").json()["id"]
    report_id = report(alice, line, "spam").json()["id"]
    assert act(staff, report_id, action="close", reason="spammer").status_code == 201
    bob.user.refresh_from_db()
    assert bob.user.is_active is False
    assert_error(say(bob, active_match, "still here?"), 401, "not_authenticated")
    assert Line.objects.filter(pk=line).exists() and Report.objects.filter(pk=report_id).exists()


def test_panic_mode_lets_only_established_accounts_chat(
        alice: Seat, bob: Seat, staff: Seat, active_match: int, settings) -> None:
    assert_error(alice.client.post(PANIC, {"minutes": 60}, format="json"), 403,
                 "permission_denied")
    on = staff.client.post(PANIC, {"minutes": 180, "reason": "raid"}, format="json")
    assert on.status_code == 200 and on.json()["on"] is True
    error = assert_error(say(alice, active_match, "hi"), 403, "chat_restricted")
    assert error["details"]["min_games"] == settings.CHAT_PANIC_MIN_GAMES
    # An established account: old enough and more finished matches than the threshold.
    settings.CHAT_PANIC_MIN_GAMES = 1
    User.objects.filter(pk=bob.user.pk).update(date_joined=timezone.now() - timedelta(days=2))
    for _ in range(2):
        Match.objects.create(white=bob.user, black=alice.user, created_by=bob.user,
                             length=1, status=MatchStatus.FINISHED, winner="white",
                             finished_at=timezone.now())
    assert say(bob, active_match, "hi").status_code == 201
    assert_error(say(alice, active_match, "hi"), 403, "chat_restricted")  # too young
    off = staff.client.delete(PANIC)
    assert off.status_code == 200 and off.json()["on"] is False
    assert say(alice, active_match, "hi").status_code == 201
    assert_error(staff.client.post(PANIC, {"minutes": 0}, format="json"), 400,
                 "validation_error")
    assert [a.action for a in ModerationAction.objects.order_by("id")] == ["panic", "calm"]


def test_panic_mode_by_setting(alice: Seat, active_match: int, settings) -> None:
    settings.CHAT_PANIC = True
    assert_error(say(alice, active_match, "hi"), 403, "chat_restricted")


def test_reports_are_rate_limited(alice: Seat, bob: Seat, active_match: int,
                                  settings) -> None:
    settings.CHAT_REPORTS_PER_HOUR = 2
    lines = [say(bob, active_match, f"line {n}").json()["id"] for n in range(3)]
    assert report(alice, lines[0]).status_code == 201
    assert alice.client.post("/api/v1/accounts/users/bob/report/", {"reason": "spam"},
                             format="json").status_code == 201
    assert_error(report(alice, lines[2]), 429, "throttled", limit=2)
    assert Report.objects.count() == 2


def test_both_sides_hear_of_a_decision_on_their_notices(
        alice: Seat, bob: Seat, staff: Seat, active_match: int) -> None:
    rude = say(bob, active_match, "you play like a potato").json()["id"]
    report_id = report(alice, rude).json()["id"]
    assert act(staff, report_id, action="warn", reason="be kind").status_code == 201
    notices = "/api/v1/accounts/me/notifications/"
    for seat in (alice, bob):
        listed = seat.client.get(notices).json()
        decisions = [n for n in listed["results"] if n["kind"] == "moderation_decision"]
        assert len(decisions) == 1, listed
        assert decisions[0]["data"]["action"] == "warn"
        assert decisions[0]["data"]["report"] == report_id
    # A dismissal is about nobody: only the reporter hears of it.
    other = say(bob, active_match, "fine").json()["id"]
    second = report(alice, other).json()["id"]
    assert act(staff, second, action="dismiss", reason="nothing wrong").status_code == 201
    kinds = [n["data"]["action"] for n in bob.client.get(notices).json()["results"]
             if n["kind"] == "moderation_decision"]
    assert kinds == ["warn"]
