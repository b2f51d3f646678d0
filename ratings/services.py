"""The only write path of ratings/: the update at a rated match's end, staff resets, and
the quick-pairing pool (docs/ratings.md).

Against pumping (a rating raised by matches nobody plays):

- a rated match that ends before ``RATED_MIN_TURNS`` turns were played moves no rating
  (as an abort): its ``match_over`` event says ``rated: false`` and
  ``unrated: "too_few_turns"``, and the match is no longer rated (:func:`settle`);
- two accounts play at most ``RATED_PER_PAIR_PER_DAY`` rated matches together in 24 hours:
  a match beyond is made casual when its first game starts, its ``game_start`` event
  saying ``unrated: "pair_limit"`` (:func:`pair_limit_reached`);
- a pairing of two accounts asking from one client address is noted
  (:class:`ratings.models.SharedAddress`) for the fair-play evidence.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from accounts import blocks
from accounts.models import User
from games.exceptions import InvalidRequest, NotFound
from games.models import Color, Game, Match, MatchStatus, Stakes
from games.notify import Pending
from games.start import MatchOptions, match_start
from nard_site.domain import DomainError
from nard_site.rows import Statement
from nardy import RULESETS
from ratings import glicko
from ratings.models import (
    PairingRequest,
    Rating,
    RatingChange,
    RatingRecompute,
    RatingReset,
    SharedAddress,
)

# --- the rating update (in the transaction of the match's final move) --------------------


def current(row: Rating | None, now: datetime) -> glicko.Rating:
    """A stored rating as it stands at ``now``: its deviation grown with the inactivity."""
    if row is None:
        return glicko.Rating()
    stored = glicko.Rating(row.rating, row.deviation, row.volatility)
    if row.last_played_at is None:
        return stored
    return glicko.inactive(stored, (now - row.last_played_at).total_seconds() / 86_400)


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


_COLUMNS = ("user_id", "rules", "rating", "deviation", "volatility", "matches", "last_played_at")


def ensure_statement(rules: str, user_ids: list[int]) -> Statement:
    """Insert the start rating for whichever of ``user_ids`` has none in ``rules``."""
    rows = ", ".join(["(%s, %s, %s, %s, %s, 0, NULL)"] * len(user_ids))
    params: list[Any] = []
    for uid in user_ids:
        params += [uid, rules, glicko.START_RATING, glicko.START_DEVIATION,
                   glicko.START_VOLATILITY]
    sql = (f"INSERT INTO {_qn(Rating._meta.db_table)} ({', '.join(map(_qn, _COLUMNS))}) "
           f"VALUES {rows} ON CONFLICT ({_qn('user_id')}, {_qn('rules')}) DO NOTHING")
    return sql, params


def settle(change: Pending) -> list[Statement]:
    """The rating update of a rated match that ``change`` finishes (a win, a resignation, a
    clock loss or an abandonment alike: the loser scores 0): one locked read of both
    rating rows now, and two writes (the ratings, the history) returned to be sent with
    the change's own. Adds ``ratings`` to the change's ``match_over`` event. Nothing
    when a seat has become a bot account since the match began (``POST
    accounts/bot/upgrade/``): bots are never rated against people."""
    match = change.match
    over = next(e for e in change.events if e.type == "match_over")
    white, black = match.white_id, match.black_id
    assert white is not None and black is not None
    played = turns_played(match, settings.RATED_MIN_TURNS)
    if played < settings.RATED_MIN_TURNS:
        # A match nobody played (resigned at the roll-off, abandoned at once) rates
        # nothing, as an abort: else eight such matches made a leader of an account.
        match.rated = False
        over.data.update(rated=False, unrated="too_few_turns", turns=played)
        return []
    rows = {r.user_id: r for r in Rating.objects.select_for_update(of=("self",))
            .filter(rules=match.rules, user_id__in=[white, black]).select_related("user")
            .order_by("user_id")}
    if any(row.user.is_bot for row in rows.values()):
        return []  # a seat became a bot account since the match began: never rated then
    now = change.now
    before = {uid: current(rows.get(uid), now) for uid in (white, black)}
    winner = white if match.winner == Color.WHITE else black
    after = {uid: glicko.update(before[uid], [(before[opp], 1.0 if uid == winner else 0.0)],
                                length=match.length, floor=True)
             for uid, opp in ((white, black), (black, white))}
    over.data["ratings"] = {
        colour: {"before": round(before[uid].rating, 1), "after": round(after[uid].rating, 1),
                 "change": round(after[uid].rating - before[uid].rating, 1),
                 "deviation": round(after[uid].deviation, 1),
                 "provisional": after[uid].provisional}
        for colour, uid in (("white", white), ("black", black))}
    at = connection.ops.adapt_datetimefield_value(now)
    upsert_rows, upsert_params = [], []
    history_rows, history_params = [], []
    for uid, opp in ((white, black), (black, white)):
        new, old = after[uid], before[uid]
        played = (rows[uid].matches if uid in rows else 0) + 1
        upsert_rows.append("(%s, %s, %s, %s, %s, %s, %s)")
        upsert_params += [uid, match.rules, new.rating, new.deviation, new.volatility, played,
                          at]
        history_rows.append("(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)")
        history_params += [uid, match.rules, match.pk, opp, 1.0 if uid == winner else 0.0,
                           old.rating, old.deviation, new.rating, new.deviation, at]
    updates = ", ".join(f"{_qn(c)} = excluded.{_qn(c)}" for c in _COLUMNS[2:])
    upsert = (f"INSERT INTO {_qn(Rating._meta.db_table)} ({', '.join(map(_qn, _COLUMNS))}) "
              f"VALUES {', '.join(upsert_rows)} ON CONFLICT ({_qn('user_id')}, {_qn('rules')})"
              f" DO UPDATE SET {updates}")
    history_columns = ("user_id", "rules", "match_id", "opponent_id", "score", "rating_before",
                       "deviation_before", "rating_after", "deviation_after", "at")
    history = (f"INSERT INTO {_qn(RatingChange._meta.db_table)} "
               f"({', '.join(map(_qn, history_columns))}) VALUES {', '.join(history_rows)}")
    return [(upsert, upsert_params), (history, history_params)]


def turns_played(match: Match, enough: int) -> int:
    """The turns rolled in ``match``'s games so far (its current game as the change being
    written leaves it), counted up to ``enough``: the earlier games are read only when
    the current one has fewer (no query in the usual final move)."""
    current = match.current_game
    played = current.turns if current is not None else 0
    if played >= enough or (current is not None and current.number == 1):
        return played
    earlier = Game.objects.filter(match_id=match.pk)
    if current is not None and current.pk is not None:
        earlier = earlier.exclude(pk=current.pk)
    return played + int(earlier.aggregate(turns=Sum("turns"))["turns"] or 0)


def pair_limit_reached(match: Match, now: datetime) -> bool:
    """Whether ``match``'s two players have played ``RATED_PER_PAIR_PER_DAY`` rated
    matches together (either colours) started in the last 24 hours, this one aside."""
    white, black = match.white_id, match.black_id
    together = (Q(white_id=white, black_id=black) | Q(white_id=black, black_id=white))
    return (Match.objects.filter(together, rated=True,
                                 started_at__gte=now - timedelta(days=1))
            .exclude(pk=match.pk).count() >= settings.RATED_PER_PAIR_PER_DAY)


def unrate_beyond_the_pair_limit(change: Pending) -> None:
    """At the start of a rated match's first game: casual instead when its players are
    at their daily limit together (:func:`pair_limit_reached`); its ``game_start`` says so."""
    match = change.match
    if pair_limit_reached(match, change.now):
        match.rated = False
        start = next(e for e in change.events if e.type == "game_start")
        start.data.update(rated=False, unrated="pair_limit")


# --- annulment: an account's rated matches no longer count -------------------------------


def ratings_annul(*, user_id: int, since: datetime, reason: str) -> list[RatingRecompute]:
    """Treat every rated match ``user_id`` played from ``since`` on as unrated, and
    recompute from ``since`` the Glicko-2 rating, in each rule set concerned, of the
    account and of everyone it played then (docs/ratings.md, "Annulment"): each one's
    history rows from ``since`` are replayed in order, the annulled matches skipped (their
    rows kept, marked ``annulled``), each other match's update done again from the
    player's recomputed rating and the opponent's rating as it was recorded before that
    match. One transaction; one :class:`RatingRecompute` row per player and rule set.
    A third player's matches against the account's opponents are not replayed: the
    ripple beyond the account's own opponents is left (it is small and fades)."""
    with transaction.atomic():
        mine = (RatingChange.objects.select_for_update()
                .filter(Q(user_id=user_id) | Q(opponent_id=user_id), at__gte=since,
                        annulled=False))
        return _recount(user_id=user_id, since=since, reason=reason, rows=mine,
                        annul=True)


