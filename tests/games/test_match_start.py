"""The one way a match starts (``games.start.match_start``): every starter — a seek
joined, an invitation accepted, hotseat, the computer, a rematch, a quick pairing — makes a
match whose first game carries its dice commitment (docs/fairness.md), with the options
checked once and the same ``match_created`` event."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.exceptions import InvalidRequest
from games.models import Event, Match
from games.start import MatchOptions, match_start
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db

PAIRING = "/api/v1/pairing/"


def first_game_fairness(seat: Any, match_id: int) -> dict[str, Any]:
    """The match's state as its player reads it, checked to be game 1's."""
    match = seat.client.get(f"/api/v1/matches/{match_id}/").json()
    assert match["status"] == "active", match
    assert match["state"]["game"] == 1
    return match["state"]["fairness"]


def assert_committed(seat: Any, match_id: int) -> None:
    fairness = first_game_fairness(seat, match_id)
    assert fairness is not None, "game 1 has no dice commitment"
    assert fairness["commitment"].startswith("nard-dice-v1:")
    assert fairness["server_seed"] is None  # secret until the game is over
    start = Event.objects.get(match_id=match_id, type="game_start", data__game=1)
    assert start.data["commitment"] == fairness["commitment"]


def test_a_joined_seek_is_committed(alice, bob):
    match_id = alice.create(length=1).json()["id"]
    bob.ok(match_id, "join")
    assert_committed(bob, match_id)


def test_an_accepted_invitation_is_committed(alice, bob):
    match_id = start_match(alice, bob)["id"]
    assert_committed(alice, match_id)


def test_a_hotseat_match_is_committed(alice):
    created = alice.create(length=3, hotseat=True)
    assert created.status_code == 201
    assert_committed(alice, created.json()["id"])


def test_a_match_against_the_computer_is_committed(alice):
    created = alice.create(length=1, computer="random")
    assert created.status_code == 201, created.content
    assert_committed(alice, created.json()["id"])


def test_a_rematch_is_committed(alice, bob):
    match_id = start_match(alice, bob)["id"]
    alice.ok(match_id, "resign")
    rematch = bob.ok(match_id, "rematch")["id"]
    alice.ok(rematch, "join")
    assert_committed(alice, rematch)


def test_a_quick_paired_match_is_committed(alice, bob):
    assert alice.client.post(PAIRING, {"length": 3}, format="json").status_code == 202
    paired = bob.client.post(PAIRING, {"length": 3}, format="json")
    assert paired.status_code == 201, paired.content
    match_id = paired.json()["match"]
    assert_committed(alice, match_id)
    created = Event.objects.get(match_id=match_id, type="match_created")
    assert created.data["paired"] is True and created.data["rated"] is True


def test_a_match_started_directly_is_active_committed_and_announced(alice, bob):
    """What a tournament's round does: both players seated, active at once."""
    match = match_start(created_by=alice.user, white=alice.user, black=bob.user,
                        options=MatchOptions(length=5, rules="nard", stakes="dave"),
                        context={"round": 2})
    assert match.status == "active" and match.rated
    assert_committed(bob, match.pk)
    data = Event.objects.get(match=match, type="match_created").data
    assert data == {"length": 5, "rules": "nard", "hotseat": False, "stakes": "dave",
                    "progression": "geometric", "turn_seconds": None, "rated": True,
                    "by": "alice", "white": "alice", "black": "bob", "invited": None,
                    "rematch_of": None, "round": 2}


@pytest.mark.parametrize(("options", "field"), [
    ({"length": 4}, "length"),
    ({"length": 1, "rules": "chess"}, "rules"),
    ({"length": 1, "stakes": "gold"}, "stakes"),
    ({"length": 1, "stakes": "cube", "progression": "arithmetic"}, "progression"),
    ({"length": 1, "turn_seconds": 10}, "turn_seconds"),
    ({"length": 1, "turn_seconds": 60, "hotseat": True}, "turn_seconds"),
])
def test_every_starter_is_refused_the_same_options(alice, bob, options, field):
    with pytest.raises(InvalidRequest) as refused:
        match_start(created_by=alice.user, white=alice.user, black=bob.user,
                    options=MatchOptions(**options))
    assert field in refused.value.details
    with pytest.raises(InvalidRequest) as refused_too:
        services.match_create(user=alice.user, **options)
    assert refused_too.value.details == refused.value.details
    if not options.get("hotseat") and field != "progression":  # pairing has no progression
        response = alice.client.post(PAIRING, options, format="json")
        assert field in assert_error(response, 400, "validation_error")["details"]
    assert not Match.objects.exists()


def test_a_bot_cannot_be_made_to_play_rated(alice, make_user):
    bot = make_user("robot")
    bot.is_bot = True
    bot.save()
    assert not bot.may_play_rated and alice.user.may_play_rated
    with pytest.raises(InvalidRequest) as refused:
        match_start(created_by=alice.user, white=alice.user, black=bot,
                    options=MatchOptions(length=1, rated=True))
    assert "rated" in refused.value.details
    casual = match_start(created_by=alice.user, white=alice.user, black=bot,
                         options=MatchOptions(length=1))
    assert casual.rated is False
