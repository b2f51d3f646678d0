"""Rating races on PostgreSQL: two players pairing with the same waiting player make
one match; two rated matches of one player ending at once both count."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Match
from ratings.models import PairingRequest, Rating, RatingChange
from tests.hardening.test_races import client_of, race
from tests.support import start_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks are PostgreSQL's; CI runs this on PostgreSQL"),
]


def test_two_askers_pair_with_one_waiting_player_once(seat):
    waiting, one, two = seat("waiting"), seat("one"), seat("two")
    assert waiting.client.post("/api/v1/pairing/", {"length": 1}, format="json").status_code == 202
    answers = race([lambda s=s: s.client.post("/api/v1/pairing/", {"length": 1}, format="json")
                    for s in (one, two)])
    codes = sorted(a.status_code for a in answers)
    assert codes == [201, 202], [a.content for a in answers]
    (match,) = Match.objects.all()
    assert waiting.user.pk in (match.white_id, match.black_id)
    assert PairingRequest.objects.count() == 1  # the other asker waits


def test_two_rated_matches_of_one_player_ending_at_once_both_count(seat):
    alice, bob, carol = seat("alice1"), seat("bob1"), seat("carol1")
    first = start_match(alice, bob)["id"]
    second = start_match(alice, carol)["id"]
    answers = race([lambda: alice.post(first, "resign"), lambda: alice.post(second, "resign")])
    assert [a.status_code for a in answers] == [200, 200]
    row = Rating.objects.get(user=alice.user, rules="long_nardy")
    assert row.matches == 2
    changes = list(RatingChange.objects.filter(user=alice.user).order_by("id"))
    assert len(changes) == 2
    assert changes[1].rating_before == pytest.approx(changes[0].rating_after)


def test_one_account_asking_from_four_tabs_at_once_waits_once(seat):
    """Before: IntegrityError (500) on the pairing request's user for most of them."""
    player = seat("tabs")
    clients = [player.client] + [seat_client(player) for _ in range(3)]
    answers = race([lambda c=c: c.post("/api/v1/pairing/", {"length": 1}, format="json")
                    for c in clients])
    assert [getattr(a, "status_code", a) for a in answers] == [202] * 4, answers
    assert PairingRequest.objects.filter(user=player.user).count() == 1


def test_one_account_asking_twice_at_once_is_paired_once(seat):
    """Before: one tab paired (201), the other waiting (202) and paired again later."""
    waiting, player = seat("waiting2"), seat("twice")
    assert waiting.client.post("/api/v1/pairing/", {"length": 1}, format="json").status_code == 202
    clients = [player.client, seat_client(player)]
    answers = race([lambda c=c: c.post("/api/v1/pairing/", {"length": 1}, format="json")
                    for c in clients])
    assert [getattr(a, "status_code", a) for a in answers] == [201, 201], answers
    (match,) = Match.objects.all()
    assert {a.json()["match"] for a in answers} == {match.pk}
    assert not PairingRequest.objects.exists()


def seat_client(seat):
    """Another client (another connection: another tab) of ``seat``'s account."""
    return client_of(seat.user)
