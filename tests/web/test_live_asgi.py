"""Two browsers on one online match against the production ASGI server (granian,
``nard_site.asgi`` in a subprocess: tests.support.AsgiServer, as tests/streams uses), so
the page follows the match *stream* rather than pytest's WSGI live_server and its
polling fallback: B's board shows A's step within 1 s, without a reload.

The server rolls real dice, so the roll-off (which may tie, and tie again) goes through
the API with each player's token until a starter is decided; only the turn under test is
watched through the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import CHROMIUM_ARGS, AsgiServer, call, prepare_database, server_env
from tests.web.conftest import PASSWORD
from tests.web.test_browser import login

SEEN_WITHIN = 1000  # ms
NAMES = ("alice", "bob")
SIDES = {"white": "alice", "black": "bob"}  # alice invites bob, playing white


@pytest.fixture
def asgi_server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """granian on a fresh SQLite file: the URL, and each user's API token."""
    env = server_env(tmp_path / "web.sqlite3")
    tokens = prepare_database(env, dict.fromkeys(NAMES, PASSWORD))
    server = AsgiServer(env)
    try:
        yield {"port": server.port, "url": server.url, "tokens": tokens}
    finally:
        server.stop()


def api(server: dict[str, Any], method: str, path: str, name: str,
        body: Any = None) -> Any:
    status, data = call(server["port"], method, f"/api/v1/{path}", server["tokens"][name],
                        body)
    assert status in (200, 201), (method, path, name, status, data)
    return data


def roll_off(server: dict[str, Any], match_id: int) -> dict[str, Any]:
    """Roll each side's die through the API (again after a tie) until a side starts."""
    for _ in range(50):
        state = api(server, "GET", f"matches/{match_id}/", "alice")["state"]
        if state["phase"] != "roll-off":
            return state
        for side, name in SIDES.items():
            if (state.get("roll_off") or {}).get(side) is None:
                api(server, "POST", f"matches/{match_id}/roll/", name, {})
                break
    raise AssertionError("the roll-off never ended")


def test_b_sees_a_step_within_a_second_over_the_stream(
        chromium: str, asgi_server: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect, sync_playwright

    server = asgi_server
    match = api(server, "POST", "matches/", "alice",
                {"length": 1, "opponent": "bob", "color": "white"})
    match_id = match["id"]
    api(server, "POST", f"matches/{match_id}/join/", "bob", {})
    state = roll_off(server, match_id)
    side = state["turn"]
    mover = SIDES[side]
    watcher = next(name for name in NAMES if name != mover)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            pages: dict[str, Any] = {}
            errors: list[str] = []  # any JavaScript error on either page fails the test
            for name in NAMES:
                page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                page.set_default_timeout(15_000)
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(f"{server['url']}/play/")
                login(page, name)
                page.goto(f"{server['url']}/play/#/match/{match_id}")
                pages[name] = page
            for page in pages.values():
                expect(page.locator("#live")).to_have_attribute("data-state", "live")
                expect(page.locator("#live")).to_have_attribute("data-mode", "stream")
                expect(page.locator("#live")).to_have_text("● live")
            board = pages[watcher].locator("#board")

            # The mover's dice, through the API: the watcher's page follows.
            if state["phase"] == "roll":
                state = api(server, "POST", f"matches/{match_id}/roll/", mover, {})["state"]
            assert state["phase"] == "move" and state["turn"] == side, state
            expect(board).to_have_attribute("data-version", str(state["version"]))
            expect(board).to_have_attribute("data-phase", "move")

            # One step of the mover's; the watcher's board shows it within a second of the
            # answer, without a reload.
            step = state["legal_steps"][0]
            played = api(server, "POST", f"matches/{match_id}/moves/", mover,
                         {"steps": [{"from": step["from"], "to": step["to"],
                                     "die": step["die"]}],
                          "expected_version": state["version"]})
            expect(board).to_have_attribute("data-version", str(played["state"]["version"]),
                                            timeout=SEEN_WITHIN)
            expect(pages[watcher].locator("#announce")).to_contain_text("played")
            expect(pages[watcher].locator("#live")).to_have_attribute("data-mode", "stream")
            assert not errors, errors
        finally:
            browser.close()


def test_the_paired_event_takes_the_waiting_player_to_the_match(
        chromium: str, asgi_server: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice waits in quick pairing with her lobby on the account stream; Bob's request
    pairs them. The stream's ``paired`` takes her to the match, told so (a toast, and the
    beep she asked for) — her page's
    own look at ``GET pairing/`` is held at "waiting" here, so only the event can."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect, sync_playwright

    server = asgi_server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(15_000)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server['url']}/play/")
            login(page, "alice")
            page.evaluate("() => localStorage.setItem('nard.sound', '1')")   # the beep asked for
            expect(page.locator("#lobby-live")).to_have_attribute("data-mode", "stream")
            page.click("#pairing")
            expect(page.locator("#pairing")).to_have_text("Stop waiting")
            page.route("**/api/v1/pairing/", lambda route: route.fulfill(
                status=200, content_type="application/json",
                body='{"state": "waiting", "match": null, "options": null, '
                     '"waiting_seconds": 1, "window": 100}')
                if route.request.method == "GET" else route.continue_())
            paired = api(server, "POST", "pairing/", "bob",
                         {"rules": "long_nardy", "length": 3, "rated": True})
            assert paired["state"] == "paired", paired
            page.wait_for_url(f"**#/match/{paired['match']}")
            expect(page.locator("#toast")).to_contain_text("Paired with bob")
            assert int(page.evaluate("() => document.body.dataset.beeps || 0")) >= 1
            assert not errors, errors
        finally:
            browser.close()
