"""Invitations are capped — open ones per inviter, open ones to one
player, and how many an hour — each refusal with its own stable code."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.models import Match
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def test_open_invitations_to_one_player_are_capped(alice: Any, bob: Any, seat: Any,
                                                  settings: Any) -> None:
    settings.INVITATIONS_OPEN_PER_PLAYER = 2
    carol = seat("carol")
    first = alice.create(opponent="bob").json()
    alice.create(opponent="bob")
    assert_error(alice.create(opponent="bob"), 409, "too_many_invitations",
                 reason="open_to_player", limit=2)
    assert alice.create(opponent=carol.user.username).status_code == 201  # another player
    assert carol.create(opponent="bob").status_code == 201  # another inviter

    bob.ok(first["id"], "cancel")  # declined: no longer open
    assert alice.create(opponent="bob").status_code == 201


def test_open_invitations_per_inviter_are_capped(alice: Any, seat: Any,
                                                 settings: Any) -> None:
    settings.INVITATIONS_OPEN_PER_ACCOUNT = 3
    invitees = [seat(f"invitee{n}").user.username for n in range(4)]
    for name in invitees[:3]:
        assert alice.create(opponent=name).status_code == 201
    assert_error(alice.create(opponent=invitees[3]), 409, "too_many_invitations",
                 reason="open", limit=3)
    assert alice.create().status_code == 201  # an open seek invites nobody
    assert Match.objects.filter(created_by=alice.user, status="invited").count() == 3


def test_invitations_an_hour_are_limited(alice: Any, bob: Any, seat: Any,
                                         settings: Any) -> None:
    settings.INVITATIONS_PER_HOUR = 2
    for _ in range(2):
        match_id = alice.create(opponent="bob").json()["id"]
        alice.ok(match_id, "cancel")  # withdrawn at once: the rate still counts it
    assert_error(alice.create(opponent="bob"), 429, "throttled",
                 reason="invitations_per_hour", limit=2)
    Match.objects.filter(created_by=alice.user).update(
        created_at=Match.objects.get(pk=match_id).created_at - timedelta(hours=1, seconds=1))
    assert alice.create(opponent="bob").status_code == 201
