"""The games API's answers, each shape written once (API.md is the contract).

Every answer the selectors (and the services' results) build is typed by one of these
``TypedDict``\\ s, so mypy checks each key and value where it is built; the schema's
components are built from the same ``TypedDict``\\ s (``games.serializers``, through
:func:`nard_site.api.shapes.schema_serializer`), so the documentation cannot drift from the
answers. ``Annotated[…, Doc(…)]`` adds a help text or a choice list for the schema;
mypy sees the plain type.

No ``from __future__ import annotations`` here: these annotations are read at run time.
"""

from datetime import datetime
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from games.models import EndReason, GamePhase, MatchStatus, Progression, Result, Rules, Stakes
from nard_site.api.shapes import Doc
from nardy import SIDE_NAMES
from nardy.record import FORMAT as RECORD_FORMAT

# --- values ---------------------------------------------------------------------------------

Colour = Annotated[str, Doc(choices=SIDE_NAMES)]
"""A side's name: ``SIDE_NAMES`` (the schema's ``ColorEnum``)."""
RulesName = Annotated[str, Doc(choices=Rules.values)]
StakesName = Annotated[str, Doc(choices=Stakes.values)]
ProgressionName = Annotated[str, Doc(choices=Progression.values)]
StatusName = Annotated[str, Doc(choices=MatchStatus.values)]
PhaseName = Annotated[str, Doc(choices=GamePhase.values)]
ResultName = Annotated[str, Doc(choices=Result.values)]
EndReasonName = Annotated[str, Doc(choices=EndReason.values)]
Checkers = Annotated[int, Doc(min_value=0, max_value=15)]

MAY_OFFER = ("both", *SIDE_NAMES, "none")
"""Who holds the right to offer (S2): both sides, one side, or nobody."""
CONCEDED = tuple(r for r in Result.values if r not in (Result.RESIGNED, Result.REFUSED))
"""What a win was worth on the board: a result name of H15 (no resignation, no refusal)."""

# --- the board and steps --------------------------------------------------------------------

Step = TypedDict("Step", {
    "from": Annotated[int, Doc("25: from the bar.")],
    "to": Annotated[int, Doc("0: borne off.")],
    "die": int,
    "hit": Annotated[bool, Doc("The step hits a blot (H7); always false in Long Nardy.")],
})
"""The one step shape (``transitions.step_json``): the API, the events, the records."""


class Off(TypedDict):
    mine: Checkers
    theirs: Checkers


class Bar(Off):
    pass


class Board(TypedDict):
    perspective: Colour
    points: dict[str, int]
    off: Off
    bar: Annotated[Bar, Doc("Always present; zeros in Long Nardy.")]


# --- a match and its state ------------------------------------------------------------------


class Score(TypedDict):
    white: int
    black: int


class RollOff(TypedDict):
    white: int | None
    black: int | None


class FirstTurn(TypedDict):
    white: bool
    black: bool


class Presence(TypedDict):
    white: bool
    black: bool


class Offer(TypedDict):
    by: Colour
    stake: Annotated[int, Doc("The value offered (S4).")]


class State(TypedDict):
    game: int
    phase: PhaseName
    turn: Colour | None
    dice: list[int] | None
    dice_left: list[int]
    head_may_leave: Annotated[int, Doc("RULES R13 (0 in lists of matches).")]
    board: Board
    legal_steps: Annotated[list[Step], Doc("RULES R24; empty for anyone but the side to "
                                           "move, and in lists of matches.")]
    version: int
    roll_off: RollOff
    first_turn: FirstTurn
    turn_number: int
    position_id: Annotated[str, Doc("The engine's position ID (docs/notation.md).")]
    stake: Annotated[int, Doc("The current game's stake (S1; 1 without stakes).")]
    may_offer: Annotated[str, Doc("Who holds the right to offer (S2): `none` without stakes, "
                                  "in a 1-point match, the Crawford game (S7), at 64 (S5).",
                                  choices=MAY_OFFER)]
    offer: Annotated[Offer | None, Doc("The offer waiting for the answer of the side in "
                                       "`turn` (phase `offer`).")]
    deadline: Annotated[datetime | None, Doc("When the side to act must have acted; "
                                             "`null` without a clock.")]
    presence: Annotated[Presence, Doc("Whether each player was seen in the last 60 s.")]


class Match(TypedDict):
    id: int
    rules: RulesName
    white: str | None
    black: str | None
    invited: str | None
    hotseat: bool
    length: int
    stakes: StakesName
    progression: ProgressionName
    crawford_game: Annotated[int | None, Doc("S7: the number of the Crawford game (no "
                                             "offers), once known.")]
    turn_seconds: Annotated[int | None, Doc("The clock: seconds for each action, or `null`.")]
    score: Score
    status: StatusName
    winner: Colour | None
    version: int
    rematch_of: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    state: State | None


class Roll(TypedDict):
    """What a roll did (``roll`` in the roll answer)."""

    kind: Literal["roll-off", "turn"]
    side: Colour
    die: NotRequired[Annotated[int, Doc("Roll-off only.")]]
    result: NotRequired[Annotated[str, Doc("Roll-off: pending, tie, white or black.")]]
    dice: NotRequired[Annotated[list[int], Doc("The turn's dice (backgammon's roll-off: the "
                                               "two roll-off dice, played as the first turn, "
                                               "H4).")]]
    passed: NotRequired[Annotated[bool, Doc("The turn passed at once: no legal move (R23).")]]


