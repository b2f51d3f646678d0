"""An ``assisted`` decision overturned on appeal restores what it annulled, through HTTP
and through the admin: the matches count again, the ratings of everyone in them are
replayed from the case's period (logged), the tournaments' standings are the entrant's
again (logged, one transaction each); a match against an account whose own annulment
stands stays annulled. And no flag ever touches a bot or the computer's accounts."""

from __future__ import annotations

import pytest
from django.test import Client

from fairplay import services
from fairplay.models import FairplayCase, FairplayDecision, State
from games.models import Match
from games.opponents import account_name
from ratings.models import Rating, RatingChange, RatingRecompute
from tests.fairplay.conftest import rated_reviewed_match
from tests.support import Seat
from tournaments.models import Entrant, Pairing, Round, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

QUEUE = "/api/v1/moderation/fairplay/"
APPEAL = "/api/v1/accounts/me/fairplay/appeal/"
CASES = "/admin/fairplay/fairplaycase/"


def decide(staff: Seat, username: str, decision: str, reason: str) -> dict:
    response = staff.client.post(f"{QUEUE}{username}/decision/",
                                 {"decision": decision, "reason": reason}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def ratings_now() -> dict[int, tuple[float, float, int]]:
    return {r.user_id: (round(r.rating, 3), round(r.deviation, 3), r.matches)
            for r in Rating.objects.all()}


def swiss_won_by(winner: Seat, loser: Seat, match_id: int, by: Seat
                 ) -> tuple[Tournament, Entrant, Entrant, Pairing]:
    """A finished one-round Swiss in which ``winner`` beat ``loser`` in ``match_id``."""
    tournament = Tournament.objects.create(name="Spring", system="swiss", length=1, rounds=1,
                                           status="finished", round=1, created_by=by.user)
    won = Entrant.objects.create(tournament=tournament, user=winner.user, rating=1500,
                                 score=1, wins=1, played=1)
    lost = Entrant.objects.create(tournament=tournament, user=loser.user, rating=1500,
                                  played=1)
    round_ = Round.objects.create(tournament=tournament, number=1)
    found = Pairing.objects.create(tournament=tournament, round=round_, white=won, black=lost,
                                   match_id=match_id, winner=won, settled_by="played",
                                   finished_at=Match.objects.get(pk=match_id).finished_at)
    return tournament, won, lost, found


def test_an_annulment_overturned_on_appeal_is_restored(alice: Seat, bob: Seat,
                                                       staff: Seat) -> None:
    matches = [rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
               for _ in range(5)]
    services.scan()
    before = ratings_now()
    assert before[bob.user.pk][2] == 5 and before[bob.user.pk][0] < 1500
    tournament, mine, his, pairing = swiss_won_by(alice, bob, matches[0], staff)
    assert staff.client.get(QUEUE).json()["results"][0]["username"] == "alice"
    decide(staff, "alice", "assisted", "engine moves")
    assert ratings_now()[bob.user.pk][2] == 0
    pairing.refresh_from_db()
    assert (pairing.winner_id, pairing.settled_by) == (his.pk, "annulled")

    appealed = alice.client.post(APPEAL, {"text": "I studied"}, format="json")
    assert appealed.status_code == 201, appealed.content
    case = decide(staff, "alice", "clear", "the appeal convinced us")
    assert case["state"] == "cleared"
    # The ratings: every match counts again, every rating as it was before the annulment.
    assert not RatingChange.objects.filter(match_id__in=matches, annulled=True).exists()
    after = ratings_now()
    for uid in (alice.user.pk, bob.user.pk):
        assert after[uid][2] == before[uid][2]
        assert after[uid][0] == pytest.approx(before[uid][0], abs=0.5)
        assert after[uid][1] == pytest.approx(before[uid][1], abs=0.5)
    logged = RatingRecompute.objects.get(user=bob.user, matches_restored__gt=0)
    assert (logged.matches_restored, logged.matches_annulled) == (5, 0)
    assert logged.rating_before == pytest.approx(1500.0) and "on appeal" in logged.reason
    # The tournament: alice's win and place are back, bob's credit is gone.
    pairing.refresh_from_db()
    mine.refresh_from_db()
    his.refresh_from_db()
    assert (pairing.winner_id, pairing.settled_by) == (mine.pk, "played")
    assert (mine.score, mine.wins, mine.removed) == (1.0, 1, False)
    assert (his.score, his.wins) == (0.0, 0)
    restored = TournamentEvent.objects.get(tournament=tournament, type="restored")
    assert restored.data["username"] == "alice" and restored.data["pairings"] == [
        {"match": matches[0], "was": "bob", "now": "alice"}]
    # The decision's log says what was restored.
    last = FairplayDecision.objects.filter(on_appeal=True).get()
    assert last.decision == "clear"
    assert {r["username_id"] for r in last.effects["ratings_restored"]} == {
        alice.user.pk, bob.user.pk}
    assert last.effects["tournaments_restored"][0]["restored"] is True
    assert [d["decision"] for d in case["decisions"]] == ["assisted", "clear"]


def test_a_match_against_an_account_still_annulled_stays_annulled(
        alice: Seat, bob: Seat, seat, staff: Seat) -> None:
    carol = seat("carol")
    for _ in range(5):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    both = rated_reviewed_match(carol, alice, white_loss=0.0, black_loss=0.0)
    for _ in range(5):
        rated_reviewed_match(carol, bob, white_loss=0.0, black_loss=0.05)
    services.scan()
    assert set(FairplayCase.objects.values_list("account__username", flat=True)) == {
        "alice", "carol"}
    decide(staff, "alice", "assisted", "engine")
    decide(staff, "carol", "assisted", "engine")
    alice.client.post(APPEAL, {"text": "not me"}, format="json")
    decide(staff, "alice", "warn", "not sure")
    assert FairplayCase.objects.get(account=alice.user).state == State.WARNED
    # carol's annulment stands: her match with alice is still not counted.
    assert set(RatingChange.objects.filter(annulled=True).values_list("match_id", flat=True)
               ) == set(Match.objects.filter(white=carol.user).values_list("pk", flat=True))
    assert RatingChange.objects.filter(match_id=both, annulled=True).count() == 2
    assert Rating.objects.get(user=alice.user).matches == 5


def test_the_path_through_the_admin(alice: Seat, bob: Seat, staff: Seat) -> None:
    staff.user.is_superuser = True
    staff.user.save(update_fields=["is_superuser"])
    admin = Client()
    admin.force_login(staff.user)
    for _ in range(5):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    services.scan()
    before = ratings_now()
    case = FairplayCase.objects.get()
    assert b"alice" in admin.get(CASES).content
    form = {"action": "decide_assisted", "_selected_action": [str(case.pk)]}
    assert admin.post(CASES, {**form, "reason": "engine"}).status_code == 302
    case.refresh_from_db()
    assert case.state == State.ASSISTED
    assert Rating.objects.get(user=bob.user).matches == 0
    alice.client.post(APPEAL, {"text": "I studied"}, format="json")
    page = admin.get(f"{CASES}{case.pk}/change/")
    assert page.status_code == 200 and b"I studied" in page.content
    form["action"] = "decide_clear"
    assert admin.post(CASES, {**form, "reason": "convinced"}).status_code == 302
    case.refresh_from_db()
    assert case.state == State.CLEARED
    after = ratings_now()
    assert after[bob.user.pk][2] == 5
    assert after[bob.user.pk][0] == pytest.approx(before[bob.user.pk][0], abs=0.5)
    assert list(FairplayDecision.objects.order_by("created", "id")
                .values_list("decision", "on_appeal")) == [("assisted", False),
                                                          ("clear", True)]


@pytest.mark.parametrize("account", ["a bot", "the computer"])
def test_no_flag_touches_a_bot_or_the_computer(alice: Seat, bob: Seat, staff: Seat,
                                                account: str) -> None:
    """An account playing the best move every turn is never flagged once it is a bot or a
    computer level's account; its opponent (who errs) is not flagged either."""
    for _ in range(6):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    alice.user.is_bot = True
    if account == "the computer":
        alice.user.username = account_name("expert")
    alice.user.save(update_fields=["is_bot", "username"])
    assert services.scan() == []
    assert services.scan(accounts=[alice.user.pk, bob.user.pk]) == []
    assert services.scan_account(alice.user) is None
    assert not FairplayCase.objects.exists()
    assert staff.client.get(QUEUE).json()["results"] == []
    refused = staff.client.post(f"{QUEUE}{alice.user.username}/decision/",
                                {"decision": "assisted", "reason": "x"}, format="json")
    assert refused.status_code == 404
    assert not RatingChange.objects.filter(annulled=True).exists()
