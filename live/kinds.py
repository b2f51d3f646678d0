"""What an account hears on its own stream (``GET stream/``): the kinds and their data.

Each kind is a function of one committed change — the match as it is after the change
and the events the change logged — yielding ``(user id, kind, data)``; a new kind is one
more function in :data:`KINDS`. :func:`pending` answers the same
kinds from the database for a stream that (re)connects: what waits for the account now.

Every item's data carries ``type`` (its kind), ``match`` (its id) and ``version`` (the
match version after the change), so a client can tell a repeat (an item of a version it
has seen) from news; :mod:`live.shapes` has each kind's shape.

One more source is not a match: ``notice`` (:func:`notice_items`), an account's notice
made by any module through ``accounts.services.notice_create``, heard after its commit
(``accounts.notices``). Its data is the notice as ``accounts/me/notifications/`` lists
it; a stream tells news from repeats by its ``id`` (:func:`stamp`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from django.db.models import Q

from accounts.models import Notice
from accounts.notices import notice_json
from accounts.selectors import unread_notices
from games.models import Color, Event, GamePhase, Match, MatchStatus, color_of, side_of
from nardy import BLACK, WHITE, other

Item = tuple[int, str, dict[str, Any]]
Kind = Callable[[Match, Sequence[Event]], Iterable[Item]]


def _players(match: Match) -> set[int]:
    return {uid for uid in (match.white_id, match.black_id) if uid is not None}


def _colour_of(match: Match, user_id: int) -> str | None:
    """The colour ``user_id`` plays (White first in hotseat), or ``None``."""
    sides = [side for side in (WHITE, BLACK) if match.player_id(side) == user_id]
    return color_of(sides[0]) if sides else None


def invitation(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``invitation``: someone invited this account to a match (a rematch too)."""
    for event in events:
        if event.type == "match_created" and match.invited_id is not None:
            yield match.invited_id, "invitation", _invitation_data(match, event.data.get("by"))


def _invitation_data(match: Match, by: str | None) -> dict[str, Any]:
    assert match.invited_id is not None
    return {"match": match.pk, "version": match.version, "by": by, "length": match.length,
            "color": _colour_of(match, match.invited_id),
            "rematch_of": match.rematch_of_id}


