"""Set-ups the browser tests share: two players in their own browser contexts, one
inviting the other to a match from the lobby and the other accepting it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.web.conftest import PASSWORD
from tests.web.test_browser import login, match_id_of, settle


@dataclass
class Pair:
    """The two pages on the match (White: the inviter, Black: the guest, unless the
    colour field says otherwise), its id, the inviter's settled match and the users."""

    inviter: Any
    guest: Any
    match_id: int
    match: dict[str, Any]
    users: tuple[Any, Any]


def invite_and_accept(open_page: Callable[..., Any], make_user: Callable[..., Any],
                      inviter: str = "alice", guest: str = "bob", *,
                      fields: dict[str, str] | None = None, reload: bool = True,
                      follow: bool = False, live: bool = True,
                      before_submit: Callable[[Any], None] | None = None) -> Pair:
    """Both log in; `inviter` invites `guest` as White (more of the lobby's form in
    `fields`: select ids create-<name>) and `guest` accepts from the invitations.

    reload: the guest reloads the lobby to see the invitation (else its account
    stream or polling must bring it). follow: the inviter's lobby is left to go to the
    match by itself, else the inviter opens it. live: wait until both
    pages say "live". before_submit(page): a look at the filled form."""
    users = (make_user(inviter, password=PASSWORD), make_user(guest, password=PASSWORD))
    host, visitor = open_page(), open_page()
    login(host, inviter)
    login(visitor, guest)
    host.select_option("#create-mode", "invite")
    host.fill("#create-opponent", guest)
    for name, value in {"color": "white", **(fields or {})}.items():
        host.select_option(f"#create-{name}", value)
    if before_submit:
        before_submit(host)
    host.click("#create-submit")
    host.wait_for_selector("#my-matches .match-row[data-status=invited]")
    if reload:
        visitor.reload()
    visitor.locator("#invitations .match-row").get_by_role("button", name="Accept").click(
        timeout=10_000)
    match_id = match_id_of(visitor)
    if follow:
        host.wait_for_url(f"**#/match/{match_id}", timeout=20_000)
    else:
        host.goto(host.url.split("#")[0] + f"#/match/{match_id}")
    match = settle(host, match_id)
    settle(visitor, match_id)
    if live:
        for page in (host, visitor):
            page.wait_for_selector("#live[data-state=live]")
    return Pair(host, visitor, match_id, match, users)


def hotseat_rolled_off(open_page: Callable[..., Any], make_user: Callable[..., Any],
                       seeded_dice: Callable[..., Any], username: str, *dice: int,
                       width: int = 1280, height: int = 900) -> tuple[Any, int]:
    """`username` logs in and opens a hotseat Long Nardy match; `dice` are queued (the
    first two the roll-off's: White's die, then Black's) and the roll-off is rolled from
    the page. Returns the page, on the starter's Roll, and the match id."""
    from tests.web.test_browser import create, press

    make_user(username, password=PASSWORD)
    page = open_page(width=width, height=height)
    login(page, username)
    match_id = create(page, mode="hotseat")
    settle(page, match_id, hotseat=True)
    seeded_dice(*dice)
    page.click("#roll")
    page.wait_for_function("text => document.querySelector('#status').textContent"
                           ".includes(text)", arg=f"White {dice[0]}")
    press(page, "#roll", match_id)   # Black's die
    return page, match_id
