"""Chat's answers, each shape written once (docs/api.md#chat-and-moderation); the
schema's components are built from them (:func:`nard_site.api.shapes.schema_serializer`).

No ``from __future__ import annotations`` here: these annotations are read at run time.
"""

from datetime import datetime
from typing import Annotated, TypedDict

from chat.models import Action, ReportReason
from nard_site.api.shapes import Doc


class ChatLine(TypedDict):
    id: int
    room: str
    by: Annotated[str, Doc("The author's username.")]
    text: str
    at: datetime
    plain_links: Annotated[bool, Doc("The author is a new account: show its links as "
                                     "plain text, not as links.")]
    flagged: Annotated[bool, Doc("The word filter caught it: only its author sees it "
                                 "(and the moderators).")]
    hidden: Annotated[bool, Doc("A moderator hid it: only its author sees it.")]


class ChatRoom(TypedDict):
    kind: Annotated[str, Doc("The kind of place: `match`, `tournament`.")]
    id: Annotated[int, Doc("The place's id.")]
    room: Annotated[str, Doc("`players` or `spectators` (a match), `main` (a tournament).")]
    enabled: Annotated[bool, Doc("The asking account's chat option: off, `lines` is empty.")]
    lines: list[ChatLine]


class ChatOptions(TypedDict):
    enabled: bool


class BlockState(TypedDict):
    username: str
    blocked: Annotated[bool, Doc("Whether the asking account blocks this player now.")]


class ReportPlace(TypedDict):
    kind: str
    id: int
    room: str


class Report(TypedDict):
    id: int
    reason: Annotated[str, Doc(choices=ReportReason.values)]
    comment: str
    created: datetime
    reporter: Annotated[str | None, Doc("`null`: the word filter.")]
    accused: str
    line: ChatLine | None
    place: ReportPlace | None
    context: Annotated[list[ChatLine], Doc("The lines around the reported one, in order.")]
    resolved: datetime | None


class ModerationActionOut(TypedDict):
    id: int
    action: Annotated[str, Doc(choices=Action.values)]
    target: str | None
    reason: str
    until: datetime | None
    created: datetime


class Panic(TypedDict):
    on: bool
    until: datetime | None
    min_games: int
    min_hours: float


SCHEMA_NAMES = {Report: "ChatReport", ModerationActionOut: "ModerationAction",
                Panic: "ChatPanic"}


class ReportReceipt(TypedDict):
    id: int
    reason: str
    created: datetime
