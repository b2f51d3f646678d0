"""The write path of tournaments/: create, join, withdraw, pause, start, the staff's
actions, and what follows each match's end (settle, pair again, next round, finish).

Every call is one transaction with the tournament's row locked first, so two ends of
matches of one tournament, or a join and a start, happen one after the other. Matches
start only through :func:`games.start.match_start` (``context`` names the tournament and
the round: the ``match_created`` event and the account stream's ``paired`` say so). The
stream's cache key is set after the commit (:func:`_ring`). docs/tournaments.md.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import User
from accounts.notices import TOURNAMENT_STARTED
from accounts.services import notice_create
from games import opponents
from games.exceptions import InvalidRequest, NotFound, PermissionDenied
from games.models import Event, Match, MatchStatus, Stakes
from games.start import MatchOptions, match_start
from nardy import RULESETS
from ratings.selectors import ratings_of
from tournaments import pairing
from tournaments.exceptions import (
    AlreadyJoined,
    NotJoined,
    RoundInProgress,
    TooManyTournaments,
    TournamentFinished,
    TournamentFull,
    TournamentStarted,
)
from tournaments.models import (
    Entrant,
    Entry,
    Pairing,
    Round,
    Status,
    System,
    Tournament,
    TournamentEvent,
)

MAX_PLAYERS = 1000


def seq_key(tournament_id: int) -> str:
    """The cache key holding the tournament's last ``seq`` (what its streams poll)."""
    return f"tournament-seq:{tournament_id}"


def _ring(tournament: Tournament) -> None:
    seq, pk = tournament.last_event_seq, tournament.pk
    transaction.on_commit(lambda: cache.set(seq_key(pk), seq, None))


def _log(tournament: Tournament, type_: str, **data: Any) -> None:
    """Append to the tournament's log (its row is locked by the caller)."""
    tournament.last_event_seq += 1
    TournamentEvent.objects.create(tournament=tournament, seq=tournament.last_event_seq,
                                   type=type_, data=data)


def tournament_log_chat(*, tournament_id: int, line_id: int, by: str, text: str,
                        plain_links: bool) -> int:
    """Log a line of the tournament's chat room as a ``chat`` event of its log (and so its
    stream), in the line's transaction; the event's number."""
    tournament = _locked(tournament_id)
    _log(tournament, "chat", line=line_id, by=by, text=text, plain_links=plain_links)
    _save(tournament)
    return tournament.last_event_seq