def ratings_restore(*, user_id: int, since: datetime, reason: str,
                    still_annulled: Mapping[int, datetime] | None = None
                    ) -> list[RatingRecompute]:
    """Undo :func:`ratings_annul` of ``user_id`` from ``since`` (the annulment was
    overturned on appeal): its annulled rated matches from ``since`` count again, and the
    ratings of the account and of everyone it played then are replayed from ``since`` as
    :func:`ratings_annul` replays them (docs/ratings.md, "Restoring"), one transaction,
    one :class:`RatingRecompute` row per player and rule set (``matches_restored``). A
    match against an account of ``still_annulled`` (its id → the start of its own
    annulment that still stands) played from that start stays annulled."""
    with transaction.atomic():
        mine = (RatingChange.objects.select_for_update()
                .filter(Q(user_id=user_id) | Q(opponent_id=user_id), at__gte=since,
                        annulled=True))
        kept = Q(pk__in=[])
        for other, other_since in (still_annulled or {}).items():
            if other != user_id:
                kept |= ((Q(user_id=other) | Q(opponent_id=other)) & Q(at__gte=other_since))
        keep_matches = RatingChange.objects.filter(kept).values("match_id")
        rows = mine.exclude(match_id__in=keep_matches)
        return _recount(user_id=user_id, since=since, reason=reason, rows=rows,
                        annul=False)


