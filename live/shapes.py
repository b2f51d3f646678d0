"""The account stream's items (``GET stream/``, :mod:`live.kinds`), each kind a shape.

Every item's data has ``type`` (its kind, the SSE ``event:`` name too) and, but for a
``notice`` (an account's notice: ``id`` tells a repeat), ``match`` and ``version``; the
schema documents them as ``AccountEvent``, a ``oneOf`` discriminated by
``type``.

No ``from __future__ import annotations`` here: these annotations are read at run time.
"""

from typing import Annotated, Any, Literal, TypedDict, get_type_hints

from accounts.notices import NoticeItem
from games.event_shapes import (
    DeadlineData,
    GameOverData,
    MatchOverData,
    ResignOfferData,
    StakeData,
)
from games.shapes import Colour, RulesName
from nard_site.api.shapes import Doc

MatchId = Annotated[int, Doc("The match's id.")]
Version = Annotated[int, Doc("The match's version after the change (a repeat has one seen "
                             "already; `deadline` keeps the match's version).")]


class _Item(TypedDict):
    match: MatchId
    version: Version


class InvitationItem(_Item):
    by: str | None
    length: int
    color: Annotated[str | None, Doc("Your colour (`null`: chosen at random on joining).")]
    rematch_of: int | None


class PairedItem(_Item):
    rules: RulesName
    length: int
    rated: bool
    color: Colour
    opponent: str | None
    tournament: Annotated[int | None, Doc("The tournament whose round paired you, or `null` "
                                          "(quick pairing).")]


class YourTurnItem(_Item):
    game: int
    phase: Annotated[str, Doc(
        "`roll` (a turn of yours starts; also the roll-off's winner's first turn), "
        "`roll-off` (roll your die), and on connecting also `move` (you rolled and have "
        "steps to play).", choices=("roll", "roll-off", "move"))]
    color: Colour


class OfferItem(_Item, StakeData):
    pass


class ResignOfferItem(_Item, ResignOfferData):
    pass


class DeadlineItem(_Item, DeadlineData):
    pass


class GameOverItem(_Item, GameOverData):
    pass


class MatchOverItem(_Item, MatchOverData):
    pass


ACCOUNT_ITEM_DATA: dict[str, Any] = {
    "invitation": InvitationItem,
    "paired": PairedItem,
    "your_turn": YourTurnItem,
    "offer": OfferItem,
    "resign_offer": ResignOfferItem,
    "deadline": DeadlineItem,
    "game_over": GameOverItem,
    "match_over": MatchOverItem,
    "notice": NoticeItem,
}
"""Every kind of the account stream with the shape of its data."""


def _item(kind: str, data: Any) -> Any:
    name = "".join(part.title() for part in kind.split("_"))
    shape = TypedDict(f"Account{name}", {  # type: ignore[misc]
        "type": Annotated[Literal[kind], Doc(const=True)],  # type: ignore[valid-type]
        **get_type_hints(data, include_extras=True),
    })
    shape.__doc__ = f"A `{kind}` item of the account's stream."
    shape.__module__ = __name__
    return shape


ACCOUNT_ITEMS: dict[str, Any] = {kind: _item(kind, data)
                                 for kind, data in ACCOUNT_ITEM_DATA.items()}
"""Each kind's item shape with its ``type`` (the schema's ``AccountYourTurn``, …)."""
