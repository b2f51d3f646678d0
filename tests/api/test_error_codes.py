"""Every error code the server answers is listed once, with its status: in
``STATUS_OF_CODE``, in the schema's ``ErrorCodeEnum`` and in docs/api.md's table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from nard_site.api.errors import STATUS_OF_CODE
from tests.support import API

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("accounts", "games", "live", "nard_site", "ratings", "reviews", "chat", "social",
           "tournaments", "fairplay")
# ``code=`` of a field's own validation error (in ``details``), not an answer's code.
FIELD_CODES = {"invalid", "unique", "required", "null", "blank"}


def _table() -> list[tuple[str, int]]:
    text = (ROOT / "docs" / "api.md").read_text()
    section = text[text.index("## Error codes"):text.index("## Idempotency keys")]
    return [(code, int(status)) for code, status in
            re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", section, flags=re.M)]


def test_the_docs_table_lists_each_code_once_with_its_status():
    rows = _table()
    assert len(rows) == len({code for code, _ in rows})
    assert dict(rows) == STATUS_OF_CODE


@pytest.mark.django_db
def test_the_schema_enumerates_the_codes():
    response = APIClient().get(f"{API}/schema/", HTTP_ACCEPT="application/json")
    schema = json.loads(response.content)
    enum = schema["components"]["schemas"]["ErrorCodeEnum"]
    assert enum["enum"] == list(STATUS_OF_CODE)
    detail = schema["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    assert detail == {"allOf": [{"$ref": "#/components/schemas/ErrorCodeEnum"}],
                      "description": detail["description"]}


def test_every_code_in_the_source_is_listed():
    found: set[str] = set()
    for module in MODULES:
        for path in (ROOT / module).rglob("*.py"):
            text = path.read_text()
            found |= set(re.findall(r"\bcode\s*=\s*\"([a-z_]+)\"", text))
            found |= set(re.findall(r"(?:error_body|_json_error)\([^\"]*\"([a-z_]+)\"", text))
            found |= set(re.findall(r"^CODE = \"([a-z_]+)\"", text, flags=re.M))
    found -= FIELD_CODES
    assert "csrf_failed" in found and "unknown_depth" in found  # the scan sees them
    assert found <= set(STATUS_OF_CODE), found - set(STATUS_OF_CODE)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["matches/%0A/claim/", "matches/%0A/", "nothing/%0D%0A"])
def test_a_path_with_a_newline_is_a_json_404(path):
    response = APIClient().post(f"{API}/{path}")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content)["error"]["code"] == "not_found"