def _recount(*, user_id: int, since: datetime, reason: str,
             rows: QuerySet[RatingChange], annul: bool) -> list[RatingRecompute]:
    """Mark ``rows``' matches annulled (or no longer), then replay everyone in them (the
    caller's transaction)."""
    now = timezone.now()
    matches = set(rows.values_list("match_id", flat=True))
    if not matches:
        return []
    both = RatingChange.objects.filter(match_id__in=matches)
    affected = sorted(set(both.values_list("user_id", "rules")))
    changed: dict[tuple[int, str], int] = {}
    for uid, rules in both.values_list("user_id", "rules"):
        changed[(uid, rules)] = changed.get((uid, rules), 0) + 1
    both.update(annulled=annul)
    locked = {(r.user_id, r.rules): r for r in Rating.objects.select_for_update()
              .filter(user_id__in={uid for uid, _ in affected}).order_by("user_id", "rules")}
    done = []
    for key in affected:
        row = locked.get(key)
        if row is None:
            continue
        count = changed[key]
        done.append(_replay(row, user_id=user_id, since=since, reason=reason, now=now,
                            delta=-count if annul else count))
    return done


def _replay(row: Rating, *, user_id: int, since: datetime, reason: str, now: datetime,
            delta: int) -> RatingRecompute:
    """``row``'s rating recomputed from its history since ``since``, the rows marked
    ``annulled`` skipped (:func:`ratings_annul`); ``delta``: how many of its matches
    stopped (negative) or started again (positive) counting."""
    changes = list(RatingChange.objects.select_for_update(of=("self",)).select_related("match")
                   .filter(user_id=row.user_id, rules=row.rules, at__gte=since)
                   .order_by("at", "id"))
    opponents = {(c.match_id, c.user_id): c for c in RatingChange.objects.filter(
        match_id__in=[c.match_id for c in changes]).exclude(user_id=row.user_id)}
    first = changes[0]
    rating = glicko.Rating(first.rating_before, first.deviation_before, row.volatility)
    last_at: datetime | None = None
    skipped = 0
    for change in changes:
        if change.annulled:
            skipped += 1
            continue
        before = rating if last_at is None and change is first else glicko.inactive(
            rating, (change.at - (last_at or first.at)).total_seconds() / 86_400)
        other = opponents.get((change.match_id, change.opponent_id))
        opponent = (glicko.Rating(other.rating_before, other.deviation_before)
                    if other is not None else glicko.Rating())
        rating = glicko.update(before, [(opponent, change.score)],
                               length=change.match.length, floor=True)
        change.rating_before, change.deviation_before = before.rating, before.deviation
        change.rating_after, change.deviation_after = rating.rating, rating.deviation
        change.save(update_fields=["rating_before", "deviation_before", "rating_after",
                                   "deviation_after"])
        last_at = change.at
    log = RatingRecompute.objects.create(
        user_id=row.user_id, rules=row.rules, annulled_user_id=user_id, since=since,
        matches_annulled=skipped, matches_restored=max(delta, 0),
        rating_before=row.rating, deviation_before=row.deviation,
        rating_after=rating.rating, deviation_after=rating.deviation, reason=reason, at=now)
    row.rating, row.deviation, row.volatility = rating.rating, rating.deviation, rating.volatility
    row.matches = max(0, row.matches + delta)
    if last_at is not None or skipped == len(changes):
        row.last_played_at = last_at or row.last_played_at
    row.save(update_fields=["rating", "deviation", "volatility", "matches", "last_played_at"])
    return log


