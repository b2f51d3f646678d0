"""API.md "Errors": one JSON shape for every 4xx; never a 500 for bad input."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support import API, assert_error, start_match

pytestmark = pytest.mark.django_db
REGISTER = f"{API}/accounts/register/"
JSON = "application/json"


@pytest.fixture
def anon() -> APIClient:
    client = APIClient()
    client.raise_request_exception = False  # a crash must come back as a 500 answer
    return client


# --- status codes and content types -------------------------------------------------------


def test_401_missing_and_invalid_and_malformed_tokens(anon):
    assert_error(anon.get(f"{API}/accounts/me/"), 401, "not_authenticated")
    for header in ("Token deadbeef", "Token", "Token a b", "Token \u00e9\u00e9"):
        anon.credentials(HTTP_AUTHORIZATION=header)
        assert_error(anon.get(f"{API}/accounts/me/"), 401, "not_authenticated")
        # A bad token is refused even on a public read.
        assert_error(anon.get(f"{API}/matches/"), 401, "not_authenticated")


def test_403_stranger_and_csrf(alice, bob, seat, scripted_dice, make_user):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    assert_error(seat("carol").post(match_id, "roll"), 403, "permission_denied")
    make_user("sess", password="pw-long-enough-1")
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="sess", password="pw-long-enough-1")
    assert_error(client.post(f"{API}/matches/", {"length": 1}, format="json"), 403,
             "csrf_failed")  # its own code, not permission_denied: the cookie is what is missing


@pytest.mark.parametrize("url", [
    "/api/v1/no-such-thing/", "/api/v1/matches/abc/", "/api/v1/matches/999999/",
    "/api/v1/matches/99999999999999999999999/", "/api/v1/matches/999999/events/",
    "/api/v1/matches/999999/games/", "/api/v1/matches/999999/games/1/moves/",
    "/api/v1/accounts/users/nobody/", "/api/v1/matches/1/nothing/", "/api/v1/",
])
def test_404_is_json_error(anon, url):
    assert_error(anon.get(url), 404, "not_found")


@pytest.mark.parametrize("method, url", [
    ("post", "/api/v1/accounts/users/nobody/"), ("delete", "/api/v1/accounts/register/"),
    ("get", "/api/v1/accounts/register/"), ("get", "/api/v1/analysis/legal-plays/"),
    ("put", "/api/v1/health/"),
])
def test_405_is_json_error(anon, method, url):
    assert_error(getattr(anon, method)(url), 405, "method_not_allowed")


@pytest.mark.parametrize("action", ["roll", "join", "resign"])
def test_405_on_match_actions_for_a_player(alice, bob, scripted_dice, action):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    assert_error(alice.client.get(f"{API}/matches/{match_id}/{action}/"), 405, "method_not_allowed")
    assert_error(alice.client.put(f"{API}/matches/{match_id}/", {}, format="json"), 405,
             "method_not_allowed")


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "", "image/png"])
def test_415_is_json_error(alice, content_type):
    response = alice.client.generic("POST", f"{API}/matches/", b'{"length": 1}',
                                    content_type=content_type)
    assert_error(response, 415, "unsupported_media_type")


def test_413_is_json_error(alice):
    body = '{"length": 1, "opponent": "' + "x" * 300_000 + '"}'
    assert_error(alice.client.generic("POST", f"{API}/matches/", body, content_type=JSON), 413,
             "payload_too_large")
    body = '{"display_name": "' + "x" * 300_000 + '"}'
    assert_error(alice.client.generic("PATCH", f"{API}/accounts/me/", body, content_type=JSON),
             413, "payload_too_large")


def test_429_is_json_error_with_retry_after(anon, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    for _ in range(2):
        assert anon.get(f"{API}/matches/").status_code == 200
    response = anon.get(f"{API}/matches/")
    assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1


# --- malformed bodies ------------------------------------------------------------------------


@pytest.mark.parametrize("raw", [
    "{not json", "", "{", '{"length": 1,}', "'x'", '{"length": NaN}', '{"length": Infinity}',
    '{"a": 1, "a": 2}', "\ufeff{}", '{"length": ' + "9" * 5000 + "}",
])
def test_malformed_json_is_400(alice, raw):
    response = alice.client.generic("POST", f"{API}/matches/", raw.encode(), content_type=JSON)
    assert_error(response, 400, "validation_error")


def test_deeply_nested_json_is_400_not_500(anon):
    """200 KB of '[' fits under the 256 KB limit; json.loads raises RecursionError."""
    body = "[" * 100_000 + "]" * 100_000
    assert_error(anon.generic("POST", REGISTER, body, content_type=JSON), 400, "validation_error")


def test_deeply_nested_object_on_moves_is_400_not_500(alice, bob, scripted_dice):
    match_id = start_match(alice, bob, script=scripted_dice)["id"]
    alice.client.raise_request_exception = False
    body = '{"steps": ' + "[" * 60_000 + "]" * 60_000 + "}"
    response = alice.client.generic("POST", f"{API}/matches/{match_id}/moves/", body,
                                    content_type=JSON)
    assert_error(response, 400, "validation_error")


@pytest.mark.parametrize("charset", ["rot13", "base64", "hex", "zlib", "no-such-charset"])
def test_a_charset_that_is_no_text_encoding_is_400(anon, charset):
    """`Content-Type: application/json; charset=rot13` names a codec that is not a text
    encoding (bytes.decode raises LookupError, which the JSON parser does not catch), or
    none at all: a 400 validation_error, not a 500."""
    response = anon.generic("POST", REGISTER, b'{"username": "x"}',
                            content_type=f"application/json; charset={charset}")
    assert_error(response, 400, "validation_error")


@pytest.mark.parametrize("path, raw", [
    ("matches/", '{"length": 1, "color": "\\ud800"}'),
    ("matches/", '{"length": "\\ud800"}'),
    ("analysis/legal-plays/", '{"board": {"perspective": "\\udfff", "points": {}, '
                              '"off": {"mine": 0, "theirs": 0}, '
                              '"bar": {"mine": 0, "theirs": 0}}, "dice": [1, 2]}'),
    ("analysis/legal-plays/", '{"board": {"perspective": "white", "points": {"\\ud800": "x"}, '
                              '"off": {"mine": 0, "theirs": 0}, '
                              '"bar": {"mine": 0, "theirs": 0}}, "dice": [1, 2]}'),
])
def test_lone_surrogate_echoed_in_an_error_is_400_not_500(alice, path, raw):
    """Valid JSON (`\\ud800` escape) whose value the 400 message repeats: the renderer
    cannot encode the lone surrogate as UTF-8 and the answer becomes a 500."""
    alice.client.raise_request_exception = False
    response = alice.client.generic("POST", f"{API}/{path}", raw, content_type=JSON)
    assert_error(response, 400, "validation_error")


@pytest.mark.parametrize("body", [[], [1, 2], "text", 1, None, True])
@pytest.mark.parametrize("path", ["matches/", "analysis/legal-plays/", "accounts/register/",
                                  "accounts/token/"])
def test_non_object_bodies_are_400(alice, path, body):
    response = alice.client.post(f"{API}/{path}", body, format="json")
    assert_error(response, 400, "validation_error")


# --- the DEBUG=1 default of scripts/run.sh ----------------------------------------------------


def test_unknown_url_is_json_even_with_debug_on(anon, settings):
    """scripts/run.sh serves with DEBUG=1 (the settings default it off); Django then answers
    unknown URLs with its HTML technical 404 page instead of nard_site's handler404."""
    settings.DEBUG = True
    assert_error(anon.get("/api/v1/no-such-thing/"), 404, "not_found")


@pytest.mark.parametrize("debug", [True, False])
def test_post_without_trailing_slash_is_a_json_404(alice, settings, debug):
    """APPEND_SLASH + DEBUG: CommonMiddleware raises RuntimeError for a POST to
    /api/v1/matches (no slash), an HTML 500 on the development server; the API answers
    404 not_found instead, with DEBUG on (scripts/run.sh's default) and off."""
    settings.DEBUG = debug
    alice.client.raise_request_exception = False
    assert_error(alice.client.post(f"{API}/matches", {"length": 1}, format="json"), 404,
                 "not_found")


def test_schema_endpoint_errors_are_json(anon):
    """A 4xx from /api/v1/schema/ (unknown ?format=) would be rendered as YAML."""
    assert_error(anon.get(f"{API}/schema/?format=bogus"), 404, "not_found")
