"""The failed-log-in counter holds under parallel guesses, on
PostgreSQL with real concurrent connections: 40 wrong passwords for one username from
one address at the same moment get exactly ``LOGIN_FAILURE_LIMIT`` password checks (each
attempt is counted under a row lock before its password is checked); the rest are 429."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import User
from tests.hardening.test_races import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks are PostgreSQL's; CI runs this on PostgreSQL"),
]


def test_forty_parallel_guesses_get_at_most_the_limit_of_checks(make_user, settings,
                                                                 monkeypatch):
    settings.LOGIN_FAILURE_LIMIT = 10
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 1000
    settings.LOGIN_CONCURRENT_CHECKS = 40  # the counter, not the hashing slots, decides
    make_user("target")
    checked: list[int] = []
    lock = threading.Lock()
    original = User.check_password

    def counting(self, raw_password):
        with lock:
            checked.append(1)
        return original(self, raw_password)

    monkeypatch.setattr(User, "check_password", counting)
    url = "/api/v1/accounts/token/"
    answers = race([lambda i=i: APIClient().post(
        url, {"username": "target", "password": f"guess-{i}"}, format="json")
        for i in range(40)])
    for answer in answers:
        assert not isinstance(answer, Exception), answer
    outcome = Counter(a.status_code for a in answers)
    assert outcome == Counter({401: 10, 429: 30}), outcome
    assert len(checked) == 10
