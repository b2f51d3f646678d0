"""The per-account review limit holds against simultaneous requests (PostgreSQL): it is
counted under a lock of the account's row. Before, it was counted under each match's
lock only, and 12 simultaneous POSTs of one account on 12 matches had 4–5 accepted."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.db import connection

from games import services
from reviews import services as review_services
from reviews.models import Analysis
from tests.hardening.test_races import client_of, race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks are PostgreSQL's; CI runs this on PostgreSQL"),
]


def test_simultaneous_requests_keep_the_account_limit(make_user: Any, monkeypatch: Any
                                                      ) -> None:
    monkeypatch.setattr(review_services, "_enqueue", lambda analysis_id: None)
    user = make_user("reader")
    matches = []
    for _ in range(12):
        match = services.match_create(user=user, length=1, hotseat=True, rules="backgammon")
        matches.append(services.match_abort_unstarted(match_id=match.pk, user=user))
    clients = [client_of(user) for _ in matches]
    answers = race([lambda c=c, m=m: c.post(f"/api/v1/matches/{m.pk}/analysis/",
                                            {"depth": 0}, format="json")
                    for c, m in zip(clients, matches, strict=True)])
    statuses = Counter(getattr(a, "status_code", repr(a)) for a in answers)
    assert statuses == {202: review_services.MAX_QUEUED,
                        429: 12 - review_services.MAX_QUEUED}, statuses
    assert Analysis.objects.filter(requested_by=user).count() == review_services.MAX_QUEUED
