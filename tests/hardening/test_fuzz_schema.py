"""Schemathesis against /api/v1/schema/: generated calls over every operation.

Authenticated calls (a player with a live match to aim at); every answer must be
below 500, with a status the operation declares, and match the schema's documented
response (body, content type, headers) for its status.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import token_obtain
from nard_site.wsgi import application
from tests.dice import planned
from tests.support import start_match

pytestmark = pytest.mark.django_db
EXAMPLES_PER_OPERATION = 90
MIN_CASES = 1000


@contextmanager
def keep_connection():
    """Calls go straight into the WSGI app: keep Django from closing the test's connection
    at the start and end of each request, as its own test client does (and as that client
    undoes again after each of its own requests, so enter this after the last of them)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_every_operation_fuzzed_without_a_server_error(alice, bob, scripted_dice):
    start_match(alice, bob, length=3, script=scripted_dice)
    with keep_connection(), planned([], then=lambda: 4):
        schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
        total = 0
        failures: list[str] = []
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 15
        for operation in operations:

            @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
                      derandomize=True, suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy())
            def run(case: schemathesis.Case) -> None:
                nonlocal total
                total += 1
                # A fuzzed DELETE accounts/token/ revokes the token: fetch a live one each time.
                headers = {"Authorization": f"Token {token_obtain(user=alice.user).key}"}
                response = case.call(headers=headers)
                try:
                    case.validate_response(response, checks=[
                        not_a_server_error, status_code_conformance, response_schema_conformance,
                        content_type_conformance, response_headers_conformance])
                except (Exception, BaseExceptionGroup) as exc:  # collect; report all at the end
                    failures.append(f"{case.operation.label}: {str(exc)[:400]}")

            run()
    print(f"schemathesis: {total} cases over {len(operations)} operations")
    assert not failures, "\n".join(failures[:20])
    assert total >= MIN_CASES, total
