from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.support import assert_error

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
REGISTER = "/api/v1/accounts/register/"


def test_health_runs_a_real_query(api):
    response = api.get("/api/v1/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_health_runs_on_the_configured_database():
    """The suite runs on whichever DATABASE_URL names (PostgreSQL in CI)."""
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres", "postgresql")) else "sqlite"
    assert connection.vendor == expected


def test_malformed_json_is_a_400(api):
    response = api.generic("POST", REGISTER, "{not json", content_type="application/json")
    error = assert_error(response, 400, "validation_error")
    assert "body" in error["details"]


def test_json_nan_is_refused(api):
    response = api.generic("POST", REGISTER, '{"username": NaN}', content_type="application/json")
    assert_error(response, 400, "validation_error")


def test_non_object_json_body_is_a_400(api):
    response = api.generic("POST", REGISTER, "[1, 2]", content_type="application/json")
    assert_error(response, 400, "validation_error")


def test_oversized_body_is_a_413(api):
    body = '{"username": "' + "x" * 300_000 + '"}'
    response = api.generic("POST", REGISTER, body, content_type="application/json")
    assert_error(response, 413, "payload_too_large")


def test_unsupported_media_type_is_a_415(api):
    response = api.generic("POST", REGISTER, "<a/>", content_type="application/xml")
    assert_error(response, 415, "unsupported_media_type")


def test_method_not_allowed_is_a_405(api):
    assert_error(api.put("/api/v1/health/", {}), 405, "method_not_allowed")


def test_unknown_url_is_a_404_in_the_error_shape(api):
    assert_error(api.get("/api/v1/no-such-thing/"), 404, "not_found")


def test_invalid_token_is_a_401(api):
    api.credentials(HTTP_AUTHORIZATION="Token deadbeef")
    assert_error(api.get("/api/v1/accounts/me/"), 401, "not_authenticated")


def test_forbidden_is_a_403(api):
    from rest_framework.exceptions import PermissionDenied

    from nard_site.api.errors import exception_handler

    response = exception_handler(PermissionDenied(), {})
    assert response.status_code == 403
    assert response.data["error"]["code"] == "permission_denied"


def test_throttled_is_a_429_with_retry_after(api, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "auth": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    for _ in range(2):
        assert api.post(REGISTER, {}, format="json").status_code == 400
    response = api.post(REGISTER, {}, format="json")
    error = assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) >= 1
    assert error["details"]["retry_after"] >= 1
    # The stricter scope is per view: other endpoints still answer.
    assert api.get("/api/v1/health/").status_code == 200


def test_openapi_schema_validates():
    result = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn",
         "--file", os.devnull],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_schema_and_docs_are_served(api):
    schema = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/accounts/register/" in paths
    errors = paths["/api/v1/accounts/register/"]["post"]["responses"]
    assert {"201", "400", "429"} <= set(errors)
    assert api.get("/api/v1/docs/").status_code == 200


def test_deploy_check_is_clean_with_production_settings():
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "nardy.example.com",
           "SECRET_KEY": "prod-" + "k3y!x9Qz" * 8}
    env.pop("SECURE_SSL_REDIRECT", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
