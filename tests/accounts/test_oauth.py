"""Third-party apps: the OAuth 2 authorization code flow with PKCE (log-in, consent, code,
token, the API with the Bearer token, a refused scope, refresh, revocation) through
Django's test client and over real HTTP against a live server; the grants and challenges
refused, the log-in limits, and the schema's security scheme."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import urllib.error
import urllib.request
from http import cookiejar as http_cookiejar
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, Application

from accounts.models import User
from games.models import Match
from tests.support import assert_error

pytestmark = pytest.mark.django_db

API = "/api/v1"
REDIRECT = "https://app.example/callback"
PASSWORD = "correct-horse-battery"
HANG = 60  # seconds: a guard against a hung server only, never an assertion on speed
SHA256 = "s256".upper()  # PKCE's method; spelt so, as "S" and a number reads as a rule (S1-S7)


@pytest.fixture
def app() -> Application:
    """A public client (no secret: a browser or desktop app), as staff register it in the
    admin (Django OAuth Toolkit › Applications)."""
    return Application.objects.create(
        name="A nardy app", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT, algorithm="")


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).decode().rstrip("=")


def authorize_query(app: Application, challenge: str, scope: str) -> dict[str, str]:
    return {"response_type": "code", "client_id": app.client_id, "redirect_uri": REDIRECT,
            "scope": scope, "state": "s-42", "code_challenge": challenge,
            "code_challenge_method": SHA256}


def log_in_and_approve(browser: Client, app: Application, challenge: str,
                       scope: str = "match:read account:read") -> str:
    """The account's part: log in at /oauth/login/, see the consent page, approve; the
    code from the redirect back to the app."""
    query = authorize_query(app, challenge, scope)
    first = browser.get("/oauth/authorize/", query)
    assert first.status_code == 302 and first["Location"].startswith("/oauth/login/")
    login_page = browser.get(first["Location"])
    assert login_page.status_code == 200
    logged_in = browser.post("/oauth/login/", {
        "username": "alice", "password": PASSWORD,
        "next": parse_qs(urlparse(first["Location"]).query)["next"][0]})
    assert logged_in.status_code == 302, logged_in.content
    consent = browser.get(logged_in["Location"])
    assert consent.status_code == 200 and b"match:read" in consent.content
    approved = browser.post("/oauth/authorize/", {**query, "allow": "Authorize"})
    assert approved.status_code == 302
    back = urlparse(approved["Location"])
    assert f"{back.scheme}://{back.netloc}{back.path}" == REDIRECT
    answer = parse_qs(back.query)
    assert answer["state"] == ["s-42"]
    return answer["code"][0]


def token_call(browser: Client, **form: str) -> Any:
    return browser.post("/oauth/token/", urlencode(form),
                        content_type="application/x-www-form-urlencoded")


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_the_whole_pkce_dance(make_user, app):
    make_user("alice", password=PASSWORD)
    browser, app_client = Client(), Client()
    verifier, challenge = pkce()

    code = log_in_and_approve(browser, app, challenge)
    without_verifier = token_call(app_client, grant_type="authorization_code", code=code,
                                  redirect_uri=REDIRECT, client_id=app.client_id)
    assert without_verifier.status_code == 400  # PKCE: the code alone is not enough
    code = log_in_and_approve(Client(), app, challenge)  # that code is spent: a new one
    exchanged = token_call(app_client, grant_type="authorization_code", code=code,
                           redirect_uri=REDIRECT, client_id=app.client_id,
                           code_verifier=verifier)
    assert exchanged.status_code == 200, exchanged.content
    tokens = exchanged.json()
    assert tokens["token_type"] == "Bearer"
    assert set(tokens["scope"].split()) == {"match:read", "account:read"}
    assert AccessToken.objects.count() == 1  # stored as its SHA-256 only, as API keys are
    assert not AccessToken.objects.filter(token=tokens["access_token"]).exists()

    me = app_client.get(f"{API}/accounts/me/", **bearer(tokens["access_token"]))
    assert me.status_code == 200 and me.json()["username"] == "alice"
    assert app_client.get(f"{API}/matches/", **bearer(tokens["access_token"])).status_code == 200

    refused = app_client.post(f"{API}/matches/", {"length": 1, "hotseat": True},
                              content_type="application/json", **bearer(tokens["access_token"]))
    error = assert_error(refused, 403, "insufficient_scope")
    assert error["details"]["required"] == "match:play"
    assert not Match.objects.exists()

    refreshed = token_call(app_client, grant_type="refresh_token",
                           refresh_token=tokens["refresh_token"], client_id=app.client_id)
    assert refreshed.status_code == 200, refreshed.content
    fresh = refreshed.json()["access_token"]
    assert fresh != tokens["access_token"]
    assert_error(app_client.get(f"{API}/accounts/me/", **bearer(tokens["access_token"])), 401,
                 "not_authenticated")
    assert app_client.get(f"{API}/accounts/me/", **bearer(fresh)).status_code == 200

    revoked = app_client.post("/oauth/revoke/", urlencode(
        {"token": fresh, "client_id": app.client_id}),
        content_type="application/x-www-form-urlencoded")
    assert revoked.status_code == 200
    assert_error(app_client.get(f"{API}/accounts/me/", **bearer(fresh)), 401,
                 "not_authenticated")


def test_an_approved_match_play_scope_plays(make_user, app):
    make_user("alice", password=PASSWORD)
    verifier, challenge = pkce()
    code = log_in_and_approve(Client(), app, challenge, scope="match:play match:read")
    token = token_call(Client(), grant_type="authorization_code", code=code,
                       redirect_uri=REDIRECT, client_id=app.client_id,
                       code_verifier=verifier).json()["access_token"]

    created = Client().post(f"{API}/matches/", {"length": 1, "hotseat": True},
                            content_type="application/json", **bearer(token))

    assert created.status_code == 201 and created.json()["white"] == "alice"
    assert_error(Client().get(f"{API}/accounts/me/", **bearer(token)), 403,
                 "insufficient_scope")


@pytest.mark.parametrize("method", [None, "plain"])
def test_authorize_without_a_sha256_challenge_is_refused(make_user, app, method):
    make_user("alice", password=PASSWORD)
    browser = Client()
    browser.login(username="alice", password=PASSWORD)
    query = authorize_query(app, "x" * 43, "match:read")
    if method is None:
        del query["code_challenge"], query["code_challenge_method"]
    else:
        query["code_challenge_method"] = method

    answer = browser.post("/oauth/authorize/", {**query, "allow": "Authorize"})

    assert answer.status_code == 302, answer.content
    assert parse_qs(urlparse(answer["Location"]).query)["error"] == ["invalid_request"]


@pytest.mark.parametrize(("grant", "error"), [("password", "invalid_grant"),
                                              ("client_credentials", "unauthorized_client")])
def test_grants_other_than_the_code_are_refused(make_user, app, grant, error):
    make_user("alice", password=PASSWORD)
    app.authorization_grant_type = {"password": Application.GRANT_PASSWORD,
                                    "client_credentials": Application.GRANT_CLIENT_CREDENTIALS
                                    }[grant]
    app.client_type = Application.CLIENT_CONFIDENTIAL
    app.client_secret = "app-secret"
    app.save()

    answer = token_call(Client(), grant_type=grant, username="alice", password=PASSWORD,
                        client_id=app.client_id, client_secret="app-secret")

    assert answer.status_code == 400
    assert answer.json()["error"] == error
    assert not AccessToken.objects.exists()


def test_an_unknown_bearer_token_is_refused_even_on_a_public_read(api, db):
    api.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    error = assert_error(api.get(f"{API}/matches/"), 401, "not_authenticated")
    assert "Bearer" in error["message"]


def test_the_login_page_keeps_the_log_in_limits(make_user, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    make_user("alice", password=PASSWORD)
    browser = Client()
    for _ in range(2):
        wrong = browser.post("/oauth/login/", {"username": "alice", "password": "wrong"})
        assert wrong.status_code == 200
    refused = browser.post("/oauth/login/", {"username": "alice", "password": PASSWORD})
    assert refused.status_code == 200  # the form again, not a redirect: not logged in
    assert b"Too many failed log-ins for this username" in refused.content
    assert "_auth_user_id" not in browser.session


def test_the_schema_declares_the_oauth2_scheme_and_each_operations_scope(api, db):
    schema = api.get(f"{API}/schema/", {"format": "json"}).json()
    scheme = schema["components"]["securitySchemes"]["oauth2"]
    flow = scheme["flows"]["authorizationCode"]
    assert flow["authorizationUrl"] == "/oauth/authorize/"
    assert flow["tokenUrl"] == "/oauth/token/"
    assert set(flow["scopes"]) == {"match:read", "match:play", "account:read",
                                   "account:write", "bot:play"}
    create = schema["paths"]["/api/v1/matches/"]["post"]
    assert {"oauth2": ["match:play"]} in create["security"]
    me = schema["paths"]["/api/v1/accounts/me/"]["get"]
    assert {"oauth2": ["account:read"]} in me["security"]
    tokens = schema["paths"]["/api/v1/accounts/tokens/"]["post"]
    assert not any("oauth2" in requirement for requirement in tokens["security"])


def test_a_new_password_revokes_the_apps_tokens(make_user, app):
    alice = make_user("alice", password=PASSWORD)
    verifier, challenge = pkce()
    code = log_in_and_approve(Client(), app, challenge)
    token = token_call(Client(), grant_type="authorization_code", code=code,
                       redirect_uri=REDIRECT, client_id=app.client_id,
                       code_verifier=verifier).json()["access_token"]
    assert Client().get(f"{API}/accounts/me/", **bearer(token)).status_code == 200

    alice.set_password("another-horse-battery")
    alice.save()

    assert_error(Client().get(f"{API}/accounts/me/", **bearer(token)), 401, "not_authenticated")
    assert not AccessToken.objects.exists()


# --- the same dance over real HTTP, as a browser and an app on the network would -----------


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None  # each redirect is looked at, not followed


def http(opener: urllib.request.OpenerDirector, method: str, url: str,
         form: dict[str, str] | None = None, headers: dict[str, str] | None = None
         ) -> tuple[int, dict[str, str], bytes]:
    data = urlencode(form).encode() if form is not None else None
    return send(opener, urllib.request.Request(url, data=data, method=method,
                                               headers=headers or {}))


def send(opener: urllib.request.OpenerDirector, request: urllib.request.Request
         ) -> tuple[int, dict[str, str], bytes]:
    try:
        with opener.open(request, timeout=HANG) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


def test_the_pkce_dance_over_http(live_server: Any, transactional_db: Any) -> None:
    User.objects.create_user("alice", password=PASSWORD)
    app = Application.objects.create(
        name="A nardy app", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT, algorithm="")
    base = live_server.url
    jar = http_cookiejar.CookieJar()
    browser = urllib.request.build_opener(_NoRedirects, urllib.request.HTTPCookieProcessor(jar))
    app_side = urllib.request.build_opener(_NoRedirects)
    verifier, challenge = pkce()
    query = authorize_query(app, challenge, "match:read account:read")

    status, headers, _ = http(browser, "GET", f"{base}/oauth/authorize/?{urlencode(query)}")
    assert status == 302 and headers["Location"].startswith("/oauth/login/")
    status, _, page = http(browser, "GET", base + headers["Location"])
    assert status == 200
    csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert csrf is not None
    next_url = parse_qs(urlparse(headers["Location"]).query)["next"][0]
    status, headers, _ = http(browser, "POST", f"{base}/oauth/login/", {
        "csrfmiddlewaretoken": csrf.group(1).decode(), "username": "alice",
        "password": PASSWORD, "next": next_url})
    assert status == 302
    status, _, consent = http(browser, "GET", base + headers["Location"])
    assert status == 200 and b"match:read" in consent
    csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', consent)
    assert csrf is not None
    status, headers, _ = http(browser, "POST", f"{base}/oauth/authorize/", {
        **query, "allow": "Authorize", "csrfmiddlewaretoken": csrf.group(1).decode()})
    assert status == 302 and headers["Location"].startswith(REDIRECT)
    code = parse_qs(urlparse(headers["Location"]).query)["code"][0]

    status, _, body = http(app_side, "POST", f"{base}/oauth/token/", {
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
        "client_id": app.client_id, "code_verifier": verifier})
    assert status == 200, body
    tokens = json.loads(body)
    auth = {"Authorization": f"Bearer {tokens['access_token']}"}

    status, _, body = http(app_side, "GET", f"{base}{API}/accounts/me/", headers=auth)
    assert status == 200 and json.loads(body)["username"] == "alice"
    request = urllib.request.Request(f"{base}{API}/matches/", method="POST",
                                     data=b'{"length": 1, "hotseat": true}',
                                     headers={**auth, "Content-Type": "application/json"})
    status, _, body = send(app_side, request)
    assert status == 403 and json.loads(body)["error"]["code"] == "insufficient_scope"
    assert not Match.objects.exists()

    status, _, body = http(app_side, "POST", f"{base}/oauth/token/", {
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
        "client_id": app.client_id})
    assert status == 200, body
    fresh = json.loads(body)["access_token"]
    status, _, _ = http(app_side, "GET", f"{base}{API}/accounts/me/", headers=auth)
    assert status == 401  # the refreshed-away token
    status, _, _ = http(app_side, "POST", f"{base}/oauth/revoke/",
                        {"token": fresh, "client_id": app.client_id})
    assert status == 200
    status, _, _ = http(app_side, "GET", f"{base}{API}/accounts/me/",
                        headers={"Authorization": f"Bearer {fresh}"})
    assert status == 401
