"""Third-party apps: the OAuth 2 authorization code flow with PKCE through the server's
HTTP stack (log-in, consent, code, token, the API with the Bearer token, a refused scope,
refresh, revocation), the grants refused, and the schema's security scheme."""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, Application

from games.models import Match
from tests.support import assert_error

pytestmark = pytest.mark.django_db

API = "/api/v1"
REDIRECT = "https://app.example/callback"
PASSWORD = "correct-horse-battery"
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
