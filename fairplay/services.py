"""Fair play's writes: the background reviews of rated matches, the scan that opens
cases, the staff's decisions and the player's appeal (docs/fairplay.md).

- :func:`queue_review`: heard after a rated match ends (:mod:`fairplay.hooks`): its
  review is queued at depth 0, at the analysis worker's lowest priority, while fewer than
  ``FAIRPLAY_REVIEWS_PER_DAY`` such reviews were queued in the last 24 hours.
- :func:`scan`: each account's figures from its reviewed rated games
  (:mod:`fairplay.evidence`); a score at or over ``FAIRPLAY_THRESHOLD`` with at least
  ``FAIRPLAY_MIN_GAMES`` games opens a case (or refreshes the open one). Bots and the
  computer's accounts are never scanned. An account whose last case was decided is
  looked at again only once ``FAIRPLAY_RECHECK_GAMES`` reviewed games were played after
  the decision: a cleared account stays cleared until its figures change.
- :func:`decide`: staff decide (``clear``, ``warn``, ``assisted``, ``close``), with a
  reason, logged; the player gets a ``fairplay_decision`` notice. ``assisted`` annuls the
  account's results: its rated matches from the case's period no longer count and the
  ratings of everyone it played are recomputed (:func:`ratings.services.ratings_annul`,
  in the decision's transaction), then each of its tournaments' results are annulled
  (:func:`tournaments.services.standings_annul`, one transaction per tournament); what
  was done is kept on the decision. An ``assisted`` decision overturned on appeal
  (``clear`` or ``warn``) restores them: the matches count again and the same players'
  ratings are replayed (:func:`ratings.services.ratings_restore`, in the decision's
  transaction; a match against another account whose annulment stands stays annulled),
  then each tournament's results (:func:`tournaments.services.standings_restore`, one
  transaction per tournament). ``close`` deactivates the account as chat's close does.
- :func:`appeal`: the player appeals a decision once; the case waits for staff again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from accounts.services import notice_create
from fairplay import evidence
from fairplay.exceptions import AppealUsed, CaseDecided
from fairplay.models import STATE_OF, Decision, FairplayCase, FairplayDecision, State
from games import opponents
from games.exceptions import InvalidRequest, NotFound
from games.models import Match, Turn
from ratings.models import RatingChange
from ratings.services import ratings_annul, ratings_restore
from reviews.models import Analysis
from reviews.services import request_background
from tournaments.services import standings_annul, standings_restore, tournaments_of

_log = logging.getLogger(__name__)

FAIRPLAY_DECISION = "fairplay_decision"
"""The notice a player gets of a staff decision on its case."""
REVIEW_DEPTH = 0
"""The background reviews' depth: the cheapest (docs/fairplay.md says why it is enough)."""


# --- background reviews ------------------------------------------------------------------


def never_flagged(user: Any) -> bool:
    """Bots and the computer's own accounts are never scanned nor flagged."""
    return bool(user.is_bot or user.is_guest or opponents.level_of(user) is not None)


def queue_review(match: Match) -> Analysis | None:
    """Queue the cheap review of a rated match that has ended (module docstring);
    ``None`` when it is not one to review or the day's budget is spent."""
    if not match.rated or match.hotseat or match.white_id is None or match.black_id is None:
        return None
    since = timezone.now() - timedelta(days=1)
    used = Analysis.objects.filter(requested_by=None, created_at__gte=since).count()
    if used >= settings.FAIRPLAY_REVIEWS_PER_DAY:
        return None
    return request_background(match_id=match.pk, depth=REVIEW_DEPTH)


# --- evidence ----------------------------------------------------------------------------


def _seconds(game_id: int) -> dict[int, float]:
    """The seconds each turn of a game took, by number (from its record's timestamps)."""
    return {number: (finished - started).total_seconds()
            for number, started, finished in Turn.objects.filter(
                game_id=game_id, finished_at__isnull=False)
            .values_list("number", "started_at", "finished_at") if finished is not None}


