"""The ordered match status (finished from here on) and ids up to the BigAutoField range."""

from __future__ import annotations

import pytest

from games.models import STATUS_ORDER, MatchStatus, is_over
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def test_status_is_ordered_and_final_from_finished_on():
    assert STATUS_ORDER == ("open", "invited", "active", "finished", "aborted")
    assert [is_over(s) for s in STATUS_ORDER] == [False, False, False, True, True]
    assert is_over(MatchStatus.ABORTED) and not is_over(MatchStatus.ACTIVE)


@pytest.mark.parametrize("pk", ["9223372036854775807", "2147483648", "00000000000000000000042"])
def test_ids_up_to_the_bigautofield_range_are_looked_up(api, pk):
    assert_error(api.get(f"/api/v1/matches/{pk}/"), 404, "not_found")


@pytest.mark.parametrize("pk", ["9223372036854775808", "9" * 25, "4" * 4400])
def test_larger_ids_are_not_found_never_a_server_error(api, pk):
    assert_error(api.get(f"/api/v1/matches/{pk}/"), 404, "not_found")
    assert_error(api.get(f"/api/v1/matches/{pk}/games/1/moves/"), 404, "not_found")
    assert_error(api.get(f"/api/v1/matches/1/games/{pk}/moves/"), 404, "not_found")
    # The review's own route (found by the schema fuzz: a 500 on SQLite before).
    assert_error(api.get(f"/api/v1/matches/{pk}/analysis/?depth=1"), 404, "not_found")


@pytest.mark.parametrize("pk", ["9223372036854775808", "9" * 25])
def test_larger_ids_are_not_found_when_asking_for_a_review(seat, pk):
    person = seat("reviewer")
    assert_error(person.client.post(f"/api/v1/matches/{pk}/analysis/", {"depth": 0},
                                    format="json"), 404, "not_found")