def _locked(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise NotFound(gettext_noop("No such tournament."))
    return found


def _save(tournament: Tournament) -> None:
    tournament.save()
    _ring(tournament)


# --- create ------------------------------------------------------------------------------


def tournament_create(*, user: User, name: str, system: str, rules: str, length: int,
                      stakes: str = Stakes.NONE, rated: bool = True,
                      turn_seconds: int | None = None, minutes: int | None = None,
                      rounds: int | None = None, third_place: bool = False,
                      starts_at: datetime | None = None, max_players: int = 64,
                      entry: str = Entry.OPEN, allow_computer: bool = False) -> Tournament:
    """A new tournament, ``created``; refused with 409 ``too_many_tournaments`` beyond
    ``TOURNAMENTS_PER_ACCOUNT`` unfinished ones (staff: no limit), and 400
    ``validation_error`` for options a match is not played by."""
    MatchOptions(length=length, rules=rules, stakes=stakes, turn_seconds=turn_seconds).check()
    if system == System.ARENA and not minutes:
        raise InvalidRequest(gettext_noop("An arena lasts a number of minutes."),
                             details={"minutes": ["Required for an arena (from 1)."]})
    if system == System.SWISS and not rounds:
        raise InvalidRequest(gettext_noop("A Swiss has a number of rounds."),
                             details={"rounds": ["Required for a Swiss (from 1)."]})
    if not 2 <= max_players <= MAX_PLAYERS:
        raise InvalidRequest("2 to 1,000 players.",
                             details={"max_players": [f"Must be 2 to {MAX_PLAYERS}."]})
    if rated and not user.may_play_rated:
        raise InvalidRequest("This account may not play rated.",
                             details={"rated": ["This player may not play rated."]})
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one create at a time
        mine = Tournament.objects.filter(created_by=user).exclude(status=Status.FINISHED)
        if not user.is_staff and mine.count() >= settings.TOURNAMENTS_PER_ACCOUNT:
            raise TooManyTournaments(details={"limit": settings.TOURNAMENTS_PER_ACCOUNT})
        tournament = Tournament.objects.create(
            name=name.strip(), system=system, rules=rules, length=length, stakes=stakes,
            rated=rated, turn_seconds=turn_seconds,
            minutes=minutes if system == System.ARENA else None,
            rounds=rounds if system == System.SWISS else None,
            third_place=third_place and system == System.KNOCKOUT, starts_at=starts_at,
            max_players=max_players, entry=entry, allow_computer=allow_computer,
            code=secrets.token_urlsafe(9) if entry == Entry.LINK else "", created_by=user)
        _log(tournament, "created", by=user.username)
        _save(tournament)
    return tournament


# --- taking part -------------------------------------------------------------------------


def _username(entrant: Entrant) -> str:
    return entrant.user.username


def tournament_join(*, tournament_id: int, user: User, code: str = "",
                    computer: str | None = None) -> Entrant:
    """``user`` joins (or, with ``computer``, the creator enters that level of the
    computer, when the tournament allows it): refused with 409 ``already_joined``,
    ``tournament_full``, ``tournament_finished``, ``tournament_started`` (a Swiss or
    knock-out under way), 404 ``not_found`` for a wrong code of an entry by link.
    An arena takes late joiners, paired at once when someone waits."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.entry == Entry.LINK and code != tournament.code and (
                tournament.created_by_id != user.pk):
            raise NotFound(gettext_noop("No such tournament."))
        if computer is not None:
            if not tournament.allow_computer:
                raise InvalidRequest(gettext_noop("This tournament takes no computer entrants."),
                                     details={"computer": ["Not allowed here."]})
            if tournament.created_by_id != user.pk and not user.is_staff:
                raise PermissionDenied(gettext_noop("Only its creator enters the computer."))
            user = opponents.computer_account(level=computer, rules=tournament.rules)
        if tournament.status == Status.FINISHED:
            raise TournamentFinished()
        if tournament.status == Status.STARTED and tournament.system != System.ARENA:
            raise TournamentStarted()
        if Entrant.objects.filter(tournament=tournament, user=user).exists():
            raise AlreadyJoined()
        if tournament.entrants.filter(withdrawn=False, removed=False).count() >= (
                tournament.max_players):
            raise TournamentFull(details={"max_players": tournament.max_players})
        rating = ratings_of([user.pk], tournament.rules)[user.pk]
        entrant = Entrant.objects.create(tournament=tournament, user=user, rating=rating)
        _log(tournament, "joined", username=user.username, rating=round(rating, 1),
             computer=opponents.level_of(user))
        if tournament.status == Status.STARTED:
            _arena_pair(tournament, timezone.now())
        _save(tournament)
    return entrant


def _entrant(tournament: Tournament, user: User) -> Entrant:
    found = (Entrant.objects.select_for_update().filter(tournament=tournament, user=user)
             .first())
    if found is None or found.removed:
        raise NotJoined()
    return found


def _open_pairing(entrant: Entrant) -> Pairing | None:
    return (Pairing.objects.filter(tournament_id=entrant.tournament_id, finished_at=None)
            .filter(Q(white=entrant) | Q(black=entrant)).first())


def tournament_withdraw(*, tournament_id: int, user: User) -> None:
    """Leave: before the start the entry is gone; after it, the player is withdrawn —
    an arena's match under way plays on (and counts), no new one is paired; a Swiss
    or knock-out player withdraws between rounds only (409 ``round_in_progress`` while
    their match of the round is being played), and is not paired again (a knock-out
    opponent goes through by walkover). 409 ``not_joined``, ``tournament_finished``."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == Status.FINISHED:
            raise TournamentFinished()
        entrant = _entrant(tournament, user)
        if entrant.withdrawn:
            raise NotJoined()
        if tournament.status == Status.CREATED:
            entrant.delete()
        else:
            if tournament.system != System.ARENA and _open_pairing(entrant) is not None:
                raise RoundInProgress()
            entrant.withdrawn = True
            entrant.save(update_fields=["withdrawn"])
        _log(tournament, "withdrawn", username=user.username)
        if tournament.status == Status.STARTED:
            _after_change(tournament, timezone.now())
        _save(tournament)


def tournament_pause(*, tournament_id: int, user: User, paused: bool = True) -> Entrant:
    """An arena player pauses (not paired again until it resumes; a match under way plays
    on) or resumes (paired at once when someone waits). 400 ``validation_error`` for
    another system."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.system != System.ARENA:
            raise InvalidRequest(gettext_noop("Only an arena's players pause."),
                                 details={"system": ["Pausing is for arenas."]})
        if tournament.status == Status.FINISHED:
            raise TournamentFinished()
        entrant = _entrant(tournament, user)
        entrant.paused = paused
        entrant.save(update_fields=["paused"])
        _log(tournament, "paused" if paused else "resumed", username=user.username)
        if tournament.status == Status.STARTED and not paused:
            _arena_pair(tournament, timezone.now())
        _save(tournament)
    return entrant


def _may_run(tournament: Tournament, user: User) -> None:
    if tournament.created_by_id != user.pk and not user.is_staff:
        raise PermissionDenied(gettext_noop("Only its creator or the staff may do that."))


def tournament_start(*, tournament_id: int, user: User | None) -> Tournament:
    """Start it (its creator or the staff; ``user`` ``None``: its start time has come):
    seeds by rating now, then the first pairings. 403 ``permission_denied``, 409
    ``tournament_started`` / ``tournament_finished``, 400 ``validation_error`` with fewer
    than two players."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if user is not None:
            _may_run(tournament, user)
        if tournament.status == Status.FINISHED:
            raise TournamentFinished()
        if tournament.status == Status.STARTED:
            raise TournamentStarted()
        entrants = list(tournament.entrants.filter(withdrawn=False, removed=False)
                        .select_related("user"))
        if len(entrants) < 2:
            raise InvalidRequest(gettext_noop("A tournament needs two players."),
                                 details={"players": ["At least 2."]})
        now = timezone.now()
        ratings = ratings_of([e.user_id for e in entrants], tournament.rules)
        for entrant in entrants:
            entrant.rating = ratings[entrant.user_id]
        Entrant.objects.bulk_update(entrants, ["rating"])
        tournament.status, tournament.started_at = Status.STARTED, now
        if tournament.system == System.ARENA:
            assert tournament.minutes is not None
            tournament.ends_at = now + timedelta(minutes=tournament.minutes)
        _log(tournament, "started", players=len(entrants),
             ends_at=tournament.ends_at.isoformat() if tournament.ends_at else None)
        if tournament.system == System.ARENA:
            _arena_pair(tournament, now)
        elif tournament.system == System.SWISS:
            _swiss_round(tournament, now)
        else:
            _knockout_first_round(tournament, entrants, now)
        _save(tournament)
        for entrant in entrants:  # each hears of it on its notices and account stream
            if not entrant.user.is_bot:
                notice_create(recipient=entrant.user, kind=TOURNAMENT_STARTED,
                              data={"tournament": tournament.pk, "name": tournament.name})
    return tournament


# --- the staff ---------------------------------------------------------------------------


def tournament_cancel(*, tournament_id: int, by: User) -> Tournament:
    """The staff end it now: ``finished`` and ``cancelled``; matches under way play on,
    unscored for the tournament."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if not by.is_staff:
            raise PermissionDenied("Staff only.")
        if tournament.status == Status.FINISHED:
            raise TournamentFinished()
        tournament.cancelled = True
        _finish(tournament, timezone.now(), reason="cancelled")
        _save(tournament)
    return tournament


def entrant_remove(*, entrant_id: int, by: User) -> None:
    """The staff remove a player: not paired again; a match under way plays on."""
    with transaction.atomic():
        tournament_id = Entrant.objects.values_list("tournament_id", flat=True).get(
            pk=entrant_id)
        tournament = _locked(tournament_id)
        if not by.is_staff:
            raise PermissionDenied("Staff only.")
        entrant = Entrant.objects.select_related("user").get(pk=entrant_id)
        entrant.removed = True
        entrant.save(update_fields=["removed"])
        _log(tournament, "removed", username=entrant.user.username, by=by.username)
        if tournament.status == Status.STARTED:
            _after_change(tournament, timezone.now())
        _save(tournament)


def tournaments_of(user_id: int) -> list[int]:
    """The tournaments ``user_id`` entered, by id."""
    return sorted(Entrant.objects.filter(user_id=user_id)
                  .values_list("tournament_id", flat=True))


def _locked_entrant(tournament: Tournament, user_id: int) -> Entrant:
    """The entrant ``user_id`` of ``tournament``, locked (with its user); 404 if none."""
    entrant = (Entrant.objects.select_for_update().select_related("user")
               .filter(tournament=tournament, user_id=user_id).first())
    if entrant is None:
        raise NotFound(gettext_noop("Not an entrant of this tournament."))
    return entrant


def standings_annul(*, tournament_id: int, user_id: int, reason: str) -> dict[str, Any]:
    """The results of ``user_id`` in a tournament annulled (a player found to have had
    computer assistance; docs/tournaments.md, "Annulment"), in one transaction with the
    tournament locked: its entrant is removed (not paired again) and its score is 0;
    each pairing it won is scored for its opponent instead (``settled_by``
    ``annulled``; an arena's opponent gains a single win's points, a Swiss's or a
    knock-out's a win), its standings follow (the tie-breaks are read from the
    pairings). A knock-out's bracket already played on is not replayed. Logged as an
    ``annulled`` event with each pairing's former winner and what the entrant had, which
    :func:`standings_restore` undoes; what it changed is answered."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entrant = _locked_entrant(tournament, user_id)
        won = list(Pairing.objects.select_for_update(of=("self",))
                   .select_related("black__user", "white__user")
                   .filter(tournament=tournament, winner=entrant, black__isnull=False,
                           finished_at__isnull=False).order_by("finished_at", "id"))
        changed = []
        for found in won:
            assert found.black is not None
            other = found.black if found.white_id == entrant.pk else found.white
            points = (pairing.arena_points(won=True, worth=1, streak_before=0)
                      if tournament.system == System.ARENA else 1)
            changed.append({"match": found.match_id, "was": entrant.user.username,
                            "now": other.user.username, "pairing": found.pk,
                            "settled_by": found.settled_by, "points": points})
            found.winner, found.settled_by = other, "annulled"
            found.save(update_fields=["winner", "settled_by"])
            other.score += points
            other.wins += 1
            other.save(update_fields=["score", "wins"])
        had = {"score_before": entrant.score, "wins_before": entrant.wins,
               "streak_before": entrant.streak, "removed_before": entrant.removed}
        entrant.score, entrant.wins, entrant.streak, entrant.removed = 0.0, 0, 0, True
        entrant.save(update_fields=["score", "wins", "streak", "removed"])
        _log(tournament, "annulled", username=entrant.user.username, entrant=entrant.pk,
             reason=reason, pairings=changed, **had)
        _standings_follow(tournament)
    return {"tournament": tournament_id, "score_before": had["score_before"],
            "pairings": changed}


def standings_restore(*, tournament_id: int, user_id: int, reason: str) -> dict[str, Any]:
    """Undo the last :func:`standings_annul` of ``user_id`` in a tournament (the
    annulment was overturned on appeal; docs/tournaments.md, "Annulment"), in one
    transaction with the tournament locked: each pairing the annulment gave its opponent
    (and still so scored) is the entrant's again, with how it had been settled, the
    opponent losing the points it gained; the entrant has its score, wins, streak and
    place in the pairing back, and the standings follow. Logged as a ``restored`` event;
    what it changed is answered (``restored: false`` when there was no annulment to
    undo)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entrant = _locked_entrant(tournament, user_id)
        events = list(TournamentEvent.objects.filter(
            tournament=tournament, type__in=("annulled", "restored"),
            data__entrant=entrant.pk).order_by("-seq")[:1])
        if not events or events[0].type != "annulled":
            return {"tournament": tournament_id, "restored": False, "pairings": []}
        annulled = events[0].data
        back = []
        for done in annulled.get("pairings", ()):
            found = (Pairing.objects.select_for_update(of=("self",))
                     .select_related("white__user", "black__user")
                     .filter(pk=done.get("pairing"), tournament=tournament,
                             settled_by="annulled").first())
            if found is None or found.black is None:
                continue
            other = found.black if found.white_id == entrant.pk else found.white
            if found.winner_id != other.pk:
                continue
            other = Entrant.objects.select_for_update().get(pk=other.pk)
            found.winner, found.settled_by = entrant, done.get("settled_by") or "played"
            found.save(update_fields=["winner", "settled_by"])
            other.score -= done.get("points", 1)
            other.wins = max(0, other.wins - 1)
            other.save(update_fields=["score", "wins"])
            back.append({"match": found.match_id, "was": other.user.username,
                         "now": entrant.user.username})
        entrant.score = annulled.get("score_before", 0.0)
        entrant.wins = annulled.get("wins_before", 0)
        entrant.streak = annulled.get("streak_before", 0)
        entrant.removed = annulled.get("removed_before", False)
        entrant.save(update_fields=["score", "wins", "streak", "removed"])
        _log(tournament, "restored", username=entrant.user.username, entrant=entrant.pk,
             reason=reason, score=entrant.score, pairings=back)
        _standings_follow(tournament)
    return {"tournament": tournament_id, "restored": True, "score": entrant.score,
            "pairings": back}


def _standings_follow(tournament: Tournament) -> None:
    """After scores changed outside a round: a running tournament goes on (pairing what it
    can), a finished one logs its standings again (the caller holds the lock)."""
    if tournament.status == Status.STARTED:
        _after_change(tournament, timezone.now())
    else:
        _log_standings(tournament)
    _save(tournament)


# --- what the clock brings: a start time, an arena's end ----------------------------------


def tournament_tick(*, tournament_id: int) -> None:
    """Start a tournament whose start time has come (when it has two players; otherwise
    it waits for them) and finish an arena whose time is over. Called by the reads of a
    tournament and by ``manage.py tournaments_tick``; nothing sleeps per tournament."""
    now = timezone.now()
    found = Tournament.objects.filter(pk=tournament_id).values(
        "status", "starts_at", "ends_at").first()
    if found is None:
        return
    if (found["status"] == Status.CREATED and found["starts_at"] is not None
            and found["starts_at"] <= now):
        # Fewer than two players: it waits; or someone started it meanwhile.
        with contextlib.suppress(InvalidRequest, TournamentStarted, TournamentFinished):
            tournament_start(tournament_id=tournament_id, user=None)
    elif (found["status"] == Status.STARTED and found["ends_at"] is not None
            and found["ends_at"] <= now):
        with transaction.atomic():
            tournament = _locked(tournament_id)
            if tournament.status == Status.STARTED:
                _finish(tournament, now, reason="time")
                _save(tournament)


def tournaments_due() -> list[int]:
    """The ids :func:`tournament_tick` has something to do for now."""
    now = timezone.now()
    starting = Tournament.objects.filter(status=Status.CREATED, starts_at__lte=now)
    ending = Tournament.objects.filter(status=Status.STARTED, ends_at__lte=now)
    return sorted({*starting.values_list("pk", flat=True), *ending.values_list("pk", flat=True)})


# --- a match's end -----------------------------------------------------------------------


def _worth(rules: str, result: str) -> int:
    kinds = {kind.name: kind.points for kind in RULESETS[rules].descriptor.results} if (
        rules in RULESETS) else {}
    return kinds.get(result, 1)


def pairing_settle(*, match_id: int, events: Sequence[Event] = ()) -> None:
    """The pairing of a match that has ended: its result, the players' scores, then
    what follows (an arena pairs again; the last match of a round starts the next round
    or finishes the tournament). A pairing already settled (an arena's at its end) is
    left alone."""
    with transaction.atomic():
        tournament_id = Match.objects.values_list("tournament_id", flat=True).get(pk=match_id)
        if tournament_id is None:
            return
        tournament = _locked(tournament_id)
        found = (Pairing.objects.select_for_update(of=("self",))
                 .select_related("white__user", "black__user")
                 .filter(match_id=match_id, finished_at=None).first())
        if found is None:
            return
        match = Match.objects.select_related("current_game").get(pk=match_id)
        now = timezone.now()
        present = _present_side(match)
        if match.status == MatchStatus.ABORTED and present is not None:
            # Abandoned before the first turn (games aborts it): the one who rolled off
            # was there, the other was absent at pairing time and forfeits.
            winner = found.white if (match.white_id == found.white.user_id) == (
                present == "white") else found.black
            _settle(tournament, found, winner, now, settled_by="forfeit")
        elif match.status == MatchStatus.ABORTED or not match.winner:
            _settle(tournament, found, None, now, settled_by="aborted")
        else:
            over = next((e for e in events if e.type == "match_over"), None)
            last_game = [e for e in events if e.type == "game_over"]
            result = last_game[-1].data.get("result", "single") if last_game else "single"
            abandoned = over is not None and over.data.get("reason") == "abandoned"
            winner = found.white if (match.white_id == found.white.user_id) == (
                match.winner == "white") else found.black
            _settle(tournament, found, winner, now,
                    settled_by="forfeit" if abandoned else "played",
                    worth=1 if abandoned else _worth(match.rules, result),
                    points=(match.score_white, match.score_black))
        if tournament.status == Status.STARTED:
            _after_change(tournament, now)
        _save(tournament)


def _present_side(match: Match) -> str | None:
    """Of a match aborted as abandoned in its first roll-off, the one side that rolled."""
    game = match.current_game
    if game is None or game.number != 1:
        return None
    rolled = [side for side, die in (("white", game.rolloff_white),
                                     ("black", game.rolloff_black)) if die is not None]
    return rolled[0] if len(rolled) == 1 else None


def _settle(tournament: Tournament, found: Pairing, winner: Entrant | None, now: datetime, *,
            settled_by: str, worth: int = 1, points: tuple[int, int] = (0, 0)) -> None:
    """Record a pairing's result and score it for the system (the arena's points, a
    match point in a Swiss, a win in a knock-out)."""
    found.winner, found.settled_by, found.finished_at = winner, settled_by, now
    found.white_points, found.black_points = points
    found.save()
    sides = [found.white] + ([found.black] if found.black is not None else [])
    for entrant, mine in zip(sides, (points[0], points[1]), strict=False):
        won = winner is not None and entrant.pk == winner.pk
        if tournament.system == System.ARENA:
            gained = pairing.arena_points(won=won, worth=worth, streak_before=entrant.streak)
            entrant.streak = entrant.streak + 1 if won else 0
        else:
            gained = 1 if won else 0
        entrant.score += gained
        entrant.points += mine
        entrant.played += 1
        entrant.wins += int(won)
        if tournament.system == System.KNOCKOUT and not won and not found.third_place:
            entrant.eliminated_in = tournament.round
        entrant.save()
    over = {"match": found.match_id, "round": tournament.round,
            "winner": _username(winner) if winner is not None else None,
            "settled_by": settled_by}
    _log(tournament, "match_over", **over)


def _after_change(tournament: Tournament, now: datetime) -> None:
    """What follows a settled pairing, a withdrawal or a removal."""
    if tournament.system == System.ARENA:
        if tournament.ends_at is not None and now >= tournament.ends_at:
            _finish(tournament, now, reason="time")
        else:
            _arena_pair(tournament, now)
        _log_standings(tournament)
        return
    if Pairing.objects.filter(tournament=tournament, finished_at=None).exists():
        _log_standings(tournament)
        return
    Round.objects.filter(tournament=tournament, number=tournament.round).update(
        finished_at=now)
    if tournament.system == System.SWISS:
        assert tournament.rounds is not None
        active = tournament.entrants.filter(withdrawn=False, removed=False).count()
        if tournament.round >= tournament.rounds or active < 2:
            _finish(tournament, now, reason="rounds")
        else:
            _log_standings(tournament)
            _swiss_round(tournament, now)
    else:
        _knockout_next_round(tournament, now)


def _log_standings(tournament: Tournament) -> None:
    top = (Entrant.objects.filter(tournament=tournament).select_related("user")
           .order_by("-score", "-rating", "id")[:10])
    _log(tournament, "standings",
         top=[{"username": e.user.username, "score": e.score} for e in top])


def _finish(tournament: Tournament, now: datetime, *, reason: str) -> None:
    """The end: an arena's unfinished matches are settled for it by the score
    (docs/tournaments.md: the one ahead wins the match's points as for a single win;
    level, neither scores) — the matches themselves play on; a Swiss's tie-breaks are
    final."""
    if tournament.system == System.ARENA and not tournament.cancelled:
        open_ = (Pairing.objects.select_for_update(of=("self",))
                 .select_related("match", "white", "black")
                 .filter(tournament=tournament, finished_at=None))
        for found in open_:
            match = found.match
            assert match is not None and found.black is not None
            white_first = match.white_id == found.white.user_id
            mine = (match.score_white, match.score_black) if white_first else (
                match.score_black, match.score_white)
            winner = (found.white if mine[0] > mine[1]
                      else found.black if mine[1] > mine[0] else None)
            _settle(tournament, found, winner, now, settled_by="arena_end", points=mine)
    tournament.status, tournament.finished_at = Status.FINISHED, now
    _log_standings(tournament)
    _log(tournament, "finished", reason=reason, cancelled=tournament.cancelled)


# --- starting matches --------------------------------------------------------------------


def _options(tournament: Tournament) -> MatchOptions:
    return MatchOptions(length=tournament.length, rules=tournament.rules,
                        stakes=tournament.stakes,
                        turn_seconds=(tournament.turn_seconds
                                      or settings.TOURNAMENT_DEFAULT_TURN_SECONDS),
                        rated=None if tournament.rated else False)


def _new_round(tournament: Tournament) -> Round:
    tournament.round += 1
    return Round.objects.create(tournament=tournament, number=tournament.round)


def _pair(tournament: Tournament, round_: Round, white: Entrant, black: Entrant, *,
          slot: int = 0, third_place: bool = False) -> Pairing:
    """Start one match of the tournament (the one way: match_start) and its pairing."""
    match = match_start(created_by=tournament.created_by, options=_options(tournament),
                        white=white.user, black=black.user,
                        context={"tournament": tournament.pk, "round": round_.number})
    white.whites += 1
    black.whites -= 1
    Entrant.objects.filter(pk=white.pk).update(whites=white.whites)
    Entrant.objects.filter(pk=black.pk).update(whites=black.whites)
    found = Pairing.objects.create(tournament=tournament, round=round_, white=white,
                                   black=black, match=match, slot=slot,
                                   third_place=third_place)
    _log(tournament, "paired", match=match.pk, round=round_.number,
         white=white.user.username, black=black.user.username)
    return found


def _bye(tournament: Tournament, round_: Round, entrant: Entrant, now: datetime, *,
         slot: int = 0, walkover: bool = False) -> None:
    """A bye (Swiss: a point, once a player while it can be; knock-out: through to the
    next round) or a walkover (the opponent withdrew)."""
    Pairing.objects.create(tournament=tournament, round=round_, white=entrant, black=None,
                           slot=slot, winner=entrant, finished_at=now,
                           settled_by="walkover" if walkover else "bye")
    entrant.score += 1
    entrant.byes += 0 if walkover else 1
    entrant.save(update_fields=["score", "byes"])
    _log(tournament, "bye", round=round_.number, username=entrant.user.username)


def _arena_pair(tournament: Tournament, now: datetime) -> None:
    """Pair the arena's waiting players (present, not paused, not playing)."""
    if tournament.ends_at is not None and now >= tournament.ends_at:
        return
    busy: set[int | None] = set()
    for white_id, black_id in Pairing.objects.filter(tournament=tournament,
                                                     finished_at=None).values_list(
            "white_id", "black_id"):
        busy.update((white_id, black_id))
    waiting = [e for e in tournament.entrants.select_related("user")
               .filter(withdrawn=False, removed=False, paused=False) if e.pk not in busy]
    if len(waiting) < 2:
        return
    recent: dict[int, list[int]] = {}
    for white_id, black_id in (Pairing.objects.filter(tournament=tournament)
                               .exclude(black=None).order_by("-id")
                               .values_list("white_id", "black_id")[:2000]):
        recent.setdefault(white_id, []).append(black_id)
        recent.setdefault(black_id, []).append(white_id)
    players = [pairing.ArenaPlayer(e.pk, e.score, e.rating, tuple(recent.get(e.pk, ())[:3]))
               for e in waiting]
    pairs = pairing.arena_pairs(players)
    if not pairs:
        return
    by_id = {e.pk: e for e in waiting}
    round_ = _new_round(tournament)
    for a, b in pairs:
        first, second = by_id[a], by_id[b]
        white, black = (first, second) if first.whites <= second.whites else (second, first)
        _pair(tournament, round_, white, black)


def _swiss_round(tournament: Tournament, now: datetime) -> None:
    entrants = list(tournament.entrants.select_related("user")
                    .filter(withdrawn=False, removed=False))
    opponents_of: dict[int, set[int]] = {}
    last: dict[int, int] = {}
    for white_id, black_id in (Pairing.objects.filter(tournament=tournament)
                               .exclude(black=None).order_by("id")
                               .values_list("white_id", "black_id")):
        opponents_of.setdefault(white_id, set()).add(black_id)
        opponents_of.setdefault(black_id, set()).add(white_id)
        last[white_id], last[black_id] = 1, -1
    players = [pairing.SwissPlayer(e.pk, e.score, e.rating, e.whites, last.get(e.pk, 0),
                                   e.byes, frozenset(opponents_of.get(e.pk, ())))
               for e in entrants]
    round_ = _new_round(tournament)
    _log(tournament, "round", round=round_.number)
    made = pairing.swiss_round(players, round_.number)
    by_id = {e.pk: e for e in entrants}
    if made.bye is not None:
        _bye(tournament, round_, by_id[made.bye], now)
    for white, black in made.pairs:
        _pair(tournament, round_, by_id[white], by_id[black])
    if not made.pairs:  # one player left: nothing to play
        Round.objects.filter(pk=round_.pk).update(finished_at=now)
        _finish(tournament, now, reason="rounds")


def _knockout_first_round(tournament: Tournament, entrants: list[Entrant],
                          now: datetime) -> None:
    seeded = sorted(entrants, key=lambda e: (-e.rating, e.joined_at, e.pk))
    by_id = {e.pk: e for e in seeded}
    round_ = _new_round(tournament)
    _log(tournament, "round", round=1)
    for slot, (a, b) in enumerate(pairing.knockout_first_round([e.pk for e in seeded])):
        if b is None:
            _bye(tournament, round_, by_id[a], now, slot=slot)
        else:
            _pair(tournament, round_, by_id[a], by_id[b], slot=slot)
    _after_byes(tournament, now)


def _after_byes(tournament: Tournament, now: datetime) -> None:
    """A round made only of byes and walkovers is over at once."""
    if not Pairing.objects.filter(tournament=tournament, finished_at=None).exists():
        _after_change(tournament, now)


def _knockout_next_round(tournament: Tournament, now: datetime) -> None:
    done = list(Pairing.objects.select_related("winner__user", "white", "black")
                .filter(tournament=tournament, round__number=tournament.round)
                .order_by("slot"))
    main = [p for p in done if not p.third_place]
    winners = [p.winner for p in main]
    if len(main) <= 1 or not any(w is not None and w.active for w in winners):
        _finish(tournament, now, reason="final")
        return
    round_ = _new_round(tournament)
    _log(tournament, "round", round=round_.number)
    for slot in range(0, len(winners), 2):
        a, b = winners[slot], winners[slot + 1] if slot + 1 < len(winners) else None
        if a is None or b is None or not a.active or not b.active:
            through = next((x for x in (a, b) if x is not None and x.active), None)
            for out in (a, b):  # a withdrawn or removed player goes out here
                if out is not None and not out.active:
                    Entrant.objects.filter(pk=out.pk).update(eliminated_in=round_.number)
            if through is not None:
                _bye(tournament, round_, through, now, slot=slot // 2, walkover=True)
            elif (gone := a or b) is not None:  # both gone: the slot goes on empty
                Pairing.objects.create(tournament=tournament, round=round_,
                                       white=gone, black=None, slot=slot // 2,
                                       winner=None, finished_at=now, settled_by="walkover")
            continue
        _pair(tournament, round_, a, b, slot=slot // 2)
    if len(main) == 2 and tournament.third_place:
        losers = [p.black if p.winner_id == p.white_id else p.white for p in main]
        if all(x is not None and x.active for x in losers):
            third_a, third_b = losers
            assert third_a is not None and third_b is not None
            _pair(tournament, round_, third_a, third_b, slot=1, third_place=True)
    _after_byes(tournament, now)