def your_turn(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``your_turn``: this account is to act — roll its turn, or roll in a roll-off.

    Sent when a turn starts (the game is in its ``roll`` phase after every change that
    starts one) and when a roll-off starts or is tied; never in hotseat matches (one
    account at one screen)."""
    game = match.current_game
    if match.hotseat or match.status != MatchStatus.ACTIVE or game is None:
        return
    if game.phase == GamePhase.ROLL:
        user_id = match.player_id(side_of(game.turn))
        if user_id is not None:
            yield user_id, "your_turn", _turn_data(match, game.number, "roll", game.turn)
    elif game.phase == GamePhase.ROLL_OFF and any(
            e.type == "game_start" or (e.type == "roll_off" and e.data.get("result") == "tie")
            for e in events):
        for side in (WHITE, BLACK):
            user_id = match.player_id(side)
            if user_id is not None:
                yield user_id, "your_turn", _turn_data(match, game.number, "roll-off",
                                                       color_of(side))


def _turn_data(match: Match, game: int, phase: str, colour: str) -> dict[str, Any]:
    return {"match": match.pk, "version": match.version, "game": game, "phase": phase,
            "color": colour}


def results(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``game_over`` and ``match_over`` of the account's matches, with the event's data."""
    for event in events:
        if event.type in ("game_over", "match_over"):
            for user_id in _players(match):
                yield user_id, event.type, {"match": match.pk, "version": match.version,
                                            **event.data}


def offer(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``offer``: the opponent offers to raise the stake (S3); this account must answer."""
    for event in events:
        if event.type == "offer":
            answering = match.player_id(other(side_of(event.data["side"])))
            if answering is not None and not match.hotseat:
                yield answering, "offer", {"match": match.pk, "version": match.version,
                                           **event.data}


def resign_offer(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``resign_offer``: the opponent offers to resign the game with a result; this account
    must accept or refuse it."""
    for event in events:
        if event.type == "resign_offer":
            answering = match.player_id(other(side_of(event.data["side"])))
            if answering is not None and not match.hotseat:
                yield answering, "resign_offer", {"match": match.pk,
                                                  "version": match.version, **event.data}


def deadline(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``deadline``: this account's clock runs out soon — act before ``deadline`` or the
    opponent may claim the game."""
    for event in events:
        if event.type == "deadline":
            late = match.player_id(side_of(event.data["side"]))
            if late is not None:
                yield late, "deadline", {"match": match.pk, "version": match.version,
                                         **event.data}


def paired(match: Match, events: Sequence[Event]) -> Iterator[Item]:
    """``paired``: quick pairing (``POST pairing/``) or a tournament's round made this
    account's match (``tournament``: its id, else ``null``); its ``your_turn`` follows."""
    for event in events:
        if event.type == "match_created" and (event.data.get("paired")
                                              or event.data.get("tournament")):
            for side in (WHITE, BLACK):
                user_id = match.player_id(side)
                if user_id is not None:
                    opponent = match.player(other(side))
                    yield user_id, "paired", {
                        "match": match.pk, "version": match.version, "rules": match.rules,
                        "length": match.length, "rated": match.rated,
                        "color": color_of(side),
                        "opponent": opponent.username if opponent is not None else None,
                        "tournament": event.data.get("tournament")}


KINDS: list[Kind] = [paired, invitation, your_turn, offer, resign_offer, deadline,
                     results]


def items(match: Match, events: Sequence[Event]) -> dict[int, list[tuple[str, dict[str, Any]]]]:
    """Every account's items for one committed change, in the order they happened."""
    by_user: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for kind in KINDS:
        for user_id, name, data in kind(match, events):
            by_user.setdefault(user_id, []).append((name, typed(name, data)))
    return by_user


NOTICES = 0
"""The key under which a stream counts the notices it sent (no match has id 0)."""
PENDING_NOTICES = 20
"""At most this many unread notices (the newest) are sent to a stream that connects."""


def notice_items(notice: Notice) -> Iterator[Item]:
    """``notice``: a new notice to this account (``accounts.notices``)."""
    yield notice.recipient_id, "notice", typed("notice", dict(notice_json(notice)))


def stamp(kind: str, data: dict[str, Any]) -> tuple[int, int]:
    """What tells an item from a repeat: ``(match, version)``, or for a notice
    ``(NOTICES, its id)``."""
    if kind == "notice":
        return NOTICES, data["id"]
    return data["match"], data["version"]


def typed(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """An item's data with its ``type`` first: its kind (as the SSE ``event:`` says), so a
    client that reads the data alone knows its shape (the schema's ``AccountEvent``)."""
    return {"type": kind, **data}


def pending(user_id: int) -> list[tuple[str, dict[str, Any]]]:
    """What waits for the account now: its unread notices (the newest
    ``PENDING_NOTICES``, oldest first), its open invitations, its turn in every active
    match where it is to act (``phase`` ``roll``, ``move`` or ``roll-off``), and every
    offer it must answer (``phase`` ``offer``, with the data of the ``offer`` event;
    ``resign``, with the data of the ``resign_offer`` event)."""
    found: list[tuple[str, dict[str, Any]]] = []
    found.extend(("notice", dict(notice_json(n)))
                 for n in unread_notices(user_id, PENDING_NOTICES))
    invited = (Match.objects.filter(status=MatchStatus.INVITED, invited_id=user_id)
               .select_related("created_by").order_by("id"))
    for match in invited:
        found.append(("invitation", _invitation_data(match, match.created_by.username)))
    active = (Match.objects.filter(Q(white_id=user_id) | Q(black_id=user_id),
                                   status=MatchStatus.ACTIVE, hotseat=False)
              .select_related("current_game").order_by("id"))
    for match in active:
        game = match.current_game
        if game is None:
            continue
        colour = _colour_of(match, user_id)
        if game.phase in (GamePhase.ROLL, GamePhase.MOVE) and game.turn == colour:
            found.append(("your_turn", _turn_data(match, game.number, game.phase, colour)))
        elif game.phase == GamePhase.OFFER and game.turn == colour:
            made = (Event.objects.filter(match=match, type="offer").order_by("-seq")
                    .values_list("data", flat=True).first())
            if made is not None:
                found.append(("offer", {"match": match.pk, "version": match.version, **made}))
        elif game.phase == GamePhase.RESIGN and game.turn == colour:
            made = (Event.objects.filter(match=match, type="resign_offer").order_by("-seq")
                    .values_list("data", flat=True).first())
            if made is not None:
                found.append(("resign_offer", {"match": match.pk, "version": match.version,
                                               **made}))
        elif game.phase == GamePhase.ROLL_OFF:
            mine = game.rolloff_white if colour == Color.WHITE else game.rolloff_black
            if mine is None and colour is not None:
                found.append(("your_turn", _turn_data(match, game.number, "roll-off", colour)))
    return [(kind, typed(kind, data)) for kind, data in found]
