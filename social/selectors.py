"""Reads of social: the players an account follows, each online or not and the active
matches it plays (to watch)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, TypedDict

from django.db.models import Q

from accounts.models import User
from accounts.selectors import following_of
from games import presence
from games.models import Match, MatchStatus
from nard_site.api.shapes import Doc


class Followed(TypedDict):
    """A player the account follows."""

    username: str
    display_name: str
    is_bot: bool
    online: Annotated[bool, Doc("Seen in the last 60 seconds (an API call or an open "
                                "stream).")]
    playing: Annotated[list[int], Doc("The ids of the active matches it plays, oldest "
                                      "first: `GET matches/{id}/stream/` to watch.")]
    since: Annotated[datetime, Doc("When the account began to follow it.")]


def following_list(user: User) -> list[Followed]:
    """Whom ``user`` follows, newest follow first: presence in one cache read, the
    active matches in one query."""
    rows = list(following_of(user))
    ids = [row.followed_id for row in rows]
    online = presence.online(ids)
    playing: dict[int, list[int]] = {uid: [] for uid in ids}
    active = (Match.objects.filter(status=MatchStatus.ACTIVE)
              .filter(Q(white_id__in=ids) | Q(black_id__in=ids))
              .order_by("id").values_list("id", "white_id", "black_id"))
    for match_id, white_id, black_id in active:
        for uid in {white_id, black_id}:
            if uid in playing:
                playing[uid].append(match_id)
    return [{"username": row.followed.username, "display_name": row.followed.display_name,
             "is_bot": row.followed.is_bot, "online": online.get(row.followed_id, False),
             "playing": playing[row.followed_id], "since": row.created} for row in rows]
