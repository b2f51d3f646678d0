"""API tokens are stored as hashes: the key is answered once — by
``register`` and ``token`` — and kept nowhere; ``Authorization: Token <key>`` is
unchanged; the admin lists tokens without keys; migration 0006 hashes the tokens DRF's
table held, so every existing client's key keeps working."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from accounts.services import token_obtain
from accounts.tokens import hash_key
from tests.support import assert_error

API = "/api/v1"
PASSWORD = "a-long-secret-42"


def _log_in(name: str) -> str:
    answer = APIClient().post(f"{API}/accounts/token/", {"username": name, "password": PASSWORD},
                              format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["token"]


def _me(key: str, client: APIClient | None = None):
    return (client or APIClient()).get(f"{API}/accounts/me/", HTTP_AUTHORIZATION=f"Token {key}")


def _all_stored_text() -> str:
    """Every column of every token row, as text."""
    return repr(list(ApiToken.objects.values_list()))


def test_register_answers_a_key_that_is_stored_only_as_its_hash(db):
    answer = APIClient().post(f"{API}/accounts/register/",
                              {"username": "kim", "password": PASSWORD}, format="json")
    key = answer.json()["token"]
    assert len(key) == 40 and key.isalnum()
    assert key not in _all_stored_text()
    assert ApiToken.objects.get().key_hash == hash_key(key)
    assert _me(key).json()["username"] == "kim"


def test_each_log_in_gets_its_own_token_shown_once(make_user):
    make_user("lee", password=PASSWORD)
    first, second = _log_in("lee"), _log_in("lee")
    assert first != second
    stored = _all_stored_text()
    assert first not in stored and second not in stored
    assert _me(first).status_code == _me(second).status_code == 200


def test_delete_revokes_the_token_it_is_sent_with_only(make_user):
    make_user("max", password=PASSWORD)
    kept, revoked = _log_in("max"), _log_in("max")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {revoked}")
    assert client.delete(f"{API}/accounts/token/").status_code == 204
    assert_error(_me(revoked), 401, "not_authenticated")
    assert _me(kept).status_code == 200


def test_delete_under_the_session_login_revokes_every_token(make_user):
    user = make_user("ned", password=PASSWORD)
    keys = [_log_in("ned"), _log_in("ned")]
    session = APIClient()
    session.force_login(user)
    assert session.delete(f"{API}/accounts/token/").status_code == 204
    for key in keys:
        assert_error(_me(key), 401, "not_authenticated")


def test_an_account_keeps_at_most_its_cap_of_tokens(make_user, settings):
    settings.API_TOKENS_PER_ACCOUNT = 3
    user = make_user("oz")
    keys = [token_obtain(user=user).key for _ in range(5)]
    assert ApiToken.objects.filter(user=user).count() == 3
    assert [_me(k).status_code for k in keys] == [401, 401, 200, 200, 200]


def test_the_admin_lists_tokens_without_their_keys(make_user):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    key = token_obtain(user=make_user("pat")).key
    client = Client()
    client.force_login(boss)
    listing = client.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200 and "pat" in listing.text
    token = ApiToken.objects.get(user__username="pat")
    page = client.get(f"/admin/accounts/apitoken/{token.pk}/change/")
    assert page.status_code == 200
    for shown in (listing.text, page.text):
        assert key not in shown and token.key_hash not in shown
    assert client.get("/admin/accounts/apitoken/add/").status_code == 403
    assert "/admin/authtoken/" not in client.get("/admin/").text  # DRF's key list is gone


def test_seed_demo_prints_a_working_token_for_new_and_existing_accounts(
        db, settings, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings.DEBUG = True

    def printed() -> dict[str, str]:
        out = StringIO()
        call_command("seed_demo", stdout=out)
        return {line.split("username=")[1].split()[0]: line.split("token=")[1].split()[0]
                for line in out.getvalue().splitlines() if "token=" in line}

    first = printed()
    assert set(first) == {"demo", "rival", "admin"}
    again = printed()  # the accounts exist: a new token each, the old ones still work
    for name in first:
        assert again[name] != first[name]
        assert _me(first[name]).json()["username"] == name
        assert _me(again[name]).json()["username"] == name


@pytest.mark.django_db(transaction=True)
def test_migration_0006_hashes_the_tokens_drf_stored(make_user):
    user = make_user("quin")
    old_key = "0123456789abcdef0123456789abcdef01234567"
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0005_user_is_bot")])
    try:
        with connection.schema_editor() as editor:  # DRF's table as it was
            editor.execute('CREATE TABLE "authtoken_token" ("key" varchar(40) PRIMARY KEY, '
                           '"created" timestamp with time zone NOT NULL, '
                           '"user_id" bigint NOT NULL UNIQUE)')
        with connection.cursor() as cursor:
            cursor.execute('INSERT INTO "authtoken_token" ("key", "created", "user_id") '
                           "VALUES (%s, %s, %s)", [old_key, "2026-01-02 03:04:05+00:00", user.pk])
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        with connection.cursor() as cursor:
            cursor.execute('SELECT count(*) FROM "authtoken_token"')
            assert cursor.fetchone()[0] == 0  # no key left in plain text
    finally:
        with connection.schema_editor() as editor:
            editor.execute('DROP TABLE IF EXISTS "authtoken_token"')
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes())
    token = ApiToken.objects.get()
    assert token.user_id == user.pk and token.key_hash == hash_key(old_key)
    assert token.created.year == 2026 and token.created.month == 1
    assert _me(old_key).json()["username"] == "quin"
    assert User.objects.filter(pk=user.pk).exists()
