"""Ratings against pumping, and a quick-pairing pool of present, active players.

Before: a rated match resigned during the roll-off counted as a full rated loss, and
nothing limited rated matches per pair (8 such matches from 8 fresh accounts put one at
#1 of the leaderboard); a waiting account deactivated afterwards, or one nobody polled for
13 minutes, was still paired, into a match with no clock that never ended."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Event, Match
from ratings.models import PairingRequest, Rating, RatingChange, SharedAddress
from tests.support import Seat, start_match

pytestmark = pytest.mark.django_db


def over_event(match_id: int) -> dict[str, Any]:
    return Event.objects.get(match_id=match_id, type="match_over").data


def test_a_match_resigned_before_enough_turns_is_unrated(alice: Seat, bob: Seat,
                                                         settings: Any) -> None:
    settings.RATED_MIN_TURNS = 1
    match_id = start_match(alice, bob)["id"]
    assert Match.objects.get(pk=match_id).rated is True
    alice.ok(match_id, "resign")
    data = over_event(match_id)
    assert data["rated"] is False and data["unrated"] == "too_few_turns"
    assert data["turns"] == 0 and "ratings" not in data
    assert Match.objects.get(pk=match_id).rated is False
    assert alice.get(match_id)["rated"] is False
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(matches__gt=0).exists()


def test_a_match_with_enough_turns_is_rated(alice: Seat, bob: Seat, settings: Any,
                                            scripted_dice: Any) -> None:
    settings.RATED_MIN_TURNS = 1
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    scripted_dice(6, 3)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "resign")
    data = over_event(match_id)
    assert "unrated" not in data and data["ratings"]["black"]["change"] > 0
    assert RatingChange.objects.filter(match_id=match_id).count() == 2


def test_rated_matches_per_pair_per_day(alice: Seat, bob: Seat, settings: Any) -> None:
    settings.RATED_PER_PAIR_PER_DAY = 2
    ids = [start_match(alice, bob)["id"] for _ in range(3)]
    assert [Match.objects.get(pk=i).rated for i in ids] == [True, True, False]
    start = Event.objects.get(match_id=ids[2], type="game_start").data
    assert start["rated"] is False and start["unrated"] == "pair_limit"
    for match_id in ids:
        alice.ok(match_id, "resign")
    assert set(RatingChange.objects.values_list("match_id", flat=True)) == set(ids[:2])
    # A day later the pair may play rated again.
    Match.objects.filter(pk__in=ids).update(started_at=timezone.now() - timedelta(days=2))
    assert Match.objects.get(pk=start_match(bob, alice)["id"]).rated is True


def pair(seat: Seat, address: str = "127.0.0.1", **options: Any) -> Any:
    return seat.client.post("/api/v1/pairing/", {"length": 1, **options}, format="json",
                            REMOTE_ADDR=address)


def test_pairs_from_one_address_are_noted(seat: Any) -> None:
    one, two, three, four = seat("one"), seat("two"), seat("three"), seat("four")
    assert pair(one, "10.0.0.5").status_code == 202
    paired = pair(two, "10.0.0.5")
    assert paired.status_code == 201, paired.json()
    (note,) = SharedAddress.objects.all()
    assert (note.match_id, note.first_id, note.second_id, note.address, note.rated) == (
        paired.json()["match"], one.user.pk, two.user.pk, "10.0.0.5", True)
    assert pair(three, "10.0.0.6").status_code == 202
    assert pair(four, "10.0.0.7").status_code == 201
    assert SharedAddress.objects.count() == 1


def test_only_present_active_players_are_paired(seat: Any, settings: Any) -> None:
    gone, absent, asker = seat("gone"), seat("absent"), seat("asker")
    assert pair(gone).status_code == 202
    gone.user.is_active = False
    gone.user.save(update_fields=["is_active"])
    assert pair(absent).status_code == 202
    PairingRequest.objects.filter(user=absent.user).update(
        polled_at=timezone.now() - timedelta(seconds=settings.PAIRING_POLL_SECONDS + 1))
    waiting = pair(asker)
    assert waiting.status_code == 202, waiting.json()
    assert not Match.objects.exists()
    # The absent player's entry is gone: its next look says idle, not waiting.
    assert absent.client.get("/api/v1/pairing/").json()["state"] == "idle"


def test_a_look_keeps_the_entry_and_the_paired_match_has_a_clock(seat: Any,
                                                                  settings: Any) -> None:
    waiting, asker = seat("waiting"), seat("asker")
    assert pair(waiting).status_code == 202
    PairingRequest.objects.filter(user=waiting.user).update(
        polled_at=timezone.now() - timedelta(seconds=settings.PAIRING_POLL_SECONDS - 5))
    assert waiting.client.get("/api/v1/pairing/").json()["state"] == "waiting"
    answer = pair(asker)
    assert answer.status_code == 201, answer.json()
    match = Match.objects.get(pk=answer.json()["match"])
    assert match.turn_seconds == settings.PAIRING_TURN_SECONDS and match.deadline is not None
    # The waiting player's next look learns of the match; asking again answers it too.
    look = waiting.client.get("/api/v1/pairing/").json()
    assert (look["state"], look["match"]) == ("paired", match.pk)
    again = pair(asker)
    assert (again.status_code, again.json()["match"]) == (201, match.pk)
    assert Match.objects.count() == 1
