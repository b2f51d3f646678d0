"""Schemathesis over the tournaments' operations: generated calls (a tournament of the
asking player to aim at); every answer below 500 and as the schema documents it."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from accounts.services import token_obtain
from nard_site.wsgi import application
from tests.hardening.test_fuzz_schema import keep_connection

pytestmark = pytest.mark.django_db
EXAMPLES_PER_OPERATION = 40


def test_the_tournaments_operations_fuzzed_without_a_server_error(alice, bob):
    made = alice.client.post("/api/v1/tournaments/", {
        "name": "Cup", "system": "arena", "minutes": 5, "length": 1}, format="json").json()
    for seat in (alice, bob):
        seat.client.post(f"/api/v1/tournaments/{made['id']}/join/", format="json")
    with keep_connection():
        schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
        operations = [result.ok() for result in schema.get_all_operations()]
        operations = [op for op in operations if "/tournaments/" in op.path
                      and not op.path.endswith("/stream/")]
        assert len(operations) >= 8
        failures: list[str] = []
        for operation in operations:

            @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
                      derandomize=True, suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy())
            def run(case: schemathesis.Case) -> None:
                headers = {"Authorization": f"Token {token_obtain(user=alice.user).key}"}
                response = case.call(headers=headers)
                try:
                    case.validate_response(response, checks=[
                        not_a_server_error, response_schema_conformance,
                        content_type_conformance])
                except (Exception, BaseExceptionGroup) as exc:  # collect; report all
                    failures.append(f"{case.operation.label}: {str(exc)[:600]}")

            run()
    assert not failures, "\n".join(failures[:10])