def _reviewed(user_id: int | None = None) -> Any:
    """Done reviews of rated matches between two people, deepest per match first."""
    found = Analysis.objects.filter(state=Analysis.State.DONE, match__rated=True,
                                    match__hotseat=False)
    if user_id is not None:
        found = found.filter(Q(match__white_id=user_id) | Q(match__black_id=user_id))
    return found.select_related("match").order_by("-match__finished_at", "-match_id",
                                                  "-depth")


def account_games(user: User, last: int | None = None
                  ) -> list[tuple[float, datetime | None, evidence.GameFigures]]:
    """``user``'s newest ``last`` reviewed rated games: its rating before each match (as
    the rating history has it), when the match ended, its figures."""
    last = last or settings.FAIRPLAY_LAST_GAMES
    out: list[tuple[float, datetime | None, evidence.GameFigures]] = []
    seen: set[int] = set()
    for analysis in _reviewed(user.pk).iterator(chunk_size=20):
        match = analysis.match
        if match.pk in seen:
            continue
        seen.add(match.pk)
        change = (RatingChange.objects.filter(match=match, user=user)
                  .values_list("rating_before", "annulled").first())
        if change is not None and change[1]:
            continue  # annulled: no longer a rated result
        rating = change[0] if change is not None else 1500.0
        side = "white" if match.white_id == user.pk else "black"
        games = {g.number: g.pk for g in match.games.all()}
        for review in sorted(analysis.results or (), key=lambda g: -int(g.get("game", 0))):
            if len(out) >= last:
                return out
            game_id = games.get(int(review.get("game", 0)))
            out.append((rating, match.finished_at, evidence.game_figures(
                review, side, match=match.pk,
                seconds=_seconds(game_id) if game_id is not None else None)))
    return out


FIT_KEY = "fairplay-fit-2"
"""The cache key of the fit; its number changes with the fit's fields, so that a fit cached
by an older release is not read as a new one."""
FIT_SECONDS = 3600
"""The fit is computed again at most this often (it reads thousands of reviews)."""


def current_fit(limit: int = 2000) -> evidence.Fit:
    """:func:`fit_now`, kept in the cache for :data:`FIT_SECONDS`."""
    found = cache.get(FIT_KEY)
    if isinstance(found, evidence.Fit):
        return found
    fitted = fit_now(limit)
    cache.set(FIT_KEY, fitted, FIT_SECONDS)
    return fitted


def fit_now(limit: int = 2000) -> evidence.Fit:
    """The expected error rate by rating and the honest relations of best moves, fitted
    from the newest ``limit`` reviewed rated matches' games of accounts not found to have
    had assistance (:func:`evidence.fit`)."""
    tainted = set(FairplayCase.objects.filter(state__in=(State.ASSISTED, State.CLOSED))
                  .values_list("account_id", flat=True))
    samples: list[tuple[float, evidence.GameFigures]] = []
    ratings = {}
    analyses = list(_reviewed()[:limit])
    for row in RatingChange.objects.filter(match_id__in=[a.match_id for a in analyses]):
        ratings[(row.match_id, row.user_id)] = row.rating_before
    for analysis in analyses:
        match = analysis.match
        for side, uid in (("white", match.white_id), ("black", match.black_id)):
            if uid is None or uid in tainted or (match.pk, uid) not in ratings:
                continue
            for review in analysis.results or ():
                figures = evidence.game_figures(review, side, match=match.pk)
                figures.account = uid
                samples.append((ratings[(match.pk, uid)], figures))
    return evidence.fit(samples)


def account_evidence(user: User, the_fit: evidence.Fit | None = None) -> dict[str, Any]:
    """``user``'s figures and score over its newest reviewed rated games, with the games
    (their figures and links to their reviews) and the period they span."""
    the_fit = the_fit or current_fit()
    games = account_games(user)
    rating = (sum(r for r, _, _ in games) / len(games)) if games else 1500.0
    figures = evidence.account_figures([g for _, _, g in games], rating, the_fit)
    ended = [at for _, at, _ in games if at is not None]
    figures["since"] = min(ended).isoformat() if ended else None
    figures["fit"] = the_fit.as_dict()
    figures["threshold"] = settings.FAIRPLAY_THRESHOLD
    figures["game_list"] = [
        {"match": g.match, "game": g.game, "side": g.side, "moves": g.moves,
         "error_rate": round(g.error_rate, 5),
         "best_share": round(g.best / g.moves, 4) if g.moves else None,
         "hard_moves": g.hard, "review": f"/api/v1/matches/{g.match}/analysis/"}
        for _, _, g in games]
    return figures