# --- staff ------------------------------------------------------------------------------


def rating_reset(*, user: User, rules: str, by: User, reason: str) -> RatingReset:
    """Staff put a player's rating in ``rules`` back to the start (1500 ± 350), logging
    the reason and what it was; the history stays."""
    if rules not in RULESETS:
        raise InvalidRequest(f"No rule set {rules!r}.", details={"rules": ["Unknown."]})
    if not reason.strip():
        raise InvalidRequest("Say why.", details={"reason": ["A reason is required."]})
    with transaction.atomic():
        row, _ = Rating.objects.select_for_update().get_or_create(user=user, rules=rules)
        log = RatingReset.objects.create(user=user, rules=rules, by=by, reason=reason.strip(),
                                         rating_before=row.rating,
                                         deviation_before=row.deviation)
        row.rating, row.deviation = glicko.START_RATING, glicko.START_DEVIATION
        row.volatility, row.last_played_at = glicko.START_VOLATILITY, None
        row.save(update_fields=["rating", "deviation", "volatility", "last_played_at"])
    return log


# --- quick pairing ------------------------------------------------------------------------

WINDOW_START = 100.0
"""The rating window at once: ± this many points."""
WINDOW_GROWTH = 10.0
"""… widening by this many points for every second the longer waiting of the two has
waited …"""
WINDOW_MAX = 700.0
"""… up to ± this (after 60 s): then anyone asking for the same options."""


def window(waited_seconds: float) -> float:
    return min(WINDOW_START + WINDOW_GROWTH * max(waited_seconds, 0.0), WINDOW_MAX)


class AlreadyWaiting(DomainError):
    code = "already_waiting"
    default_message = "You are already waiting for a game with other options."


