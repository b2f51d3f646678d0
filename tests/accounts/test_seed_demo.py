"""The demo accounts: development databases only, never a password reset."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User


def _seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def test_seed_demo_refuses_when_debug_is_off(db, settings, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        _seed()
    assert not User.objects.exists()


def test_seed_demo_seeds_the_embedded_database_and_never_resets_a_password(
        db, settings, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings.DEBUG = True
    assert "username=admin  password=admin-nardy-2026" in _seed()
    admin = User.objects.get(username="admin")
    assert admin.is_staff and admin.check_password("admin-nardy-2026")
    admin.set_password("the-real-one-now-77")
    admin.save()
    again = _seed()
    assert "username=admin  (exists: its password is left unchanged)" in again
    assert "admin-nardy-2026" not in again
    admin.refresh_from_db()
    assert admin.check_password("the-real-one-now-77")
    assert User.objects.filter(username="demo", is_staff=False).count() == 1


def test_seed_demo_skips_a_database_named_by_database_url_unless_asked(
        db, settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.setenv("DATABASE_URL", "postgres://somewhere/real")
    monkeypatch.delenv("SEED_DEMO", raising=False)
    assert "no demo accounts created" in _seed()
    assert not User.objects.exists()
    _seed("--any-database")
    assert User.objects.count() == 3


def test_reset_demo_passwords_sets_and_prints_the_published_ones(db, settings, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings.DEBUG = True
    _seed()
    admin = User.objects.get(username="admin")
    admin.set_password("forgotten-one-77")
    admin.save()
    out = StringIO()
    call_command("reset_demo_passwords", stdout=out)
    assert "username=admin  password=admin-nardy-2026" in out.getvalue()
    admin.refresh_from_db()
    assert admin.check_password("admin-nardy-2026")
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("reset_demo_passwords", stdout=StringIO())
    settings.DEBUG = True
    monkeypatch.setenv("DATABASE_URL", "postgres://somewhere/real")
    monkeypatch.delenv("SEED_DEMO", raising=False)
    with pytest.raises(CommandError, match="DATABASE_URL is set"):
        call_command("reset_demo_passwords", stdout=StringIO())
