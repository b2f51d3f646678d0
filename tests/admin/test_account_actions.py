"""The admin's account actions need the change permission: a staff
account that may only view users neither sees "flag as bot" / "unflag" nor runs them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin import helpers
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

CHANGELIST = "admin:accounts_user_changelist"


def _staff_with(make_user: Any, name: str, *codenames: str) -> Client:
    staff = make_user(name, is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(staff)
    return client


@pytest.mark.parametrize(("action", "before"), [("flag_as_bot", False), ("unflag_as_bot", True)])
def test_a_view_only_staff_account_cannot_run_the_bot_actions(make_user, action, before):
    target = make_user("someone", is_bot=before)
    viewer = _staff_with(make_user, "viewer", "view_user")
    listing = viewer.get(reverse(CHANGELIST))
    assert listing.status_code == 200 and "someone" in listing.text
    assert action not in listing.text
    viewer.post(reverse(CHANGELIST), {"action": action,
                                      helpers.ACTION_CHECKBOX_NAME: [target.pk]})
    target.refresh_from_db()
    assert target.is_bot is before


def test_staff_with_the_change_permission_run_them(make_user):
    target = make_user("someone")
    editor = _staff_with(make_user, "editor", "view_user", "change_user")
    assert "flag_as_bot" in editor.get(reverse(CHANGELIST)).text
    answer = editor.post(reverse(CHANGELIST), {"action": "flag_as_bot",
                                               helpers.ACTION_CHECKBOX_NAME: [target.pk]})
    assert answer.status_code == 302
    target.refresh_from_db()
    assert target.is_bot is True
