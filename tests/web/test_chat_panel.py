"""In a real chromium: the match page's chat panel (web/static/web/chat.js). Two players
talk in their room, live; a spectator, on a Russian page, reads it and talks in the
spectators' room, which the players' pages never show during play; a line the filter
holds is shown to its author only."""

from __future__ import annotations

import pytest

from games import services
from tests.web.conftest import PASSWORD, shot
from tests.web.test_browser import login

pytestmark = pytest.mark.django_db(transaction=True)


def on_match(page, username: str, match_id: int) -> None:
    login(page, username)
    page.goto(page.url.split("#")[0] + f"#/match/{match_id}")
    page.wait_for_selector("#chat #chat-h")


def test_players_and_a_spectator_chat_in_their_rooms(open_page, make_user) -> None:
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD)
    make_user("carol", password=PASSWORD)
    match = services.match_create(user=alice, length=1, opponent="bob", color="white")
    services.match_join(match_id=match.pk, user=bob)

    white, black, spectator = open_page(), open_page(), open_page(locale="ru-RU")
    on_match(white, "alice", match.pk)
    on_match(black, "bob", match.pk)
    on_match(spectator, "carol", match.pk)
    expect(spectator.locator("#chat-h")).to_have_text("Чат")
    expect(white.locator("#chat-tabs")).to_be_hidden()   # the players: their room only

    white.fill("#chat-input", "hi, good luck")
    white.click("#chat-send")
    expect(black.locator("#chat-lines .chat-line")).to_have_text(["alice hi, good luck ⚑"])
    expect(spectator.locator("#chat-lines .chat-line")).to_have_count(1)

    spectator.click('#chat-tabs [data-room="spectators"]')
    spectator.fill("#chat-input", "кто выиграет?")
    spectator.click("#chat-send")
    expect(spectator.locator("#chat-lines .chat-line")).to_have_count(1)
    expect(spectator.locator("#chat-lines .chat-line .chat-by")).to_have_text(["carol"])

    black.fill("#chat-input", "ты мудак")
    black.click("#chat-send")
    expect(black.locator("#chat-lines .chat-line.withheld")).to_have_count(1)
    black.fill("#chat-input", "you too")
    black.click("#chat-send")
    expect(white.locator("#chat-lines .chat-line")).to_have_count(2)   # not the held one
    assert "мудак" not in white.inner_text("#chat-lines")
    assert "кто выиграет" not in white.inner_text("#chat") + black.inner_text("#chat")
    shot(spectator, "chat-spectator-ru")
