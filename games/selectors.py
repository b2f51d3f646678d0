"""Reads: what clients, the admin and the stats see. No writes here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import username_key
from games import store
from games.engine import WHITE, Position, Side, side_name
from games.models import Event, Game, GamePhase, Match, MatchStatus, Turn, side_of


def match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related("white", "black", "invited", "current_game")


def match_list(*, status: str | None = None, player: str | None = None) -> QuerySet[Match]:
    matches = match_queryset()
    if status:
        matches = matches.filter(status=status)
    if player:
        key = username_key(player)
        matches = matches.filter(Q(white__username_key=key) | Q(black__username_key=key)
                                 | Q(invited__username_key=key))
    return matches.order_by("-created_at", "-id")


def match_get(match_id: int) -> Match | None:
    """One match with its players, current game and turn (one hand-written query)."""
    return store.read_match(match_id)


def board_json(position: Position, perspective: Side) -> dict[str, Any]:
    """The API's board shape in ``perspective``'s own numbering (R33)."""
    counts = position.in_perspective(perspective)
    return {
        "perspective": side_name(perspective),
        "points": {str(p): counts[p] for p in sorted(counts, reverse=True)},
        "off": {"mine": position.off_of(perspective),
                "theirs": position.off_of(1 - perspective)},
    }


def default_perspective(match: Match, game: Game | None, viewer: Any) -> Side:
    """The asking player's colour; the side to move in hotseat; White for others."""
    sides = match.sides_of(viewer)
    if len(sides) == 1:
        return sides[0]
    if len(sides) == 2 and game is not None and game.turn:
        return side_of(game.turn)
    return WHITE


def match_state(match: Match, viewer: Any,
                perspective: Side | None = None) -> dict[str, Any] | None:
    game = match.current_game
    if game is None:
        return None
    if perspective is None:
        perspective = default_perspective(match, game, viewer)
    turn_state = game.turn_state() if match.status == MatchStatus.ACTIVE else None
    legal: list[dict[str, int]] = []
    head = 0
    if turn_state is not None:
        head = turn_state.head_may_leave()
        if turn_state.side in match.sides_of(viewer):
            legal = [{"from": s.src, "to": s.dst, "die": s.die}
                     for s in turn_state.legal_steps()]
    phase = GamePhase.FINISHED if match.status == MatchStatus.FINISHED else game.phase
    return {
        "game": game.number,
        "phase": phase,
        "turn": game.turn or None,
        "dice": game.dice,
        "dice_left": game.dice_left,
        "head_may_leave": head,
        "board": board_json(game.position, perspective),
        "legal_steps": legal,
        "version": match.version,
        "roll_off": {"white": game.rolloff_white, "black": game.rolloff_black},
        "first_turn": {"white": game.white_first_turn, "black": game.black_first_turn},
        "turn_number": game.turns,
        "position_id": game.position.to_id(),
    }


def match_json(match: Match, viewer: Any, perspective: Side | None = None) -> dict[str, Any]:
    def name(user: Any) -> str | None:
        return user.username if user is not None else None

    return {
        "id": match.pk,
        "white": name(match.white),
        "black": name(match.black),
        "invited": name(match.invited),
        "hotseat": match.hotseat,
        "length": match.length,
        "score": {"white": match.score_white, "black": match.score_black},
        "status": match.status,
        "winner": match.winner or None,
        "version": match.version,
        "rematch_of": match.rematch_of_id,
        "created_at": match.created_at,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "state": match_state(match, viewer, perspective),
    }


def game_list(match: Match) -> QuerySet[Game]:
    return match.games.order_by("number")


def game_json(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "starter": game.starter or None,
        "winner": game.winner or None,
        "points": game.points_won,
        "mars": game.mars,
        "end_reason": game.end_reason or None,
        "turns": game.turns,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def turn_list(game: Game) -> QuerySet[Turn]:
    return game.turn_records.order_by("number")


def turn_json(turn: Turn) -> dict[str, Any]:
    steps = turn.steps
    return {
        "number": turn.number,
        "side": turn.side,
        "dice": turn.dice,
        "steps": steps,
        "notation": " ".join(f"{s['from']}/{s['to'] or 'off'}" for s in steps),
        "passed": bool(turn.pass_reason),
        "pass_reason": turn.pass_reason or None,
        "position_after": turn.position_after or None,
        "started_at": turn.started_at,
        "finished_at": turn.finished_at,
    }


def event_list(match: Match, *, after: int = 0, limit: int | None = None) -> QuerySet[Event]:
    events = match.events.filter(seq__gt=after).order_by("seq")
    return events[:limit] if limit is not None else events


def event_json(event: Event) -> dict[str, Any]:
    return {"seq": event.seq, "type": event.type, "at": event.at, "data": event.data}


# --- player statistics (named in settings.PLAYER_STATS_SELECTOR) ------------------------


def player_stats(users: Iterable[Any]) -> dict[int, dict[str, int]]:
    """Stats from finished games and matches; hotseat matches (one account) do not count."""
    ids = [u.pk for u in users]
    stats: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(
        ("matches_played", "matches_won", "games_won", "games_lost", "mars_won", "mars_lost"),
        0))
    seats = Q(white_id__in=ids) | Q(black_id__in=ids)
    matches = (Match.objects.filter(seats, status=MatchStatus.FINISHED, hotseat=False)
               .values("white_id", "black_id", "winner").annotate(n=Count("id")))
    for row in matches:
        for color, user_id in (("white", row["white_id"]), ("black", row["black_id"])):
            if user_id in ids:
                stats[user_id]["matches_played"] += row["n"]
                if row["winner"] == color:
                    stats[user_id]["matches_won"] += row["n"]
    game_seats = Q(match__white_id__in=ids) | Q(match__black_id__in=ids)
    games = (Game.objects.filter(game_seats, match__hotseat=False).exclude(winner="")
             .values("match__white_id", "match__black_id", "winner", "mars")
             .annotate(n=Count("id")))
    for row in games:
        for color, user_id in (("white", row["match__white_id"]),
                               ("black", row["match__black_id"])):
            if user_id not in ids:
                continue
            won = row["winner"] == color
            stats[user_id]["games_won" if won else "games_lost"] += row["n"]
            if row["mars"]:
                stats[user_id]["mars_won" if won else "mars_lost"] += row["n"]
    return dict(stats)
