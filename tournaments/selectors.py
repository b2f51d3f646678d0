"""Reads of tournaments/: the list, one tournament with its standings (ranked with their
tie-breaks) and matches, its event log."""

from __future__ import annotations

from typing import Any

from games import opponents
from games.models import MatchStatus
from tournaments import pairing, shapes
from tournaments.models import Entrant, Entry, Pairing, Status, System, Tournament
from tournaments.models import TournamentEvent as EventRow

LIST_SIZE = 50


def tournament_get(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()


def summary(t: Tournament, players: int) -> shapes.Summary:
    return {"id": t.pk, "name": t.name, "system": t.system,  # type: ignore[typeddict-item]
            "rules": t.rules, "length": t.length, "stakes": t.stakes, "rated": t.rated,
            "turn_seconds": t.turn_seconds, "minutes": t.minutes, "rounds": t.rounds,
            "third_place": t.third_place, "starts_at": t.starts_at, "ends_at": t.ends_at,
            "max_players": t.max_players, "players": players,
            "entry": t.entry,  # type: ignore[typeddict-item]
            "allow_computer": t.allow_computer, "featured": t.featured,
            "cancelled": t.cancelled, "status": t.status,  # type: ignore[typeddict-item]
            "round": t.round, "created_by": t.created_by.username, "created_at": t.created_at,
            "started_at": t.started_at, "finished_at": t.finished_at}


def tournament_list() -> shapes.TournamentList:
    """The listed tournaments (entry ``open``): upcoming and running all (featured first,
    then by start), the last :data:`LIST_SIZE` finished."""
    listed = Tournament.objects.filter(entry=Entry.OPEN).select_related("created_by")
    out: dict[str, list[shapes.Summary]] = {}
    for key, status, order in (("upcoming", Status.CREATED, ("-featured", "starts_at", "id")),
                               ("running", Status.STARTED, ("-featured", "started_at", "id")),
                               ("finished", Status.FINISHED, ("-finished_at", "-id"))):
        rows = list(listed.filter(status=status).order_by(*order)[:LIST_SIZE * 4])
        counts = _player_counts([t.pk for t in rows])
        out[key] = [summary(t, counts.get(t.pk, 0)) for t in rows]
    return {"upcoming": out["upcoming"], "running": out["running"],
            "finished": out["finished"][:LIST_SIZE]}


def _player_counts(ids: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for tid in (Entrant.objects.filter(tournament_id__in=ids, withdrawn=False, removed=False)
                .values_list("tournament_id", flat=True)):
        counts[tid] = counts.get(tid, 0) + 1
    return counts


def _ranked(t: Tournament, entrants: list[Entrant],
            pairings: list[Pairing]) -> list[shapes.Standing]:
    """The standings: Swiss by score, Buchholz, Sonneborn–Berger, game points, seed;
    an arena by score, then rating; a knock-out by how far each went (the final's
    winner first, then its loser, the third-place match's winner, …), then seed."""
    scores = {e.pk: e.score for e in entrants}
    played: dict[int, list[int]] = {}
    beaten: dict[int, list[int]] = {}
    for p in pairings:
        if p.black_id is None or p.finished_at is None:
            continue
        played.setdefault(p.white_id, []).append(p.black_id)
        played.setdefault(p.black_id, []).append(p.white_id)
        if p.winner_id is not None:
            loser = p.black_id if p.winner_id == p.white_id else p.white_id
            beaten.setdefault(p.winner_id, []).append(loser)
    rows = []
    for e in entrants:
        bh = pairing.buchholz(played.get(e.pk, []), scores)
        sb = pairing.sonneborn_berger(beaten.get(e.pk, []), scores)
        rows.append((e, bh, sb))
    if t.system == System.SWISS:
        def key(row: tuple[Entrant, float, float]) -> tuple[Any, ...]:
            e, bh, sb = row
            return (-e.score, -bh, -sb, -e.points, -e.rating, e.pk)
    elif t.system == System.ARENA:
        def key(row: tuple[Entrant, float, float]) -> tuple[Any, ...]:
            e = row[0]
            return (-e.score, -e.wins, -e.rating, e.pk)
    else:
        third = {p.winner_id: 0 for p in pairings if p.third_place and p.winner_id}

        def key(row: tuple[Entrant, float, float]) -> tuple[Any, ...]:
            e = row[0]
            reached = e.eliminated_in if e.eliminated_in is not None else 10**4
            return (-reached, -third.get(e.pk, -1), -e.rating, e.pk)
    rows.sort(key=key)
    return [{"rank": rank, "username": e.user.username, "computer": opponents.level_of(e.user),
             "score": e.score, "buchholz": bh, "sonneborn_berger": sb, "points": e.points,
             "played": e.played, "wins": e.wins, "streak": e.streak,
             "rating": round(e.rating, 1), "paused": e.paused,
             "withdrawn": e.withdrawn or e.removed, "eliminated_in": e.eliminated_in}
            for rank, (e, bh, sb) in enumerate(rows, start=1)]


def _match_json(p: Pairing, names: dict[int, str]) -> shapes.TournamentMatch:
    match = p.match
    return {"id": p.match_id, "white": names[p.white_id],
            "black": names[p.black_id] if p.black_id is not None else None,
            "status": match.status if match is not None else MatchStatus.FINISHED,
            "round": p.round.number, "slot": p.slot, "third_place": p.third_place,
            "winner": names[p.winner_id] if p.winner_id is not None else None,
            "settled_by": p.settled_by,
            "score": {"white": p.white_points, "black": p.black_points}}


def tournament_json(t: Tournament, viewer: Any = None) -> shapes.Tournament:
    entrants = list(Entrant.objects.filter(tournament=t).select_related("user"))
    pairings = list(Pairing.objects.filter(tournament=t).select_related("round", "match")
                    .order_by("round__number", "slot", "id"))
    names = {e.pk: e.user.username for e in entrants}
    standings = _ranked(t, entrants, pairings)
    viewer_id = getattr(viewer, "pk", None)
    viewer_name = getattr(viewer, "username", None) if viewer_id is not None else None
    mine = next((row for row in standings if row["username"] == viewer_name), None)
    sees_code = viewer_id is not None and (viewer_id == t.created_by_id
                                           or getattr(viewer, "is_staff", False))
    active = sum(1 for e in entrants if e.active)
    return {**summary(t, active),  # type: ignore[typeddict-item]
            "code": t.code if sees_code and t.code else None, "me": mine,
            "standings": standings, "matches": [_match_json(p, names) for p in pairings],
            "last_event": t.last_event_seq}


def event_list(tournament_id: int, after: int, limit: int = 200) -> list[shapes.TournamentEvent]:
    rows = (EventRow.objects.filter(tournament_id=tournament_id, seq__gt=after)
            .order_by("seq")[:limit])
    return [{"seq": r.seq, "type": r.type, "data": r.data, "at": r.at} for r in rows]
