"""The play page for a visitor and around the board: a guest plays the computer within
two clicks of the lobby and registers with the match kept; the notices' unread count in
the top bar, a challenge accepted from the list, in English and Russian."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from accounts.services import notice_create
from games import services
from games.models import Match
from tests.web.conftest import PASSWORD, elsewhere, shot
from tests.web.test_browser import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_guest_plays_the_computer_in_one_click_then_registers(
        open_page: Callable[..., Any]) -> None:
    page = open_page()
    page.click("#guest-computer")  # the lobby's first card: one click, and the board
    page.wait_for_url(re.compile(r"#/match/\d+"))
    match_id = int(page.url.rsplit("/", 1)[1])
    page.wait_for_selector(".board, svg")
    guest = User.objects.get(is_guest=True)
    assert re.fullmatch(r"Guest-[0-9a-f]{4}", guest.username)
    assert guest.username in page.inner_text("#who")
    match = Match.objects.get(pk=match_id)
    assert guest.pk in (match.white_id, match.black_id) and match.status == "active"
    shot(page, "guest-match")
    # Back in the lobby the guest may create an account: the same account, the match kept.
    page.goto(page.url.split("#")[0] + "#/")
    page.fill("#upgrade-form [name=username]", "newcomer")
    page.fill("#upgrade-form [name=password]", PASSWORD)
    page.click("#upgrade-form button[type=submit]")
    page.wait_for_selector("#upgrade-form", state="detached")
    # The top bar is drawn again once the new session is read (a poll in flight when the
    # session changed may make the page read it once more): wait for the new name.
    page.wait_for_selector("#who:has-text('newcomer')")
    user = User.objects.get(pk=guest.pk)
    assert (user.username, user.is_guest) == ("newcomer", False)
    page.wait_for_selector(f"#my-matches [data-match='{match_id}']")


def test_quick_pairing_as_a_guest_is_one_click(open_page: Callable[..., Any]) -> None:
    page = open_page()
    page.click("#guest-pairing")
    page.wait_for_selector(".pairing-status:has-text('Waiting')")
    guest = User.objects.get(is_guest=True)
    assert guest.username in page.inner_text("#who")


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_unread_count_and_a_challenge_accepted_from_the_list(
        open_page: Callable[..., Any], make_user: Callable[..., Any], locale: str) -> None:
    host = make_user("host", password=PASSWORD)
    rival = make_user("rival", password=PASSWORD)
    notice_create(recipient=host, kind="tournament_started", data={"name": "Autumn"})
    page = open_page(locale=locale)
    login(page, "host")
    page.wait_for_selector("#notice-count:has-text('1')")
    match = elsewhere(services.match_create, user=rival, length=3, opponent="host")
    # pytest's live server is WSGI: the account stream answers what waits, then the page
    # polls; on a reload the new notice is there (tests/social has it heard live).
    page.reload()
    page.wait_for_selector("#notice-count:has-text('2')")
    page.click("#notices-toggle")
    item = page.locator("#notice-list [data-kind=challenge]")
    text = item.inner_text()
    assert ("rival challenges you to a 3-point match." in text if locale == "en-GB"
            else "rival вызывает вас на матч до 3 очков." in text), text
    page.wait_for_selector("#notice-count", state="hidden")  # opened: read
    assert host.notices.filter(read_at__isnull=True).count() == 0
    shot(page, f"notices-{locale}")
    item.locator(".notice-accept").click()
    page.wait_for_url(re.compile(rf"#/match/{match.pk}$"))
    assert Match.objects.get(pk=match.pk).status == "active"


def test_follow_from_a_profile_then_watch_and_challenge_from_the_lobby(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    make_user("host", password=PASSWORD)
    rival = make_user("rival", password=PASSWORD)
    third = make_user("third", password=PASSWORD)
    playing = elsewhere(services.match_create, user=rival, length=1, opponent="third")
    elsewhere(services.match_join, match_id=playing.pk, user=third)
    page = open_page()
    login(page, "host")
    page.goto(page.url.split("#")[0] + "#/players/rival")
    page.click("#follow-button:has-text('Follow')")
    page.wait_for_selector("#follow-button:has-text('Unfollow')")
    page.goto(page.url.split("#")[0] + "#/")
    row = page.locator("#following [data-player=rival]")
    row.wait_for()
    row.locator(".challenge").click()
    assert page.input_value("#create-opponent") == "rival"
    assert page.input_value("#create-mode") == "invite"
    row.locator(".watch-link").click()  # one click to the followed player's board
    page.wait_for_url(re.compile(rf"#/match/{playing.pk}$"))
