"""The match log's events, each type's ``data`` a shape (docs/api.md, "Events").

``events/``, the match's stream and the account stream's results carry these; the schema
documents them as ``MatchEvent``, a ``oneOf`` discriminated by ``type`` (one component
per type: ``RollEvent`` with its ``RollData``, …), and the stream's items as
``MatchStreamEvent``: the same, and the ``state`` snapshot a client asks for with
``?snapshots=1``. The services log the data (``Change.log``); these shapes say what each
type carries, for the schema and for mypy where a shape is built.

No ``from __future__ import annotations`` here: these annotations are read at run time.
"""

from datetime import datetime
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from games.shapes import (
    ANALYSIS_STATES,
    Board,
    Colour,
    EndReasonName,
    Match,
    ProgressionName,
    ResultName,
    RulesName,
    Score,
    StakesName,
)
from nard_site.api.shapes import Doc

Seed = Annotated[str, Doc("The server's seed of the game's dice, revealed (docs/fairness.md).")]
Commitment = Annotated[str, Doc("The commitment to the game's dice seed (docs/fairness.md).")]
Instant = Annotated[str, Doc("An instant: UTC, ISO 8601 with milliseconds and `Z`.")]


class MatchCreatedData(TypedDict):
    length: int
    rules: RulesName
    hotseat: bool
    stakes: StakesName
    progression: ProgressionName
    turn_seconds: int | None
    rated: NotRequired[bool | None]
    by: Annotated[str, Doc("The creator's username.")]
    white: str | None
    black: str | None
    invited: str | None
    rematch_of: int | None
    computer: NotRequired[Annotated[str, Doc("The computer's level, against the computer.")]]
    paired: NotRequired[Annotated[bool, Doc("Made by quick pairing.")]]
    imported: NotRequired[bool]
    imported_by: NotRequired[str]


class JoinedData(TypedDict):
    user: str
    color: Colour


class GameStartData(TypedDict):
    game: int
    starter: Colour | None
    roll_off: Annotated[bool, Doc("The game opens with a roll-off (no starter yet).")]
    commitment: NotRequired[Commitment]


class RollOffData(TypedDict):
    game: int
    side: Colour
    die: int
    white: int | None
    black: int | None
    result: Annotated[str | None, Doc("`tie`, the starter's colour, or `null` while one "
                                      "side has still to roll.")]


class RollData(TypedDict):
    game: int
    turn: int
    side: Colour
    dice: list[int]


StepData = TypedDict("StepData", {
    "game": int,
    "turn": int,
    "side": Colour,
    "from": Annotated[int, Doc("25: from the bar.")],
    "to": Annotated[int, Doc("0: borne off.")],
    "die": int,
    "hit": bool,
    "board": NotRequired[Annotated[Board, Doc("The board after the step, in the mover's "
                                              "numbering.")]],
    "position_id": NotRequired[Annotated[str, Doc("The position after the step "
                                                  "(docs/notation.md).")]],
})


class PassData(TypedDict):
    game: int
    turn: int
    side: Colour
    reason: str
    dice_left: list[int]


class StakeData(TypedDict):
    game: int
    side: Colour
    stake: int


class RefuseData(StakeData):
    offered: NotRequired[int]


class ResignData(TypedDict):
    game: int
    side: Colour


class ResignOfferData(TypedDict):
    game: int
    side: Annotated[str, Doc("The side that offers to resign.")]
    result: Annotated[str, Doc("The result it offers (`single`, `mars`, `gammon`, …).")]
    points: Annotated[int, Doc("What the opponent wins if it accepts (times the stake).")]
    turn: Annotated[int, Doc("The number of the offerer's turn it interrupts.")]
    during: Annotated[str, Doc("`roll`: before that turn's roll; `move`: after it, before "
                               "any step.", choices=("roll", "move"))]


class ResignAnswerData(TypedDict):
    game: int
    side: Annotated[str, Doc("The side that answers.")]
    answer: Annotated[str, Doc(
        "`accept`: the game ends with the result (its `game_over` follows); `refuse`: play "
        "goes on.")]
    result: str
    points: int


class ClaimData(TypedDict):
    game: int
    side: Annotated[str, Doc("The side that claims.")]
    late: Colour
    deadline: Instant | None


class AbandonedData(TypedDict):
    game: int
    side: Annotated[str, Doc("The late side, which abandoned.")]
    by: Annotated[str, Doc("`sweep` or `request`: what settled it.")]
    deadline: Instant | None


class DeadlineData(TypedDict):
    game: int
    side: Colour
    deadline: Instant


class GameOverData(TypedDict):
    game: int
    winner: Colour
    points: int
    mars: bool
    result: ResultName
    reason: EndReasonName
    stake: int
    score: Score
    commitment: NotRequired[Commitment]
    server_seed: NotRequired[Seed]


class MatchOverData(TypedDict):
    winner: Colour
    score: Score
    reason: NotRequired[Annotated[str, Doc("`abandoned` when the match was abandoned.")]]
    ratings: NotRequired[Annotated[dict[str, Any], Doc(
        "A rated match: per colour `before`, `after`, `change`, `deviation`, `provisional`.")]]


class AbortedData(TypedDict):
    by: str | None
    reason: Annotated[str, Doc("`declined`, `cancelled`, `abandoned`, or why it was aborted.")]
    game: NotRequired[int]
    commitment: NotRequired[Commitment]
    server_seed: NotRequired[Seed]


class PlayerSeedData(TypedDict):
    game: int
    side: Colour
    seed: str


class AnalysisData(TypedDict):
    depth: int
    state: Annotated[str, Doc(choices=ANALYSIS_STATES)]
    turns_done: int
    turns_total: int


MATCH_EVENT_DATA: dict[str, Any] = {
    "match_created": MatchCreatedData,
    "joined": JoinedData,
    "game_start": GameStartData,
    "roll_off": RollOffData,
    "roll": RollData,
    "step": StepData,
    "pass": PassData,
    "offer": StakeData,
    "accept": StakeData,
    "refuse": RefuseData,
    "resign": ResignData,
    "resign_offer": ResignOfferData,
    "resign_answer": ResignAnswerData,
    "claim": ClaimData,
    "abandoned": AbandonedData,
    "deadline": DeadlineData,
    "game_over": GameOverData,
    "match_over": MatchOverData,
    "aborted": AbortedData,
    "player_seed": PlayerSeedData,
    "analysis": AnalysisData,
}
"""Every type of the match log with the shape of its ``data``."""


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def _event(type_: str, data: Any, doc: str) -> Any:
    """The ``TypedDict`` of one event type: ``{seq, type, at, data}``."""
    shape = TypedDict(f"{_camel(type_)}Event", {  # type: ignore[misc]  # noqa: UP013 (built per type)
        "seq": int,
        "type": Annotated[Literal[type_], Doc(const=True)],  # type: ignore[valid-type]
        "at": datetime,
        "data": data,
    })
    shape.__doc__ = doc
    shape.__module__ = __name__
    return shape


MATCH_EVENTS: dict[str, Any] = {
    type_: _event(type_, data, f"A `{type_}` event of the match's log.")
    for type_, data in MATCH_EVENT_DATA.items()}
"""Each type's event shape (the schema's ``RollEvent``, …)."""

STATE_EVENT = _event("state", Annotated[Match, Doc("The match as `GET matches/{id}/` "
                                                    "answers the stream's reader.")],
                     "The match's full state (`?snapshots=1` on its stream only): sent on "
                     "connecting and after each committed change; `seq` is the last "
                     "event's it includes. Not in the log.")
