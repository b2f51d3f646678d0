"""The moderators' admin: the queue with each line's context and match, the actions with
a reason, panic mode; the history read-only."""

from __future__ import annotations

import pytest
from django.test import Client

from chat.models import Line, ModerationAction, Report
from tests.chat.conftest import say, texts
from tests.support import Seat, assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(staff: Seat) -> Client:
    staff.user.is_superuser = True
    staff.user.save(update_fields=["is_superuser"])
    client = Client()
    client.force_login(staff.user)
    return client


def test_the_queue_shows_the_context_and_the_match(admin_client: Client, alice: Seat,
                                                   bob: Seat, active_match: int) -> None:
    say(alice, active_match, "first words")
    line = say(bob, active_match, "rude words").json()["id"]
    alice.client.post(f"/api/v1/chat/{line}/report/", {"reason": "insult"}, format="json")
    report = Report.objects.get()
    listing = admin_client.get("/admin/chat/report/")
    assert listing.status_code == 200 and b"rude words" in listing.content
    page = admin_client.get(f"/admin/chat/report/{report.pk}/change/")
    assert page.status_code == 200
    assert b"first words" in page.content and b"rude words" in page.content
    assert f"/admin/games/match/{active_match}/change/".encode() in page.content


def test_a_timeout_from_the_admin_asks_for_a_reason_then_applies(
        admin_client: Client, alice: Seat, bob: Seat, active_match: int) -> None:
    line = say(bob, active_match, "rude words").json()["id"]
    alice.client.post(f"/api/v1/chat/{line}/report/", {"reason": "insult"}, format="json")
    report = Report.objects.get()
    form = {"action": "timeout_1h", "_selected_action": [str(report.pk)]}
    asked = admin_client.post("/admin/chat/report/", form)
    assert asked.status_code == 200 and b"reason" in asked.content
    assert not ModerationAction.objects.exists()
    done = admin_client.post("/admin/chat/report/", {**form, "reason": "insulted alice"})
    assert done.status_code == 302
    action = ModerationAction.objects.get()
    assert (action.action, action.reason, action.target_id) == ("timeout", "insulted alice",
                                                                 bob.user.pk)
    assert Line.objects.get(pk=line).hidden_by_id == action.pk
    assert texts(alice, active_match) == []
    assert_error(say(bob, active_match, "hm"), 403, "chat_timeout")


def test_panic_mode_from_the_admin(admin_client: Client, alice: Seat,
                                   active_match: int) -> None:
    url = "/admin/chat/moderationaction/"
    admin_client.post(url, {"action": "panic_on", "reason": "a raid", "minutes": "180"})
    assert ModerationAction.objects.get().action == "panic"
    assert_error(say(alice, active_match, "hi"), 403, "chat_restricted")
    admin_client.post(url, {"action": "panic_off"})
    assert say(alice, active_match, "hi").status_code == 201


def test_the_history_is_read_only(admin_client: Client, alice: Seat,
                                  active_match: int) -> None:
    line = say(alice, active_match, "hello").json()["id"]
    assert admin_client.get(f"/admin/chat/line/{line}/delete/").status_code == 403
    assert admin_client.get("/admin/chat/line/add/").status_code == 403
    assert admin_client.get("/admin/chat/moderationaction/add/").status_code == 403
    assert admin_client.get("/admin/chat/line/").status_code == 200
    assert admin_client.get("/admin/accounts/block/").status_code == 200