class RollResult(Match):
    roll: Roll
    die: NotRequired[Annotated[int, Doc("The roll-off die (R7).")]]
    dice: NotRequired[Annotated[list[int], Doc("The turn's two dice.")]]


class MovesResult(Match):
    applied: list[Step]


# --- games, turns, events -------------------------------------------------------------------


class GameOffer(TypedDict):
    before_turn: Annotated[int, Doc("The number of the offerer's turn it came before (S3).")]
    by: Colour
    stake: Annotated[int, Doc("The value offered.")]
    answer: Annotated[Literal["accept", "refuse"] | None,
                      Doc("`null` while it waits, or when the game was resigned first.")]


class TurnOffer(TypedDict):
    by: Colour
    stake: int
    answer: Literal["accept"]


class Game(TypedDict):
    number: int
    rules: RulesName
    starter: Colour | None
    winner: Colour | None
    points: int | None
    mars: Annotated[bool, Doc("More than a single game (mars, koks, gammon, backgammon).")]
    result: ResultName | None
    end_reason: EndReasonName | None
    stake: Annotated[int, Doc("The game's stake (S1-S5).")]
    offers: Annotated[list[GameOffer], Doc("The game's offers in order (S2-S4).")]
    turns: int
    started_at: datetime
    finished_at: datetime | None


class Turn(TypedDict):
    number: int
    side: Colour
    offer: Annotated[TurnOffer | None, Doc("The offer accepted before this turn's roll (S4), "
                                           "if any.")]
    dice: list[int]
    steps: list[Step]
    notation: str
    passed: bool
    pass_reason: str | None
    position_after: str | None
    started_at: datetime
    finished_at: datetime | None


class Event(TypedDict):
    seq: int
    type: str
    at: datetime
    data: dict[str, Any]


# --- analysis -------------------------------------------------------------------------------


class Play(TypedDict):
    steps: list[Step]
    board: Board


class LegalPlays(TypedDict):
    max_dice: int
    count: Annotated[int, Doc("How many distinct plays there are.")]
    truncated: Annotated[bool, Doc("Only the first 500 plays are listed.")]
    plays: list[Play]


# --- the computer's levels (GET computer/) --------------------------------------------------


class Level(TypedDict):
    level: Annotated[str, Doc("What `POST matches/` takes as `computer`.")]
    description: Annotated[str, Doc("How this level plays, in a sentence.")]
    account: Annotated[str, Doc("The account it plays as (`is_bot` on its public profile).")]


class RulesLevels(TypedDict):
    rules: RulesName
    levels: Annotated[list[Level], Doc("Weakest first.")]


# --- match records (docs/notation.md, "Match record") ---------------------------------------


class RecordTurn(TypedDict):
    number: int
    side: Colour
    offer: Annotated[GameOffer | None, Doc("The offer accepted before this turn's roll (S4).")]
    dice: list[int]
    steps: list[Step]
    notation: Annotated[str, Doc('The steps in notation; "-" for none.')]
    pass_reason: str | None
    position_after: str | None


class RecordResult(TypedDict):
    winner: Colour
    points: int
    mars: bool
    result: ResultName
    conceded: Annotated[str, Doc("What the win was worth on the board; for a resignation, "
                                 "what the position gave.", choices=CONCEDED)]
    end_reason: EndReasonName
    resigned: Colour | None
    refused: Annotated[Colour | None, Doc("The side that refused an offer (S4).")]
    stake: Annotated[int, Doc("The game's stake (S1-S5).")]
    score: Annotated[Score, Doc("The match score after this game.")]


class RecordRollOff(TypedDict):
    white: int
    black: int


class RecordGame(TypedDict):
    number: int
    roll_off: Annotated[list[RecordRollOff], Doc("Game 1: ties first (R7).")]
    starter: Colour | None
    stake: int
    offers: Annotated[list[GameOffer], Doc("Every offer of the game in order.")]
    turns: list[RecordTurn]
    result: RecordResult | None


class MatchRecord(TypedDict):
    """The JSON form of a match record (``GET matches/{id}/export/?format=json``)."""

    format: Annotated[str, Doc(f"Always {RECORD_FORMAT!r}.")]
    id: int
    rules: RulesName
    white: str | None
    black: str | None
    hotseat: bool
    length: int
    stakes: StakesName
    progression: ProgressionName
    date: Annotated[str | None, Doc(date=True)]
    status: StatusName
    winner: Colour | None
    score: Score
    games: list[RecordGame]
    analysis: NotRequired[Annotated[dict[str, Any], Doc(
        "Issue 24: the match's deepest done game review, as GET matches/{id}/analysis/ "
        "answers it; absent when it has none.")]]


SCHEMA_NAMES: dict[Any, str] = {
    Step: "OutStep",
    Board: "OutBoard",
    RecordTurn: "_RecordTurn",
    RecordResult: "_RecordResult",
    RecordRollOff: "_RecordRollOff",
    RecordGame: "_RecordGame",
}
"""The schema's component names where they are not the ``TypedDict``'s own (as published)."""


# --- game review (issue 24) ---------------------------------------------------------------


class MatchAnalysis(TypedDict):
    """A game review of the match at one depth (docs/api.md, "Game review")."""

    depth: Annotated[int, Doc("Plies: 0, 1 or 2.")]
    state: Annotated[str, Doc(choices=("queued", "running", "done", "failed"))]
    turns_done: int
    turns_total: int
    error: Annotated[str, Doc("Why it failed (a record that does not replay); else empty.")]
    games: Annotated[list[dict[str, Any]] | None,
                     Doc("When done: per game, its review (docs/computer.md, \"Game "
                         "review\"); else null.")]
