"""A tournament's chat room: the ``tournament`` kind of chat's rooms
(:mod:`chat.rooms`), registered by :class:`tournaments.apps.TournamentsConfig`.

One room, ``main``: anyone who may see the tournament reads it; any signed-in account
writes in it until the tournament is finished (then 409 ``chat_closed``), under chat's
own rules (its options, time-outs, panic mode, guests kept out of public rooms, the word
filter). Each line is also a ``chat`` event of the tournament's log and stream.
"""

from __future__ import annotations

from typing import Any

from chat import rooms
from chat.exceptions import ChatClosed
from tournaments import selectors, services
from tournaments.models import Status, Tournament

KIND = "tournament"
MAIN = "main"


def _may_read(viewer: Any, tournament: Tournament, room: str) -> bool:
    return True


def _may_write(user: Any, tournament: Tournament, room: str) -> None:
    if tournament.status == Status.FINISHED:
        raise ChatClosed(details={"status": tournament.status})


def _log(tournament: Tournament, line: Any) -> int | None:
    return services.tournament_log_chat(tournament_id=tournament.pk, line_id=line.pk,
                                        by=line.author.username, text=line.text,
                                        plain_links=line.plain_links)


def register() -> None:
    rooms.register(KIND, rooms=(MAIN,), find=selectors.tournament_get, may_read=_may_read,
                   may_write=_may_write, log=_log)