@dataclass(frozen=True)
class Pairing:
    """Where a request stands: waiting (since when), or paired (the match)."""

    request: PairingRequest | None
    match: Match | None


def _options(rules: str, length: int, stakes: str, turn_seconds: int | None, rated: bool,
             bots: bool, user: User) -> dict[str, Any]:
    """The options a pairing request waits with, checked as every match's are."""
    MatchOptions(length=length, rules=rules, stakes=stakes, turn_seconds=turn_seconds).check()
    if rated and not user.may_play_rated:
        raise InvalidRequest("This account may not play rated.",
                             details={"rated": ["This player may not play rated."]})
    return {"rules": rules, "length": length, "stakes": stakes, "turn_seconds": turn_seconds,
            "rated": bool(rated), "bots": bool(bots)}


def _bots_allowed(candidates: QuerySet[PairingRequest], *, user: User,
                  bots: bool) -> QuerySet[PairingRequest]:
    """Who may meet whom: a bot account only someone who accepts bots (``bots``), and
    someone who does not accept bots only people. Two bots meet when both accept bots."""
    if user.is_bot:
        candidates = candidates.filter(bots=True)
    if not bots:
        candidates = candidates.exclude(user__is_bot=True)
    return candidates


def pairing_request(*, user: User, rules: str, length: int, stakes: str = Stakes.NONE,
                    turn_seconds: int | None = None, rated: bool = True,
                    bots: bool = False, address: str | None = None) -> Pairing:
    """Ask for a game: paired at once with the waiting player nearest by rating whose
    window (:func:`window`) holds both, or wait in the pool. Asking again with the same
    options looks again (the window has widened); with other options it is 409
    ``already_waiting``. The asker's account row is locked first, so two requests of one
    account (two tabs) are taken one after the other: the second sees the first's entry,
    or the match it just made (answered again, never a second pairing:
    :func:`just_paired`). The waiting rows are locked ``FOR UPDATE SKIP LOCKED``: a
    waiting player another request is pairing right now is skipped, so one waiting
    player makes one match however many ask at once. Only active accounts whose entry
    was asked or looked at within ``PAIRING_POLL_SECONDS`` are paired; an older entry is
    gone. Bot accounts meet only those who accept bots (``bots``); without ``bots`` the
    opponent is a person."""
    options = _options(rules, length, stakes, turn_seconds, rated, bots, user)
    now = timezone.now()
    fresh_since = now - timedelta(seconds=settings.PAIRING_POLL_SECONDS)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        mine = PairingRequest.objects.select_for_update().filter(user=user).first()
        if mine is not None and not _fresh(mine, fresh_since):
            mine.delete()
            mine = None
        if mine is None:
            paired = just_paired(user, now)
            if paired is not None:
                return Pairing(None, paired)
        if mine is not None and mine.options() != options:
            raise AlreadyWaiting(details={"waiting": mine.options()})
        _forget_stale(fresh_since)
        row = Rating.objects.filter(user=user, rules=rules).first()
        rating = current(row, now).rating
        waited_mine = (now - mine.created_at).total_seconds() if mine else 0.0
        same = {key: value for key, value in options.items() if key != "bots"}
        pool = (PairingRequest.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(**same, user__is_active=True)
                .filter(Q(polled_at__gte=fresh_since)
                        | Q(polled_at__isnull=True, created_at__gte=fresh_since)))
        candidates = (_bots_allowed(pool, user=user, bots=bots).exclude(user=user)
                      .select_related("user").order_by("created_at")[:200])
        best, best_gap = None, None
        blocked = blocks.around(user.pk)
        for other in candidates:
            if other.user_id in blocked:  # either blocked the other: never partners
                continue
            gap = abs(other.rating - rating)
            waited = max(waited_mine, (now - other.created_at).total_seconds())
            if gap <= window(waited) and (best_gap is None or gap < best_gap):
                best, best_gap = other, gap
        if best is None:
            if mine is None:
                mine = PairingRequest.objects.create(user=user, rating=rating, created_at=now,
                                                     polled_at=now, address=address,
                                                     **options)
            else:
                mine.polled_at = now
                mine.save(update_fields=["polled_at"])
            return Pairing(mine, None)
        partner, partner_address = best.user, best.address
        best.delete()
        if mine is not None:
            mine.delete()
        match = _paired_match(best_of=partner, asker=user, options=options)
        if address and partner_address == address:
            SharedAddress.objects.create(match=match, first=partner, second=user,
                                         address=address, rated=match.rated, at=now)
        return Pairing(None, match)


