"""Fair play in the admin: the queue with the evidence, a decision as an action that asks
for a reason first, the history read-only; and the figures of one game's review."""

from __future__ import annotations

import pytest
from django.test import Client

from fairplay import evidence, services
from fairplay.models import FairplayCase, FairplayDecision
from tests.fairplay.conftest import rated_reviewed_match, review
from tests.support import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(staff: Seat) -> Client:
    staff.user.is_superuser = True
    staff.user.save(update_fields=["is_superuser"])
    client = Client()
    client.force_login(staff.user)
    return client


@pytest.fixture
def case(alice: Seat, bob: Seat) -> FairplayCase:
    for _ in range(5):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    services.scan()
    return FairplayCase.objects.get()


def test_the_queue_shows_the_evidence(admin_client: Client, case: FairplayCase) -> None:
    listing = admin_client.get("/admin/fairplay/fairplaycase/")
    assert listing.status_code == 200 and b"alice" in listing.content
    page = admin_client.get(f"/admin/fairplay/fairplaycase/{case.pk}/change/")
    assert page.status_code == 200
    match = case.evidence["game_list"][0]["match"]
    assert f"/api/v1/matches/{match}/analysis/".encode() in page.content
    assert b"best found, gap" in page.content and b"expected_error_rate" in page.content


def test_a_decision_from_the_admin_asks_for_a_reason_then_applies(
        admin_client: Client, case: FairplayCase) -> None:
    form = {"action": "decide_warn", "_selected_action": [str(case.pk)]}
    asked = admin_client.post("/admin/fairplay/fairplaycase/", form)
    assert asked.status_code == 200 and b"reason" in asked.content
    assert not FairplayDecision.objects.exists()
    done = admin_client.post("/admin/fairplay/fairplaycase/", {**form, "reason": "too good"})
    assert done.status_code == 302
    decision = FairplayDecision.objects.get()
    assert (decision.decision, decision.reason, decision.case_id) == ("warn", "too good",
                                                                      case.pk)
    case.refresh_from_db()
    assert case.state == "warned"


def test_the_history_is_read_only(admin_client: Client, case: FairplayCase) -> None:
    assert admin_client.get("/admin/fairplay/fairplaycase/add/").status_code == 403
    assert admin_client.get(
        f"/admin/fairplay/fairplaycase/{case.pk}/delete/").status_code == 403
    services.decide(account=case.account, by=case.account, decision="clear", reason="ok")
    decision = FairplayDecision.objects.get()
    assert admin_client.get("/admin/fairplay/fairplaydecision/add/").status_code == 403
    assert admin_client.get(
        f"/admin/fairplay/fairplaydecision/{decision.pk}/delete/").status_code == 403


def test_one_games_figures() -> None:
    figures = evidence.game_figures(review(white_loss=0.01, black_loss=0.0, moves=20),
                                    "white", match=7,
                                    seconds={n: float(n % 4 == 1) * 9 + 1 for n in range(41)})
    assert (figures.moves, figures.hard, figures.easy) == (20, 10, 10)
    assert figures.best == 0 and round(figures.error_rate, 6) == 0.015
    assert round(figures.hard_loss, 6) == 0.2 and round(figures.easy_loss, 6) == 0.1
    assert figures.weighty == []
    black = evidence.game_figures(review(white_loss=0.01, black_loss=0.0, moves=20), "black",
                                  match=7)
    assert black.best == 20 and len(black.weighty) == black.hard == 10
    assert black.weighty[0] == {"match": 7, "game": 1, "turn": black.weighty[0]["turn"],
                                "gap": 0.2}
    # White's hard turns (1, 5, 9, …) took 10 s, its easy ones 1 s: time follows difficulty.
    pooled = evidence.account_figures([figures] * 2, 1500.0, evidence.Fit())
    assert pooled["time_vs_difficulty"] == 1.0
    assert pooled["hard_error_rate"] == 0.02 and pooled["easy_error_rate"] == 0.01
