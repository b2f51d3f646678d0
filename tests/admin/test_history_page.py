"""The game page: passes say which die could not be played, an unfinished game says whose
turn it is and the dice left, odd query parameters are ignored, one mark for empty cells."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.admin import pass_text, unplayed_dice
from games.models import Game
from nardy import Step
from tests.admin.conftest import started_match
from tests.dice import planned as planned_dice

pytestmark = pytest.mark.django_db


def test_a_pass_after_a_played_step_names_the_die():
    steps = [{"from": 24, "to": 18, "die": 6}]
    assert unplayed_dice([6, 5], steps) == [5]
    assert pass_text([6, 5], steps, "no legal move") == "the 5 could not be played"
    doubles = [{"from": 24, "to": 20, "die": 4}]
    assert pass_text([4, 4], doubles, "no legal move") == "3 × 4 could not be played"
    assert pass_text([6, 5], [], "no legal move") == "pass: no legal move"
    assert pass_text([6, 5], steps, "") == ""


@pytest.mark.parametrize("query", ["?turn=²", "?turn=1" + "0" * 4400, "?turn=٣"])
def test_odd_turn_parameters_show_the_current_board(staff_client, players, query):
    match = started_match(*players)
    game = Game.objects.get(pk=match.current_game_id)
    page = staff_client.get(reverse("admin:games_game_change", args=[game.pk]) + query)
    assert page.status_code == 200
    assert page.context["board_selected_turn"] is None


@pytest.mark.parametrize("length", ["²", "٣", "9" * 400])
def test_odd_length_filters_list_every_match(staff_client, players, length):
    match = started_match(*players)
    page = staff_client.get(reverse("admin:games_match_changelist"), {"length": length})
    assert page.status_code == 200
    assert match.pk in {m.pk for m in page.context["cl"].result_list}


def test_an_unfinished_game_says_whose_turn_it_is_and_the_dice_left(staff_client, players):
    white, _ = players
    match = started_match(*players)
    game_url = reverse("admin:games_game_change", args=[match.current_game_id])
    assert "White to roll." in staff_client.get(game_url).text
    with planned_dice([6, 5]):
        services.match_roll(match_id=match.pk, user=white)
    services.match_move(match_id=match.pk, user=white, steps=[Step(24, 18)])
    assert "White to move, dice left: 5." in staff_client.get(game_url).text


def test_empty_cells_use_one_mark(staff_client, players):
    started_match(*players)
    listing = staff_client.get(reverse("admin:games_match_changelist")).text
    assert '<span class="empty-value">-</span>' not in listing
    assert "–" in listing