def _recheck_due(user: User, case: FairplayCase) -> bool:
    """After a decision, whether enough reviewed games were played since to look again."""
    decided = case.decided_at or case.updated
    newer = _reviewed(user.pk).filter(match__finished_at__gt=decided).values("match_id")
    return newer.distinct().count() >= settings.FAIRPLAY_RECHECK_GAMES


def scan_account(user: User, the_fit: evidence.Fit | None = None) -> FairplayCase | None:
    """Open (or refresh) ``user``'s case when its score reaches the threshold (module
    docstring); the open case, or ``None``."""
    if never_flagged(user) or not user.is_active:
        return None
    latest = FairplayCase.objects.filter(account=user).order_by("-created", "-id").first()
    if latest is not None and latest.state != State.OPEN and not _recheck_due(user, latest):
        return None
    figures = account_evidence(user, the_fit)
    games, score = figures["games"], figures["score"]
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        open_ = FairplayCase.objects.filter(account=user, state=State.OPEN).first()
        if open_ is not None:
            open_.score, open_.evidence, open_.games, open_.updated = score, figures, games, now
            open_.save(update_fields=["score", "evidence", "games", "updated"])
            return open_
        if games < settings.FAIRPLAY_MIN_GAMES or score < settings.FAIRPLAY_THRESHOLD:
            return None
        since = (datetime.fromisoformat(figures["since"]) if figures["since"] else now)
        return FairplayCase.objects.create(account=user, score=score, evidence=figures,
                                           games=games, since=since, created=now,
                                           updated=now)


def scan(*, days: float = 7.0, accounts: Iterable[int] | None = None) -> list[FairplayCase]:
    """Scan the accounts that played a reviewed rated match in the last ``days`` (or
    those of ``accounts``); the cases open after it."""
    if accounts is None:
        since = timezone.now() - timedelta(days=days)
        recent = _reviewed().filter(match__finished_at__gte=since)
        ids = (set(recent.values_list("match__white_id", flat=True))
               | set(recent.values_list("match__black_id", flat=True)))
    else:
        ids = set(accounts)
    the_fit = current_fit()
    found = []
    for user in User.objects.filter(pk__in=ids - {None}, is_active=True, is_bot=False):
        case = scan_account(user, the_fit)
        if case is not None:
            found.append(case)
    return found


# --- decisions ---------------------------------------------------------------------------


