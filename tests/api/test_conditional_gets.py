"""ETag and If-None-Match on a match and its games: an unchanged answer is a 304 with no
body; any change (a roll, who asks) is a new tag."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import start_match

pytestmark = pytest.mark.django_db


def test_a_match_answers_304_until_it_changes(alice: Any, bob: Any, scripted_dice: Any,
                                              api: Any) -> None:
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    url = alice.url(match_id)
    first = alice.client.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('"') and tag.endswith('"')
    again = alice.client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert alice.client.get(url, HTTP_IF_NONE_MATCH=f'"other", W/{tag}').status_code == 304
    assert alice.client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    # Another reader reads another answer (its own board numbering, no legal steps).
    assert bob.client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    assert api.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    scripted_dice(3, 1)
    alice.ok(match_id, "roll")
    changed = alice.client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["state"]["version"] == first.json()["state"]["version"] + 1


def test_games_moves_and_positions_answer_304(alice: Any, bob: Any, scripted_dice: Any) -> None:
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    for path in ("games/", "games/1/moves/", "games/1/positions/"):
        url = alice.url(match_id) + path
        first = alice.client.get(url)
        assert first.status_code == 200, path
        assert alice.client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, path
    moves = alice.url(match_id) + "games/1/moves/"
    tag = alice.client.get(moves)["ETag"]
    scripted_dice(3, 1)
    alice.ok(match_id, "roll")
    assert alice.client.get(moves, HTTP_IF_NONE_MATCH=tag).status_code == 200
