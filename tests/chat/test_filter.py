"""The word filter, English and Russian: a flagged line is seen by its author only, is
no match event, and is in the moderators' queue; its false-positive rate on ordinary
game talk is the one docs/chat.md states."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench.chat_filter import caught, false_positives
from chat.filter import flagged_words
from tests.chat.conftest import say, texts
from tests.support import Seat, events

QUEUE = "/api/v1/moderation/reports/"


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["you are a fucking idiot", "ты мудак", "иди нахуй",
                                  "xуй тебе"])
def test_a_flagged_line_is_hidden_from_all_but_its_author_and_queued(
        alice: Seat, bob: Seat, seat: Callable[..., Seat], active_match: int,
        text: str) -> None:
    staff = seat("mod")
    staff.user.is_staff = True
    staff.user.save(update_fields=["is_staff"])
    answer = say(bob, active_match, text)
    assert answer.status_code == 201 and answer.json()["flagged"] is True
    assert texts(alice, active_match) == []
    assert texts(bob, active_match) == [text]
    assert events(active_match, "chat") == []
    item = staff.client.get(QUEUE).json()["results"][0]
    assert (item["reporter"], item["accused"], item["reason"]) == (None, "bob", "filter")
    assert item["line"]["text"] == text and item["line"]["flagged"] is True


@pytest.mark.parametrize("text", [
    "хлеба", "учеба", "употребляю", "команда", "мудрый", "страхуем", "победа", "хуже",
    "assess the position", "pass", "Scunthorpe", "what the hell", "damn sixes"])
def test_ordinary_words_near_the_listed_ones_pass(text: str) -> None:
    assert flagged_words(text) == []


@pytest.mark.parametrize("text", ["sh1t", "6лядь", "xуй", "ПИЗДЕЦ", "fck off"])
def test_look_alikes_and_case_are_caught(text: str) -> None:
    assert flagged_words(text) != []


def test_the_false_positive_rates_are_the_documented_ones() -> None:
    """docs/chat.md: 1 of 140 English lines, none of 140 Russian ones."""
    english, russian = false_positives("en"), false_positives("ru")
    assert (len(english[0]), english[1]) == (1, 140), english
    assert (len(russian[0]), russian[1]) == (0, 140), russian


def test_every_abusive_line_of_the_samples_is_caught() -> None:
    assert caught("en") == ([], 20)
    assert caught("ru") == ([], 20)
