"""The admin shows stakes, offers, clocks, claims and abandonments."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Match
from games.services import clocks_sweep

pytestmark = pytest.mark.django_db


def _match(alice, bob, scripted_dice, **extra):
    created = alice.create(length=3, opponent="bob", color="white", **extra).json()
    bob.ok(created["id"], "join")
    scripted_dice(6, 1)
    alice.ok(created["id"], "roll")
    bob.ok(created["id"], "roll")
    return created["id"]


def _offered_accepted_played_offered_refused(alice, bob, scripted_dice):
    """A cube match's first game: White offers 2, Black accepts, White plays 6-5, Black
    offers 4, White refuses. The match's id and that game."""
    match_id = _match(alice, bob, scripted_dice, stakes="cube")
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    scripted_dice(6, 5)
    alice.ok(match_id, "roll")
    alice.ok(match_id, "moves", {"steps": [{"from": 24, "to": 18}, {"from": 18, "to": 13}]})
    bob.ok(match_id, "offer")
    alice.ok(match_id, "refuse")
    game = Game.objects.get(match_id=match_id, number=1)
    return match_id, game


def test_the_history_shows_offers_and_answers_in_order(admin_client, alice, bob,
                                                       scripted_dice):
    match_id, game = _offered_accepted_played_offered_refused(alice, bob, scripted_dice)
    html = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    first, turn, second = (html.index("offers 2 — accepted"), html.index("24/18"),
                           html.index("offers 4 — refused"))
    assert first < turn < second
    page = admin_client.get(f"/admin/games/match/{match_id}/change/").content.decode()
    assert "Stakes and clock" in page and "Doubling cube" in page


def test_the_admin_shows_the_clock_and_an_abandonment(admin_client, alice, bob, scripted_dice,
                                                      monkeypatch):
    match_id = _match(alice, bob, scripted_dice, turn_seconds=30)
    later = timezone.now() + timedelta(minutes=5)
    monkeypatch.setattr("django.utils.timezone.now", lambda: later)
    assert clocks_sweep().settled == (match_id,)
    page = admin_client.get(f"/admin/games/match/{match_id}/change/").content.decode()
    assert "Turn seconds" in page and "30" in page
    game = Game.objects.get(match_id=match_id, number=1)
    html = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "abandoned (the clock)" in html
    assert Match.objects.get(pk=match_id).status == "finished"


def test_the_history_counts_turns_as_turns_and_offers_apart(admin_client, alice, bob,
                                                            scripted_dice):
    """Offers and answers are lines of their own, not turns: the heading's count is the
    game's "Turns"."""
    _, game = _offered_accepted_played_offered_refused(alice, bob, scripted_dice)
    assert game.turns == 1 and len(game.offers) == 2
    html = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Move history (1 turn, 2 offers)" in html
    turns_field = re.search(r'field-turns.*?<div class="readonly">(\d+)</div>', html, re.S)
    assert turns_field and turns_field.group(1) == "1"
    rows = re.findall(r'<tr class="(\w+) [^"]*"', html)
    assert rows == ["offer", "turn", "offer"]
    assert len(re.findall(r'data-turn="\d+"', html)) == game.turns
