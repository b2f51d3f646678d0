"""The admin speaks of each rule set in its own words: the board's numbering note, the
rule set's one title everywhere (the engine's ``RuleSet.title``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.engine import RULESETS
from games.models import Game, Match, Rules

pytestmark = pytest.mark.django_db

HEAD_SENTENCE = "Black's head is White's 12"


def active_match(white: Any, black: Any, rules: str, **extra: Any) -> Match:
    """An invitation to ``black`` accepted: game 1 waits for its roll-off."""
    match = services.match_create(user=white, length=3, opponent=black.username,
                                  color="white", rules=rules, **extra)
    services.match_join(match_id=match.pk, user=black)
    return Match.objects.get(pk=match.pk)


def note_of(html: str) -> str:
    found = re.search(r'<span class="board-note">(.*?)</span>', html, re.S)
    assert found, "the board has no numbering note"
    return re.sub(r"\s+", " ", found.group(1)).replace("&#x27;", "'")


@pytest.mark.parametrize("rules", Rules.values)
def test_the_board_note_fits_the_rule_set(staff_client, players, rules):
    match = active_match(*players, rules)
    game = Game.objects.get(pk=match.current_game_id)
    html = staff_client.get(reverse("admin:games_game_change", args=[game.pk])).text
    note = note_of(html)
    if rules == "long_nardy":
        assert HEAD_SENTENCE in note
    else:  # the hitting games (H1): no heads, the opponent's point q is our 25 − q
        assert HEAD_SENTENCE not in html
        assert "head" not in note
        assert "25 − q" in note and "bar" in note