def decide(*, account: User, by: User, decision: object, reason: object) -> FairplayDecision:
    """A staff decision on ``account``'s waiting case (module docstring): 400
    ``validation_error`` for an unknown decision or no reason, 404 ``not_found`` for an
    account without a case, 409 ``case_decided`` when its case waits for nobody."""
    if decision not in Decision.values:
        raise InvalidRequest("Unknown decision.",
                             details={"decision": [f"One of {list(Decision.values)}."]})
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidRequest("A decision needs a reason.",
                             details={"reason": ["May not be blank."]})
    decision, reason = str(decision), reason.strip()
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=account.pk).first()
        case = (FairplayCase.objects.select_for_update().filter(account=account)
                .order_by("-created", "-id").first())
        if case is None:
            raise NotFound("No fair-play case of this account.")
        if not case.waiting:
            raise CaseDecided(details={"state": case.state})
        on_appeal = case.state != State.OPEN
        effects: dict[str, Any] = {}
        if decision == Decision.ASSISTED and case.state != State.ASSISTED:
            recomputed = ratings_annul(user_id=account.pk, since=case.since,
                                       reason=f"fair play: {reason}")
            effects["ratings"] = [{"username_id": r.user_id, "rules": r.rules,
                                   "before": round(r.rating_before, 1),
                                   "after": round(r.rating_after, 1),
                                   "matches_annulled": r.matches_annulled}
                                  for r in recomputed]
        restoring = (on_appeal and case.state == State.ASSISTED
                     and decision in (Decision.CLEAR, Decision.WARN))
        if restoring:
            restored = ratings_restore(user_id=account.pk, since=case.since,
                                       reason=f"fair play, on appeal: {reason}",
                                       still_annulled=_standing_annulments(account))
            effects["ratings_restored"] = [
                {"username_id": r.user_id, "rules": r.rules,
                 "before": round(r.rating_before, 1), "after": round(r.rating_after, 1),
                 "matches_restored": r.matches_restored} for r in restored]
        if decision == Decision.CLOSE:
            # An inactive account's tokens and sessions no longer sign in (as chat's close).
            User.objects.filter(pk=account.pk).update(is_active=False)
        case.state = STATE_OF[Decision(decision)]
        case.decided_by, case.decided_at, case.reason = by, now, reason
        if on_appeal:
            case.appeal_decided_at = now
        case.save()
        done = FairplayDecision.objects.create(case=case, by=by, decision=decision,
                                               reason=reason, on_appeal=on_appeal,
                                               effects=effects, created=now)
        notice_create(recipient=account, kind=FAIRPLAY_DECISION,
                      data={"decision": decision, "reason": reason, "case": case.pk,
                            "on_appeal": on_appeal,
                            "may_appeal": (not on_appeal and case.appealed_at is None
                                           and decision != Decision.CLEAR)})
    if "ratings" in effects:
        effects["tournaments"] = _each_tournament(
            account, standings_annul, f"fair play: {reason}", "not annulled")
    if restoring:
        effects["tournaments_restored"] = _each_tournament(
            account, standings_restore, f"fair play, on appeal: {reason}", "not restored")
    if "ratings" in effects or restoring:
        FairplayDecision.objects.filter(pk=done.pk).update(effects=effects)
        done.effects = effects
    return done


def _standing_annulments(account: User) -> dict[int, datetime]:
    """The other accounts whose results stay annulled (assisted, or closed after being
    found assisted): each one's id → the start of its annulled period."""
    out: dict[int, datetime] = {}
    for uid, since in (FairplayCase.objects
                       .filter(Q(state=State.ASSISTED)
                               | Q(state=State.CLOSED, decisions__decision=Decision.ASSISTED))
                       .exclude(account=account).values_list("account_id", "since")):
        out[uid] = min(since, out.get(uid, since))
    return out


def _each_tournament(account: User, change: Callable[..., dict[str, Any]], reason: str,
                     failed: str) -> list[dict[str, Any]]:
    """``change`` (:func:`standings_annul` or :func:`standings_restore`) applied to each
    tournament of ``account``, each in its own transaction; a failure is logged with the
    decision (``{"error": failed}``) and the others go on."""
    out = []
    for tournament_id in tournaments_of(account.pk):
        try:
            out.append(change(tournament_id=tournament_id, user_id=account.pk, reason=reason))
        except Exception:
            _log.exception("fair play: tournament %s of %s %s", tournament_id, account.pk,
                           failed)
            out.append({"tournament": tournament_id, "error": failed})
    return out


def appeal(*, user: User, text: object) -> FairplayCase:
    """The player appeals the decision on its latest decided case (warned or assisted):
    400 ``validation_error`` without a text, 404 ``not_found`` with nothing to appeal,
    409 ``appeal_used`` the second time."""
    if not isinstance(text, str) or not text.strip() or len(text) > 4000:
        raise InvalidRequest("Say why, in at most 4000 characters.",
                             details={"text": ["A text of 1 to 4000 characters."]})
    with transaction.atomic():
        case = (FairplayCase.objects.select_for_update().filter(account=user)
                .exclude(state=State.OPEN).order_by("-created", "-id").first())
        if case is None or case.state not in (State.WARNED, State.ASSISTED):
            raise NotFound("No fair-play decision to appeal.")
        if case.appealed_at is not None:
            raise AppealUsed(details={"appealed_at": case.appealed_at.isoformat()})
        case.appeal, case.appealed_at = text.strip(), timezone.now()
        case.save(update_fields=["appeal", "appealed_at"])
    return case
