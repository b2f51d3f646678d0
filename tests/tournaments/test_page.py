"""The tournaments pages in a browser (Debian's chromium through Playwright): the list,
creating a knock-out, joining from two accounts, starting it — both players are taken to
their board — and the Russian page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD
from tests.web.test_browser import login
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_join_start_and_go_to_the_board(open_page: Callable[..., Any],
                                               make_user: Callable[..., Any],
                                               live_server: Any) -> None:
    make_user("alice", password=PASSWORD)
    make_user("bob", password=PASSWORD)
    host, guest = open_page(), open_page()
    login(host, "alice")
    login(guest, "bob")
    host.click("#nav-tournaments")
    host.wait_for_url("**/play/tournaments/")
    host.fill("#create [name=name]", "Spring Cup")
    host.select_option("#create [name=system]", "knockout")
    host.click("#create button[type=submit]")
    host.wait_for_url(re.compile(r"/play/tournaments/\d+/$"))
    tid = int(host.url.rstrip("/").rsplit("/", 1)[1])
    host.locator("#t-name", has_text="Spring Cup").wait_for()
    host.click("#t-join")
    host.wait_for_selector("#t-standings tbody tr")
    guest.goto(f"{live_server.url}/play/tournaments/")
    guest.click(f"a[href='/play/tournaments/{tid}/']")
    guest.click("#t-join")
    guest.locator("#t-standings tbody tr").nth(1).wait_for()
    # the host's page hears bob's joining on the tournament's stream
    host.locator("#t-standings tbody tr").nth(1).wait_for(timeout=20_000)
    host.click("#t-start")
    host.wait_for_url(re.compile(r"/play/#/match/\d+$"), timeout=20_000)
    match_id = Tournament.objects.get(pk=tid).pairings.get().match_id
    for page in (host, guest):  # paired: both are taken to the board
        page.wait_for_url(f"**/play/#/match/{match_id}", timeout=20_000)


def test_the_russian_list(open_page: Callable[..., Any], live_server: Any) -> None:
    page = open_page()
    page.goto(f"{live_server.url}/play/tournaments/?lang=ru")
    assert page.text_content("h1") == "Турниры"
    page.wait_for_selector("#running li")
    assert page.text_content("#running li") == "Нет"


def test_a_knockout_page_on_a_phone(open_page: Callable[..., Any], seat: Any,
                                    live_server: Any) -> None:
    """A phone's width: the bracket and the standings are there, and the page is no
    wider than the screen."""
    players = [seat(f"p{i}") for i in range(1, 6)]
    t = players[0].client.post("/api/v1/tournaments/", {
        "name": "Phone Cup", "system": "knockout", "length": 1}, format="json").json()
    for player in players:
        player.client.post(f"/api/v1/tournaments/{t['id']}/join/", format="json")
    players[0].client.post(f"/api/v1/tournaments/{t['id']}/start/", format="json")
    page = open_page(width=390, height=844)
    page.goto(f"{live_server.url}/play/tournaments/{t['id']}/")
    page.locator(".bracket-round").first.wait_for()
    assert page.locator(".bracket-match").count() == 4  # 5 players: 3 byes and a match
    assert page.locator("#t-standings tbody tr").count() == 5
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
