"""Notices: made by any module through accounts.services.notice_create, listed newest
first with the unread count, marked read, and heard on the account stream."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Notice
from accounts.services import notice_create
from tests.support import API, assert_error

pytestmark = pytest.mark.django_db

NOTICES = f"{API}/accounts/me/notifications/"


def test_listed_newest_first_with_the_unread_count(alice: Any, bob: Any) -> None:
    first = notice_create(recipient=alice.user, kind="tournament_started",
                          data={"tournament": 7})
    second = notice_create(recipient=alice.user, kind="moderation_decision",
                           data={"report": 3, "action": "warn"})
    notice_create(recipient=bob.user, kind="review_finished", data={"match": 1})
    answer = alice.client.get(NOTICES)
    assert answer.status_code == 200
    body = answer.json()
    assert body["unread"] == 2
    assert [n["id"] for n in body["results"]] == [second.pk, first.pk]
    assert body["results"][1]["kind"] == "tournament_started"
    assert body["results"][1]["data"] == {"tournament": 7}
    assert set(body["results"][0]) == {"id", "kind", "data", "created", "read_at"}
    page = alice.client.get(NOTICES, {"before": second.pk, "limit": 1}).json()
    assert [n["id"] for n in page["results"]] == [first.pk]


def test_marked_read_by_ids_then_all(alice: Any, bob: Any) -> None:
    made = [notice_create(recipient=alice.user, kind="challenge", data={"n": n})
            for n in range(3)]
    theirs = notice_create(recipient=bob.user, kind="challenge")
    marked = alice.client.post(NOTICES, {"ids": [made[0].pk, theirs.pk, 999999]},
                               format="json")
    assert marked.status_code == 200
    assert marked.json() == {"marked": 1, "unread": 2}
    assert Notice.objects.get(pk=theirs.pk).read_at is None  # another's: untouched
    unread = alice.client.get(NOTICES, {"unread": "true"}).json()
    assert [n["id"] for n in unread["results"]] == [made[2].pk, made[1].pk]
    assert alice.client.post(NOTICES, {}, format="json").json() == {"marked": 2, "unread": 0}
    assert alice.client.post(NOTICES, {}, format="json").json() == {"marked": 0, "unread": 0}
    assert all(n["read_at"] for n in alice.client.get(NOTICES).json()["results"])


@pytest.mark.parametrize("body", [{"ids": "all"}, {"ids": ["x"]}, {"ids": [0]},
                                  {"ids": list(range(1, 502))}])
def test_bad_marks_are_refused(alice: Any, body: Any) -> None:
    assert_error(alice.client.post(NOTICES, body, format="json"), 400, "validation_error")


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": 101}, {"before": "x"}])
def test_bad_queries_are_refused(alice: Any, query: Any) -> None:
    assert_error(alice.client.get(NOTICES, query), 400, "validation_error")


def test_anonymous_has_no_notices(api: Any) -> None:
    assert_error(api.get(NOTICES), 401, "not_authenticated")
    assert_error(api.post(NOTICES, {}, format="json"), 401, "not_authenticated")


def test_a_kind_is_snake_case(alice: Any) -> None:
    with pytest.raises(ValueError):
        notice_create(recipient=alice.user, kind="Not A Kind")
