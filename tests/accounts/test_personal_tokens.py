"""Personal tokens with scopes (``accounts/tokens/``), the scope check on every view, and
CORS for the configured origins."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.models import Match
from tests.support import assert_error

pytestmark = pytest.mark.django_db

API = "/api/v1"
TOKENS = f"{API}/accounts/tokens/"


def make_token(seat, *scopes: str, name: str = "my bot") -> dict:
    answer = seat.client.post(TOKENS, {"name": name, "scopes": list(scopes)}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_personal_token_is_made_listed_without_its_key_and_revoked(alice):
    made = make_token(alice, "match:read", "account:read")
    assert set(made) == {"id", "name", "scopes", "created", "token"}
    assert made["scopes"] == ["account:read", "match:read"] and made["name"] == "my bot"

    listed = alice.client.get(TOKENS)
    assert listed.status_code == 200
    assert listed.json() == [{k: made[k] for k in ("id", "name", "scopes", "created")}]
    assert with_key(made["token"]).get(f"{API}/accounts/me/").status_code == 200

    assert alice.client.delete(f"{TOKENS}{made['id']}/").status_code == 204
    assert_error(with_key(made["token"]).get(f"{API}/accounts/me/"), 401, "not_authenticated")
    assert_error(alice.client.delete(f"{TOKENS}{made['id']}/"), 404, "not_found")


def test_a_personal_token_may_do_only_what_its_scopes_allow(alice):
    reader = with_key(make_token(alice, "match:read")["token"])

    assert reader.get(f"{API}/matches/").status_code == 200
    error = assert_error(reader.post(f"{API}/matches/", {"length": 1, "hotseat": True},
                                     format="json"), 403, "insufficient_scope")
    assert error["details"] == {"required": "match:play", "granted": ["match:read"]}
    assert_error(reader.get(f"{API}/accounts/me/"), 403, "insufficient_scope")
    assert not Match.objects.exists()
    player = with_key(make_token(alice, "match:play")["token"])
    assert player.post(f"{API}/matches/", {"length": 1, "hotseat": True},
                       format="json").status_code == 201


def test_only_a_log_in_token_or_the_session_manages_personal_tokens(alice):
    scoped = with_key(make_token(alice, "match:read", "match:play", "account:read",
                                 "account:write", "bot:play")["token"])

    error = assert_error(scoped.post(TOKENS, {"name": "wider", "scopes": ["match:play"]},
                                     format="json"), 403, "insufficient_scope")
    assert error["details"]["required"] == "*"
    assert_error(scoped.get(TOKENS), 403, "insufficient_scope")
    assert ApiToken.objects.filter(personal=True).count() == 1


def test_a_scoped_token_may_revoke_itself(alice):
    key = make_token(alice, "match:read")["token"]
    assert with_key(key).delete(f"{API}/accounts/token/").status_code == 204
    assert not ApiToken.objects.filter(personal=True).exists()


def test_log_in_tokens_keep_every_scope(alice):
    assert alice.client.get(f"{API}/accounts/me/").status_code == 200
    assert alice.client.post(f"{API}/matches/", {"length": 1, "hotseat": True},
                             format="json").status_code == 201


def test_bot_play_plays_for_a_bot_account_only(alice):
    bot = with_key(make_token(alice, "bot:play")["token"])
    hotseat = {"length": 1, "hotseat": True}

    assert_error(bot.post(f"{API}/matches/", hotseat, format="json"), 403,
                 "insufficient_scope")  # a person's account: bot:play is not match:play
    assert bot.post(f"{API}/accounts/bot/upgrade/").status_code == 200
    assert bot.post(f"{API}/matches/", hotseat, format="json").status_code == 201
    assert bot.get(f"{API}/matches/").status_code == 200


def test_the_upgrade_needs_bot_play(alice):
    reader = with_key(make_token(alice, "match:play", "account:read")["token"])
    assert_error(reader.post(f"{API}/accounts/bot/upgrade/"), 403, "insufficient_scope")


@pytest.mark.parametrize("body", [{"name": "x", "scopes": ["match:write"]},
                                  {"name": "x", "scopes": []}, {"scopes": ["match:read"]}])
def test_bad_token_requests_are_400(alice, body):
    assert_error(alice.client.post(TOKENS, body, format="json"), 400, "validation_error")


def test_the_personal_tokens_are_capped_and_log_ins_never_push_one_out(alice, settings):
    settings.API_TOKENS_PER_ACCOUNT = 2
    make_token(alice, "match:read")
    make_token(alice, "match:read")
    error = assert_error(alice.client.post(TOKENS, {"name": "3", "scopes": ["match:read"]},
                                           format="json"), 409, "too_many_tokens")
    assert error["details"] == {"limit": 2}
    for _ in range(3):
        assert alice.client.post(f"{API}/accounts/token/", {
            "username": "alice", "password": "correct-horse-battery"},
            format="json").status_code == 200
    assert ApiToken.objects.filter(personal=True).count() == 2


def test_another_accounts_token_is_not_found(alice, bob):
    made = make_token(alice, "match:read")
    assert_error(bob.client.delete(f"{TOKENS}{made['id']}/"), 404, "not_found")
    assert_error(bob.client.delete(f"{TOKENS}99999999999999999999999/"), 404, "not_found")
    assert ApiToken.objects.filter(pk=made["id"]).exists()


def test_cors_answers_the_configured_origins_only(api, settings, db):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]
    preflight = {"HTTP_ORIGIN": "https://app.example",
                 "HTTP_ACCESS_CONTROL_REQUEST_METHOD": "POST",
                 "HTTP_ACCESS_CONTROL_REQUEST_HEADERS": "authorization, idempotency-key"}

    allowed = api.options(f"{API}/matches/", **preflight)
    other = api.options(f"{API}/matches/", **{**preflight, "HTTP_ORIGIN": "https://evil.example"})
    read = api.get(f"{API}/matches/", HTTP_ORIGIN="https://app.example")

    assert allowed["Access-Control-Allow-Origin"] == "https://app.example"
    assert "idempotency-key" in allowed["Access-Control-Allow-Headers"]
    assert "Access-Control-Allow-Origin" not in other
    assert read.status_code == 200
    assert read["Access-Control-Allow-Origin"] == "https://app.example"
    assert "Access-Control-Allow-Credentials" not in read


def test_no_origin_is_allowed_by_default(api, db):
    read = api.get(f"{API}/matches/", HTTP_ORIGIN="https://app.example")
    assert read.status_code == 200 and "Access-Control-Allow-Origin" not in read


def test_the_admin_lists_personal_tokens_and_registers_apps(alice, make_user, client):
    make_token(alice, "bot:play", name="my nardy bot")
    client.force_login(make_user("staffer", is_staff=True, is_superuser=True))

    tokens = client.get("/admin/accounts/apitoken/?personal__exact=1")
    app_form = client.get("/admin/oauth2_provider/application/add/")

    assert tokens.status_code == 200
    assert b"my nardy bot" in tokens.content and b"bot:play" in tokens.content
    assert app_form.status_code == 200 and b"redirect_uris" in app_form.content
