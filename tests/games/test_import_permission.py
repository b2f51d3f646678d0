"""The import right is a model permission, and records may name active players only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIRequestFactory

from games.exceptions import InvalidRequest, PermissionDenied
from games.permissions import (
    CanImportMatches,
    may_import_matches,
    require_active_players,
    require_import_permission,
)


def test_staff_status_alone_does_not_allow_importing(make_user):
    staff = make_user(is_staff=True)
    assert not may_import_matches(staff)
    with pytest.raises(PermissionDenied) as refused:
        require_import_permission(staff)
    assert refused.value.code == "permission_denied"
    staff.user_permissions.add(Permission.objects.get(codename="add_match",
                                                      content_type__app_label="games"))
    staff = type(staff).objects.get(pk=staff.pk)  # permissions are cached per instance
    assert may_import_matches(staff)
    assert may_import_matches(make_user(is_staff=True, is_superuser=True))
    assert not may_import_matches(make_user(is_superuser=True, is_active=False))


def test_the_drf_permission_class(make_user):
    request = APIRequestFactory().post("/api/v1/matches/import/")
    request.user = make_user(is_staff=True)
    assert not CanImportMatches().has_permission(request, None)
    request.user = make_user(is_superuser=True)
    assert CanImportMatches().has_permission(request, None)


def test_records_may_not_name_inactive_players(make_user):
    require_active_players([make_user("on"), None])
    with pytest.raises(InvalidRequest) as refused:
        require_active_players([make_user("on2"), make_user("gone", is_active=False)])
    assert refused.value.code == "validation_error"
    assert refused.value.details == {"players": ["gone is inactive."]}
