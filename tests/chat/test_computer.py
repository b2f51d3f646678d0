"""Against the computer: it says nothing unless asked — a greeting answered once, "gg"
after the match answered once with "good game", in the language it was asked in."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Match, MatchStatus
from tests.chat.conftest import say, texts
from tests.support import Seat, events

pytestmark = pytest.mark.django_db


@pytest.fixture
def computer_match(alice: Seat) -> int:
    created = alice.create(computer="random", color="white")
    assert created.status_code == 201, created.content
    return created.json()["id"]


def test_the_computer_answers_a_greeting_once_and_nothing_else(alice: Seat,
                                                              computer_match: int) -> None:
    assert say(alice, computer_match, "nice roll").status_code == 201
    assert texts(alice, computer_match) == ["nice roll"]
    say(alice, computer_match, "hello there")
    say(alice, computer_match, "hi again")
    assert texts(alice, computer_match) == ["nice roll", "hello there", "Hello, good luck!",
                                            "hi again"]
    logged = events(computer_match, "chat")
    assert [e["by"] for e in logged] == ["alice", "alice", "computer-random", "alice"]


def test_gg_after_the_match_in_russian(alice: Seat, computer_match: int) -> None:
    say(alice, computer_match, "gg")   # during play: no answer
    Match.objects.filter(pk=computer_match).update(status=MatchStatus.FINISHED,
                                                   winner="white", finished_at=timezone.now())
    say(alice, computer_match, "спасибо за игру")
    say(alice, computer_match, "gg")
    assert texts(alice, computer_match) == ["gg", "спасибо за игру", "Хорошая игра!", "gg"]
