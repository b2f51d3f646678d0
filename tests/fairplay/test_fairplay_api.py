"""Fair play through HTTP: a rated match's end queues its cheap review; the scan flags an
account that plays far better than its rating predicts, never a bot; staff (only) see the
queue with the evidence and decide; ``assisted`` annuls the results (the opponents'
ratings recomputed, the tournament's standings), the player is told and appeals once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django_tasks.base import TASK_MIN_PRIORITY
from django_tasks_db.models import DBTaskResult

from accounts.models import Notice, User
from fairplay import services
from fairplay.models import FairplayCase, FairplayDecision, State
from games.models import Match
from ratings import glicko
from ratings.models import Rating, RatingChange, RatingRecompute
from ratings.services import ratings_annul
from reviews.models import Analysis
from reviews.tasks import finish, run_analysis
from tests.fairplay.conftest import rated_reviewed_match, review
from tests.support import assert_error, start_match
from tournaments.models import Entrant, Pairing, Round, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

QUEUE = "/api/v1/moderation/fairplay/"
APPEAL = "/api/v1/accounts/me/fairplay/appeal/"


def decision_url(username: str) -> str:
    return f"{QUEUE}{username}/decision/"


def flag_alice(alice, bob, games: int = 5) -> list[int]:
    """``games`` rated matches alice wins, playing the best move every turn; bob errs."""
    matches = [rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
               for _ in range(games)]
    services.scan()
    return matches


def test_a_rated_matchs_end_queues_its_review_at_depth_0_and_lowest_priority(
        alice, bob, settings, django_capture_on_commit_callbacks):
    settings.FAIRPLAY_REVIEWS_PER_DAY = 1
    match_id = start_match(alice, bob)["id"]
    with django_capture_on_commit_callbacks(execute=True):
        bob.ok(match_id, "resign")
    analysis = Analysis.objects.get(match_id=match_id)
    assert (analysis.depth, analysis.state, analysis.requested_by_id) == (0, "queued", None)
    job = DBTaskResult.objects.get(task_path="reviews.tasks.analyse")
    assert job.priority == TASK_MIN_PRIORITY and job.args_kwargs["args"] == [analysis.pk]
    assert run_analysis(analysis.pk) == "done"
    # The day's budget (1) is spent: the next rated match is not queued.
    second = start_match(alice, bob)["id"]
    with django_capture_on_commit_callbacks(execute=True):
        bob.ok(second, "resign")
    assert not Analysis.objects.filter(match_id=second).exists()
    # A casual match never is.
    settings.FAIRPLAY_REVIEWS_PER_DAY = 10
    casual = alice.create(opponent="bob", color="white", rated=False).json()["id"]
    bob.ok(casual, "join")
    alice.ok(casual, "roll")
    bob.ok(casual, "roll")
    with django_capture_on_commit_callbacks(execute=True):
        bob.ok(casual, "resign")
    assert Match.objects.get(pk=casual).status != "active"
    assert not Analysis.objects.filter(match_id=casual).exists()


def test_the_queue_is_for_staff_only(alice, bob, client):
    flag_alice(alice, bob)
    assert_error(client.get(QUEUE), 401, "not_authenticated")
    assert_error(alice.client.get(QUEUE), 403, "permission_denied")
    assert_error(alice.client.post(decision_url("alice"), {"decision": "clear",
                                                           "reason": "mine"}, format="json"),
                 403, "permission_denied")
    assert FairplayDecision.objects.count() == 0


def test_the_flag_review_decision_annulment_path(alice, bob, staff):
    matches = flag_alice(alice, bob)
    bob_before = Rating.objects.get(user=bob.user)
    assert bob_before.rating < 1500 and bob_before.matches == 5
    # Flagged: alice alone, with her evidence.
    response = staff.client.get(QUEUE)
    assert response.status_code == 200, response.content
    cases = response.json()["results"]
    assert [c["username"] for c in cases] == ["alice"]
    case = cases[0]
    assert case["state"] == "open" and case["games"] == 5
    assert case["score"] >= 65
    assert case["figures"]["error_rate"] == 0.0 and case["figures"]["best_share"] == 1.0
    assert {g["match"] for g in case["game_list"]} == set(matches)
    assert all(g["review"] == f"/api/v1/matches/{g['match']}/analysis/"
               for g in case["game_list"])
    assert case["positions"] and all(p["gap"] >= 0.08 for p in case["positions"])
    # Her tournament: she beat bob in it.
    tournament = Tournament.objects.create(name="Spring", system="swiss",
                                           length=1, rounds=3, status="started", round=1,
                                           created_by=staff.user)
    mine = Entrant.objects.create(tournament=tournament, user=alice.user, rating=1500,
                                  score=1, wins=1, played=1)
    his = Entrant.objects.create(tournament=tournament, user=bob.user, rating=1500, played=1)
    round_ = Round.objects.create(tournament=tournament, number=1)
    Pairing.objects.create(tournament=tournament, round=round_, white=mine, black=his,
                           match_id=matches[0], winner=mine, settled_by="played",
                           finished_at=Match.objects.get(pk=matches[0]).finished_at)
    # The decision.
    decided = staff.client.post(decision_url("alice"),
                                {"decision": "assisted", "reason": "engine moves"},
                                format="json")
    assert decided.status_code == 201, decided.content
    assert decided.json()["state"] == "assisted"
    assert decided.json()["decisions"][0]["decision"] == "assisted"
    # Ratings: her matches no longer count; bob's rating recomputed without them.
    assert RatingChange.objects.filter(match_id__in=matches, annulled=True).count() == 10
    bob_after = Rating.objects.get(user=bob.user)
    assert (round(bob_after.rating, 6), bob_after.matches) == (1500.0, 0)
    alice_after = Rating.objects.get(user=alice.user)
    assert (round(alice_after.rating, 6), alice_after.matches) == (1500.0, 0)
    logged = RatingRecompute.objects.get(user=bob.user)
    assert logged.rating_before == bob_before.rating and logged.matches_annulled == 5
    # The tournament: bob is credited the match, alice is out.
    his.refresh_from_db()
    mine.refresh_from_db()
    assert (his.score, his.wins) == (1.0, 1) and (mine.score, mine.removed) == (0.0, True)
    assert Pairing.objects.get(match_id=matches[0]).winner_id == his.pk
    assert TournamentEvent.objects.filter(tournament=tournament, type="annulled").exists()
    effects = FairplayDecision.objects.get().effects
    assert [t["tournament"] for t in effects["tournaments"]] == [tournament.pk]
    # She is told.
    notice = Notice.objects.get(recipient=alice.user, kind="fairplay_decision")
    assert notice.data["decision"] == "assisted" and notice.data["may_appeal"] is True
    # Decided: nothing waits any more.
    assert staff.client.get(QUEUE).json()["results"] == []
    assert_error(staff.client.post(decision_url("alice"), {"decision": "close",
                                                           "reason": "again"}, format="json"),
                 409, "case_decided", state="assisted")


def test_a_decision_needs_a_known_decision_a_reason_and_a_case(alice, bob, staff):
    flag_alice(alice, bob)
    assert_error(staff.client.post(decision_url("alice"), {"decision": "ban", "reason": "x"},
                                   format="json"), 400, "validation_error")
    assert_error(staff.client.post(decision_url("alice"), {"decision": "warn", "reason": " "},
                                   format="json"), 400, "validation_error")
    assert_error(staff.client.post(decision_url("bob"), {"decision": "warn", "reason": "x"},
                                   format="json"), 404, "not_found")
    assert_error(staff.client.post(decision_url("nobody"), {"decision": "warn", "reason": "x"},
                                   format="json"), 404, "not_found")
    assert FairplayCase.objects.get().state == State.OPEN


def test_the_player_appeals_once_and_the_case_waits_for_staff_again(alice, bob, staff):
    flag_alice(alice, bob)
    assert_error(alice.client.post(APPEAL, {"text": "I am just good"}, format="json"),
                 404, "not_found")  # nothing decided yet
    staff.client.post(decision_url("alice"), {"decision": "warn", "reason": "too good"},
                      format="json")
    assert_error(alice.client.post(APPEAL, {"text": ""}, format="json"), 400,
                 "validation_error")
    first = alice.client.post(APPEAL, {"text": "I am just good"}, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["state"] == "warned"
    assert_error(alice.client.post(APPEAL, {"text": "really"}, format="json"), 409,
                 "appeal_used")
    queue = staff.client.get(QUEUE).json()["results"]
    assert [(c["username"], c["appeal"]) for c in queue] == [("alice", "I am just good")]
    again = staff.client.post(decision_url("alice"), {"decision": "clear", "reason": "fine"},
                              format="json")
    assert again.status_code == 201 and again.json()["state"] == "cleared"
    assert [d["on_appeal"] for d in again.json()["decisions"]] == [False, True]
    assert staff.client.get(QUEUE).json()["results"] == []


def test_a_cleared_account_stays_cleared_until_its_figures_change(alice, bob, staff,
                                                                    settings):
    flag_alice(alice, bob)
    staff.client.post(decision_url("alice"), {"decision": "clear", "reason": "titled"},
                      format="json")
    settings.FAIRPLAY_RECHECK_GAMES = 2
    rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    services.scan()
    assert FairplayCase.objects.filter(state=State.OPEN).count() == 0
    rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    services.scan()
    assert FairplayCase.objects.filter(account=alice.user, state=State.OPEN).count() == 1


def test_close_deactivates_the_account(alice, bob, staff):
    flag_alice(alice, bob)
    response = staff.client.post(decision_url("alice"), {"decision": "close",
                                                         "reason": "engine"}, format="json")
    assert response.status_code == 201 and response.json()["state"] == "closed"
    assert User.objects.get(pk=alice.user.pk).is_active is False


def test_honest_play_is_not_flagged(alice, bob):
    for _ in range(5):
        rated_reviewed_match(alice, bob, white_loss=0.04, black_loss=0.05)
    assert services.scan() == []
    assert not FairplayCase.objects.exists()


def test_bots_and_the_computers_accounts_are_never_flagged(alice, bob):
    flag_alice(alice, bob, games=0)
    for _ in range(6):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    User.objects.filter(pk=alice.user.pk).update(is_bot=True)
    assert services.scan() == []
    assert services.scan(accounts=[alice.user.pk]) == []
    assert not FairplayCase.objects.exists()
    alice.user.refresh_from_db()
    assert services.scan_account(alice.user) is None


def test_the_scan_command_opens_the_case(alice, bob):
    for _ in range(5):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    out = StringIO()
    call_command("fairplay_scan", stdout=out)
    assert "1 open case(s): alice" in out.getvalue()
    assert FairplayCase.objects.get().account_id == alice.user.pk


def test_the_recompute_replays_the_opponents_other_matches(alice, bob, seat):
    """bob lost to alice, then beat carol: without alice's match, bob's rating is his
    start rating updated by the carol match alone, against carol's rating as it was."""
    carol = seat("carol")
    first = rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    rated_reviewed_match(bob, carol, white_loss=0.03, black_loss=0.05)
    volatility = Rating.objects.get(user=bob.user).volatility
    carol_before = RatingChange.objects.get(user=carol.user)
    since = Match.objects.get(pk=first).finished_at
    done = ratings_annul(user_id=alice.user.pk, since=since, reason="test")
    assert sorted(r.user_id for r in done) == sorted([alice.user.pk, bob.user.pk])
    expected = glicko.update(
        glicko.Rating(1500.0, 350.0, volatility),
        [(glicko.Rating(carol_before.rating_before, carol_before.deviation_before), 1.0)],
        length=1, floor=True)
    bob_now = Rating.objects.get(user=bob.user)
    assert round(bob_now.rating, 6) == round(expected.rating, 6) and bob_now.matches == 1
    replayed = RatingChange.objects.get(user=bob.user, opponent=carol.user)
    assert round(replayed.rating_after, 6) == round(expected.rating, 6)
    assert RatingChange.objects.get(user=bob.user, opponent=alice.user).annulled is True
    # carol's own rating is not replayed (the ripple beyond alice's opponents is left).
    assert not RatingRecompute.objects.filter(user=carol.user).exists()


def test_a_finished_review_rescans_its_players(alice, bob,
                                               django_capture_on_commit_callbacks):
    for _ in range(4):
        rated_reviewed_match(alice, bob, white_loss=0.0, black_loss=0.05)
    assert services.scan() == []  # four games: too few
    match_id = start_match(alice, bob)["id"]
    bob.ok(match_id, "resign")
    analysis = Analysis.objects.create(match_id=match_id, depth=0,
                                       state=Analysis.State.RUNNING)
    with django_capture_on_commit_callbacks(execute=True):
        finish(analysis, Analysis.State.DONE,
               results=[review(white_loss=0.0, black_loss=0.05)])
    assert FairplayCase.objects.get().account_id == alice.user.pk