def _fresh(entry: PairingRequest, since: datetime) -> bool:
    return (entry.polled_at or entry.created_at) >= since


def _forget_stale(since: datetime) -> None:
    """Delete a batch of entries nobody polled since ``since`` (rows another request
    holds are skipped: never a wait here)."""
    stale = list(PairingRequest.objects.select_for_update(skip_locked=True)
                 .filter(Q(polled_at__lt=since) | Q(polled_at__isnull=True,
                                                    created_at__lt=since))
                 .values_list("pk", flat=True)[:100])
    if stale:
        PairingRequest.objects.filter(pk__in=stale).delete()


def just_paired(user: User, now: datetime) -> Match | None:
    """``user``'s active match made by a pairing in the last ``PAIRING_POLL_SECONDS``:
    what a second tab's request (or the waiting player's next look) is answered."""
    since = now - timedelta(seconds=settings.PAIRING_POLL_SECONDS)
    return (Match.objects.filter(Q(white=user) | Q(black=user), status=MatchStatus.ACTIVE,
                                 created_at__gte=since, events__type="match_created",
                                 events__data__paired=True)
            .order_by("-pk").first())


def _paired_match(*, best_of: User, asker: User, options: dict[str, Any]) -> Match:
    """The match of a pairing, active at once (colours at random), started as every match
    is (:func:`games.start.match_start`); its ``match_created`` event says ``paired`` (the
    account stream's ``paired``). Rated when asked for and both may still play rated."""
    white, black = (best_of, asker) if secrets.randbelow(2) else (asker, best_of)
    # A clock always (PAIRING_TURN_SECONDS when none was asked for): a paired match whose
    # player went away ends by the clock's sweep, never waits for ever.
    terms = MatchOptions(length=options["length"], rules=options["rules"],
                         stakes=options["stakes"],
                         turn_seconds=options["turn_seconds"] or settings.PAIRING_TURN_SECONDS,
                         rated=None if options["rated"] else False)
    return match_start(created_by=best_of, options=terms, white=white, black=black,
                       context={"paired": True})


def pairing_cancel(*, user: User) -> None:
    """Leave the pool; 404 ``not_found`` when not waiting."""
    with transaction.atomic():
        deleted, _ = PairingRequest.objects.filter(user=user).delete()
    if not deleted:
        raise NotFound("You are not waiting for a game.")


def pairing_status(*, user: User, address: str | None = None) -> Pairing:
    """Look again with the options the player waits with (the window has widened; the
    entry is kept for another ``PAIRING_POLL_SECONDS``); paired when another player's
    request just made the match (:func:`just_paired`); idle otherwise, or when the entry
    was not looked at for ``PAIRING_POLL_SECONDS``."""
    mine = PairingRequest.objects.filter(user=user).first()
    now = timezone.now()
    if mine is None or not _fresh(mine, now - timedelta(seconds=settings.PAIRING_POLL_SECONDS)):
        if mine is not None:
            PairingRequest.objects.filter(pk=mine.pk).delete()
        return Pairing(None, just_paired(user, now))
    return pairing_request(user=user, address=mine.address or address,
                           **mine.options())  # type: ignore[arg-type]
