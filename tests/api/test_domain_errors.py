"""Domain errors carry a code, never an HTTP status; the one handler maps codes to statuses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nard_site.api.errors import exception_handler
from nard_site.domain import DomainError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("code", "status"), [
    ("not_found", 404), ("permission_denied", 403), ("validation_error", 400),
    ("illegal_move", 400), ("not_your_turn", 409), ("wrong_phase", 409),
    ("version_conflict", 409), ("throttled", 429), ("idempotency_key_reused", 422),
    ("something_new", 400),
])
def test_the_handler_maps_each_code_to_its_status(code, status):
    response = exception_handler(DomainError("No.", code=code, details={"x": 1}), {})
    assert response.status_code == status
    assert response.data == {"error": {"code": code, "message": "No.", "details": {"x": 1}}}


def test_each_game_error_keeps_its_status():
    from games import exceptions

    expected = {"NotFound": 404, "PermissionDenied": 403, "InvalidRequest": 400,
                "NotYourTurn": 409, "WrongPhase": 409, "VersionConflict": 409,
                "IllegalMove": 400}
    for name, status in expected.items():
        response = exception_handler(getattr(exceptions, name)(), {})
        assert response.status_code == status, name


def test_the_domain_module_imports_nothing_of_http():
    tree = ast.parse((ROOT / "nard_site" / "domain.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert not any(m.startswith(("rest_framework", "django.http")) for m in imported), imported
    assert not hasattr(DomainError, "status_code")


def test_the_old_import_path_still_works():
    from nard_site.api.errors import DomainError as Old

    assert Old is DomainError
