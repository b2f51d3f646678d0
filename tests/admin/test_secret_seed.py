"""A view-only staff account learns nothing of a running game's secret dice seed through
the admin: every filter on it is refused alike (before, ``?dice_seed__startswith=<prefix>``
answered the game or nothing, so 546 requests read the seed one hex digit at a time;
``__regex`` too), and it is in no form, search or sortable column."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from games.admin import GameForm
from tests.admin.conftest import started_match

pytestmark = pytest.mark.django_db
HEX = "0123456789abcdef"


@pytest.fixture
def viewer(make_user: Callable[..., Any]) -> Client:
    """A staff account that may only view games, matches, turns and events."""
    user = make_user("viewer", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(
        content_type__app_label="games", codename__startswith="view_"))
    client = Client()
    client.force_login(user)
    return client


def answers(client: Client, path: str, **query: str) -> tuple[int, bytes]:
    response = client.get(path, query)
    return response.status_code, response.content


@pytest.mark.parametrize(("model", "prefix"), [
    ("game", ""), ("turn", "game__"), ("match", "games__"), ("event", "match__games__")])
def test_every_filter_on_the_seed_answers_alike(viewer: Client, make_user: Callable[..., Any],
                                                model: str, prefix: str) -> None:
    match = started_match(make_user("white"), make_user("black"))
    game = match.current_game
    assert len(game.dice_seed) == 64
    path = reverse(f"admin:games_{model}_changelist")
    assert viewer.get(path).status_code == 200
    seen = set()
    for digit in HEX:
        for lookup in ("startswith", "istartswith", "regex", "exact", "contains"):
            value = f"^{digit}" if lookup == "regex" else digit
            seen.add(answers(viewer, path, **{f"{prefix}dice_seed__{lookup}": value}))
    seen.add(answers(viewer, path, **{f"{prefix}dice_seed": game.dice_seed}))
    assert len(seen) == 1, sorted(status for status, _ in seen)
    status, _ = seen.pop()
    assert status == 400


def test_the_seed_is_in_no_form_search_nor_sort(viewer: Client, make_user: Callable[..., Any]
                                                ) -> None:
    match = started_match(make_user("white"), make_user("black"))
    game = match.current_game
    assert "dice_seed" not in GameForm.base_fields
    page = viewer.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    assert game.dice_seed.encode() not in page.content
    listing = viewer.get(reverse("admin:games_game_changelist"), {"q": game.dice_seed[:8]})
    assert listing.status_code == 200
    assert game.dice_seed.encode() not in listing.content
