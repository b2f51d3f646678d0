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


IMPORT_URL = "/api/v1/matches/import/"


def _a_record(make_user):
    from games import services
    from games.selectors import record_text

    white, black = make_user("wima"), make_user("bima")
    match = services.match_create(user=white, length=1, opponent=black.username,
                                  color="white")
    services.match_join(match_id=match.pk, user=black)
    services.match_resign(match_id=match.pk, user=black)
    return white, black, record_text(type(match).objects.get(pk=match.pk))


def test_the_import_endpoint_needs_the_permission_not_staff_status(make_user, client_for):
    from tests.support import assert_error

    _white, _black, text = _a_record(make_user)
    staff = make_user("plainstaff", is_staff=True)
    assert_error(client_for(staff).post(IMPORT_URL, {"record": text}, format="json"), 403,
                 "permission_denied")
    staff.user_permissions.add(Permission.objects.get(codename="add_match",
                                                      content_type__app_label="games"))
    answer = client_for(type(staff).objects.get(pk=staff.pk)).post(
        IMPORT_URL, {"record": text}, format="json")
    assert answer.status_code == 201, answer.content


def test_the_import_endpoint_refuses_a_record_naming_an_inactive_player(make_user, client_for):
    from tests.support import assert_error

    _white, black, text = _a_record(make_user)
    black.is_active = False
    black.save()
    admin = make_user("importer", is_staff=True, is_superuser=True)
    error = assert_error(client_for(admin).post(IMPORT_URL, {"record": text}, format="json"),
                         400, "validation_error")
    assert error["details"] == {"players": ["bima is inactive."]}
