"""Who may open which stream: as GET matches/{id}/ for a match, an account for its own."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import AsyncClient

from tests.streams.conftest import open_stream, run, token_of
from tests.support import assert_error, start_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match_id(alice: Any, bob: Any, scripted_dice: Any) -> int:
    return start_match(alice, bob, script=scripted_dice)["id"]


def test_a_stranger_and_anonymous_read_a_match_stream(match_id: int, seat: Any,
                                                      api: Any) -> None:
    assert api.get(f"/api/v1/matches/{match_id}/").status_code == 200  # as the match page
    key = token_of(seat("carol").user)

    async def scenario() -> None:
        for headers in ({}, {"Authorization": f"Token {key}"}):
            reader = await open_stream(f"/api/v1/matches/{match_id}/stream/", **headers)
            assert (await reader.next())["event"] == "match_created"
            await reader.close()

    run(scenario)


def test_event_source_accept_header_and_no_caching(match_id: int) -> None:
    async def scenario() -> None:
        reader = await open_stream(f"/api/v1/matches/{match_id}/stream/",
                                   Accept="text/event-stream")
        assert reader.response["Cache-Control"] == "no-cache"
        await reader.close()

    run(scenario)


def test_errors_in_the_error_shape(api: Any, match_id: int) -> None:
    assert_error(api.get("/api/v1/matches/999999/stream/"), 404, "not_found")
    assert_error(api.get(f"/api/v1/matches/{'9' * 5000}/stream/"), 404, "not_found")
    assert_error(api.get(f"/api/v1/matches/{match_id}/stream/?after=-1"), 400,
                 "validation_error")
    assert_error(api.get(f"/api/v1/matches/{match_id}/stream/",
                         HTTP_LAST_EVENT_ID="x"), 400, "validation_error")
    assert_error(api.get("/api/v1/stream/"), 401, "not_authenticated")
    assert_error(api.get("/api/v1/stream/", HTTP_ACCEPT="text/event-stream"), 401,
                 "not_authenticated")
    assert_error(api.get("/api/v1/stream/", HTTP_AUTHORIZATION="Token nope"), 401,
                 "not_authenticated")


def test_never_a_token_in_the_url(api: Any, alice: Any) -> None:
    key = token_of(alice.user)
    for query in (f"token={key}", f"auth_token={key}", f"Authorization=Token%20{key}"):
        assert_error(api.get(f"/api/v1/stream/?{query}"), 401, "not_authenticated")


def test_session_cookie_as_a_browser_sends_it(alice: Any) -> None:
    client = AsyncClient()
    client.force_login(alice.user)

    async def scenario() -> None:
        reader = await open_stream("/api/v1/stream/", client=client,
                                   Accept="text/event-stream")
        await reader.close()

    run(scenario)


def test_open_streams_per_account_are_limited(alice: Any, settings: Any) -> None:
    settings.STREAMS_PER_ACCOUNT = 2
    key = token_of(alice.user)

    async def scenario() -> None:
        headers = {"Authorization": f"Token {key}"}
        first = await open_stream("/api/v1/stream/", **headers)
        second = await open_stream("/api/v1/stream/", **headers)
        refused = await AsyncClient().get("/api/v1/stream/", headers=headers)
        assert_error(refused, 429, "throttled")
        await first.close()  # its slot comes back
        third = await open_stream("/api/v1/stream/", **headers)
        await second.close()
        await third.close()

    run(scenario)


def test_behind_a_proxy_the_per_address_limit_counts_each_client(match_id: int,
                                                                 settings: Any) -> None:
    """With ``NUM_PROXIES=1`` the address is the throttles' (the last hop
    of X-Forwarded-For), not the proxy's: two clients behind it hold their own budgets."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.STREAMS_PER_IP = 2
    url = f"/api/v1/matches/{match_id}/stream/"

    async def scenario() -> None:
        mine = [await open_stream(url, **{"X-Forwarded-For": "203.0.113.7"})
                for _ in range(2)]
        refused = await AsyncClient().get(url, headers={"X-Forwarded-For": "203.0.113.7"})
        assert_error(refused, 429, "throttled")
        # Another client through the same proxy (the same REMOTE_ADDR) is not refused.
        theirs = [await open_stream(url, **{"X-Forwarded-For": "198.51.100.2"})
                  for _ in range(2)]
        for reader in mine + theirs:
            await reader.close()

    run(scenario)
