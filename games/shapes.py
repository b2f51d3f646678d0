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

from games.models import (
    EndReason,
    GamePhase,
    MatchStatus,
    Progression,
    Stakes,
    board_results,
    result_names,
    rules_names,
)
from nard_site.api.shapes import Doc
from nardy import SIDE_NAMES
from nardy.record import FORMAT as RECORD_FORMAT

# --- values ---------------------------------------------------------------------------------

Colour = Annotated[str, Doc(choices=SIDE_NAMES)]
"""A side's name: ``SIDE_NAMES`` (the schema's ``ColorEnum``)."""
RulesName = Annotated[str, Doc(choices=rules_names())]
"""A rule set's name (``GET rules/`` describes each); the schema lists the built-in ones."""
StakesName = Annotated[str, Doc(choices=Stakes.values)]
ProgressionName = Annotated[str, Doc(choices=Progression.values)]
StatusName = Annotated[str, Doc(choices=MatchStatus.values)]
PhaseName = Annotated[str, Doc(choices=GamePhase.values)]
ResultName = Annotated[str, Doc(choices=result_names())]
EndReasonName = Annotated[str, Doc(choices=EndReason.values)]
Checkers = Annotated[int, Doc(min_value=0, max_value=15)]

MAY_OFFER = ("both", *SIDE_NAMES, "none")
"""Who holds the right to offer (S2): both sides, one side, or nobody."""
CONCEDED = tuple(name for name, _ in board_results())
"""What a win was worth on the board: a result name of H15 (no resignation, no refusal)."""
OFFER_ANSWERS = ("accept", "refuse")
"""The answers to an offer, to raise the stake or to resign (the schema's ``AnswerEnum``)."""
ANALYSIS_STATES = ("queued", "running", "done", "failed")
"""A game review's states (``reviews.models.Analysis.State``, whose values these are:
tests/architecture/test_reviews_app.py), one enum in the schema."""

# --- the board and steps --------------------------------------------------------------------

Step = TypedDict("Step", {
    "from": Annotated[int, Doc("25: from the bar.")],
    "to": Annotated[int, Doc("0: borne off.")],
    "die": int,
    "hit": Annotated[bool, Doc("The step hits a blot (H7); always false in Long Nardy.")],
})
"""The one step shape (``transitions.step_json``): the API, the events, the records."""

TreeStep = TypedDict("TreeStep", {
    "from": Annotated[int, Doc("25: from the bar.")],
    "to": Annotated[int, Doc("0: borne off.")],
    "die": int,
    "hit": Annotated[bool, Doc("The step hits a blot (H7); always false in Long Nardy.")],
    "next": Annotated[int, Doc("The index in `legal_tree` of the stop this step leads to.")],
})
"""A step of ``legal_tree``: a legal step and the stop it leads to."""


class ResignOption(TypedDict):
    """A result one may offer to resign with, and what it would cost."""
    result: Annotated[str, Doc("A result of the rule set (`single`, `mars`, `gammon`, "
                               "`koks`, `backgammon`).")]
    points: Annotated[int, Doc("The points the other side would win if it accepts "
                               "(the result's worth times the stake, S6).")]


class ResignCost(TypedDict):
    """What resigning now costs (R30/H16 times the stake, S6)."""
    side: Colour
    points: Annotated[int, Doc("The points the other side would win.")]
    result: Annotated[str, Doc("The result the resignation concedes (`single`, `mars`, "
                               "`gammon`, …; `single` with dave, where mars does not count).")]
    offers: Annotated[list[ResignOption], Doc(
        "The results this side may offer to resign with now (`POST resign/` with "
        "`offer`), from `single` up to `result`: empty when it may not offer now (not its "
        "turn, a step of the turn played, an offer waiting); a result the opponent refused "
        "in this turn, and those cheaper, are left out until the opponent has played.")]


class ResignOffer(TypedDict):
    """A resignation offer waiting for its answer (phase `resign`)."""
    by: Colour
    result: Annotated[str, Doc("The result offered (`single`, `mars`, `gammon`, …).")]
    points: Annotated[int, Doc("What the side in `turn` wins if it accepts (times the "
                               "stake).")]


class Stop(TypedDict):
    """One stop of the turn being played: what may be played next."""
    steps: Annotated[list[TreeStep], Doc("The legal next steps (forced-play rules "
                                         "included); empty once the turn is complete.")]
    dice_left: list[int]
    head_may_leave: Annotated[int, Doc("RULES R13 at this stop.")]


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


class Bots(TypedDict):
    """Which seats a bot account holds (``is_bot`` on its profile): the built-in
    computer, or an account upgraded by ``POST accounts/bot/upgrade/``."""

    white: bool
    black: bool


class Offer(TypedDict):
    by: Colour
    stake: Annotated[int, Doc("The value offered (S4).")]


class PlayerSeeds(TypedDict):
    white: Annotated[str | None, Doc("White's own seed for the game's dice, if given.")]
    black: Annotated[str | None, Doc("Black's own seed for the game's dice, if given.")]


class Fairness(TypedDict):
    """The game's dice commitment (docs/fairness.md); ``null`` for a game whose
    dice are not committed (imported, or from before commitments)."""

    scheme: Annotated[str, Doc("The derivation's version: `nard-dice-v1`.")]
    commitment: Annotated[str, Doc("`nard-dice-v1:` and the SHA-256 (hex) of the tag and "
                                   "the server's seed, published when the game starts.")]
    server_seed: Annotated[str | None, Doc("The server's seed (64 hex digits), revealed "
                                           "when the game ends; `null` until then.")]
    player_seeds: PlayerSeeds
    opening: Annotated[str, Doc("`roll_off_played`: turn 1 plays the roll-off's dice "
                                "(not derived again); `roll_off`: every turn is derived.",
                                choices=("roll_off", "roll_off_played"))]
    seeds_open: Annotated[bool, Doc("Players' seeds are still accepted (no die of the game "
                                    "drawn yet, the match active).")]


class DiceSummary(TypedDict):
    """A player's turn rolls counted (docs/fairness.md, "Dice statistics")."""

    rolls: int
    faces: Annotated[list[int], Doc("How often each face 1..6 came up, over both dice.")]
    faces_expected: Annotated[float, Doc("Each face's expected count: rolls × 2 / 6.")]
    doubles: int
    doubles_expected: Annotated[float, Doc("rolls / 6.")]
    pips: Annotated[int, Doc("All pips rolled, a double counting four times.")]
    average_pips: Annotated[float | None, Doc("pips / rolls (`null` without rolls).")]
    expected_average_pips: Annotated[float, Doc("294 / 36 = 8.1667.")]
    chi_square: Annotated[float, Doc("Pearson's statistic of the faces against 1/6 each.")]
    p_value: Annotated[float | None, Doc("Its p-value (5 degrees of freedom; `null` without "
                                         "rolls).")]


class DiceStats(TypedDict):
    username: str
    all: Annotated[DiceSummary, Doc("Every rule set together.")]
    by_rules: Annotated[dict[str, DiceSummary], Doc("Per rule set played.")]


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
    legal_tree: Annotated[list[Stop], Doc(
        "The rest of the turn as stops, for a page that drafts the whole "
        "turn before sending it: stop 0 is now (its steps are `legal_steps`), each step "
        "names the stop it leads to; every path to a stop without steps is one complete "
        "legal play (R19-R24, H11). In the mover's numbering, for the side to move only; "
        "empty for anyone else, outside the move phase and in lists of matches.")]
    resign: Annotated[ResignCost | None, Doc(
        "What resigning the game now would cost the side the viewer may resign for (its "
        "own; in hotseat the side in turn); `null` for spectators, outside play and in "
        "lists of matches.")]
    version: int
    roll_off: RollOff
    first_turn: FirstTurn
    turn_number: int
    position_id: Annotated[str, Doc("The engine's position ID (docs/notation.md).")]
    stake: Annotated[int, Doc("The current game's stake (S1; 1 without stakes).")]
    may_offer: Annotated[str, Doc("Who holds the right to offer (S2): `none` without stakes, "
                                  "in a 1-point match, the Crawford game (S7), at 64 (S5).",
                                  choices=MAY_OFFER)]
    stake_holder: Annotated[Colour | None, Doc(
        "Who owns the stake (S2: the side that accepted the last raise; the cube's owner); "
        "`null` while nobody does (a centred cube).")]
    offer: Annotated[Offer | None, Doc("The offer waiting for the answer of the side in "
                                       "`turn` (phase `offer`).")]
    resign_offer: Annotated[ResignOffer | None, Doc(
        "The resignation offer waiting for the answer of the side in `turn` (phase "
        "`resign`: `resign/accept/` or `resign/refuse/`).")]
    deadline: Annotated[datetime | None, Doc("When the side to act must have acted; "
                                             "`null` without a clock.")]
    presence: Annotated[Presence, Doc("Whether each player was seen in the last 60 s.")]
    fairness: Annotated[Fairness | None, Doc("The game's dice commitment.")]


class Match(TypedDict):
    id: int
    rules: RulesName
    white: str | None
    black: str | None
    invited: str | None
    bots: Annotated[Bots, Doc("BOT labels: whether each seat is a bot account (a seat "
                              "still empty is `false`).")]
    hotseat: bool
    rated: Annotated[bool, Doc("The result changes both players' ratings.")]
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
    tournament: Annotated[int | None, Doc("The tournament whose match it is, or `null`.")]
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


class GameResignOffer(TypedDict):
    turn: Annotated[int, Doc("The number of the offerer's turn it was made in.")]
    during: Annotated[str, Doc("`roll`: before that turn's roll; `move`: after it, before "
                               "any step.", choices=("roll", "move"))]
    by: Colour
    result: Annotated[str, Doc("The result offered (`single`, `mars`, `gammon`, …).")]
    points: Annotated[int, Doc("What accepting it wins (times the stake).")]
    answer: Annotated[Literal["accept", "refuse"] | None,
                      Doc("`null` while it waits, or when the offerer resigned outright "
                          "first.")]


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
    resign_offers: Annotated[list[GameResignOffer], Doc(
        "The game's offers to resign with a result, in order.")]
    turns: int
    started_at: datetime
    finished_at: datetime | None
    fairness: Annotated[Fairness | None, Doc("The game's dice commitment.")]


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


class AnalysisBrief(TypedDict):
    depth: int
    state: Annotated[str, Doc(choices=ANALYSIS_STATES)]


class GamePosition(TypedDict):
    turn: Annotated[int, Doc("0: before the first turn; n: after turn n.")]
    side: Annotated[Colour | None, Doc("Who played turn n (null for turn 0).")]
    board: Board
    analyses: Annotated[list[AnalysisBrief], Doc(
        "The match's game reviews (GET matches/{id}/analysis/?depth=N exists for each), "
        "deepest first; the same on every entry (the answer stays an array for v1).")]


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
    engine: Annotated[str, Doc(
        "Which engine plays it in this rule set: the field engine's name and version "
        "(`Open Sage 2.0.20260907`, backgammon's learned levels where it is installed), "
        "`own network`, `own heuristic` or `random`.")]


class RulesLevels(TypedDict):
    rules: RulesName
    levels: Annotated[list[Level], Doc("Weakest first.")]


# --- rule sets (GET rules/: nardy.descriptor) ----------------------------------------------


class RuleSetResult(TypedDict):
    """One result a game won on the board may have in this rule set (R29, H15)."""

    name: Annotated[str, Doc("Its stable name, as in a game's `result`.")]
    worth: Annotated[int, Doc("Its points before any stake: 1, 2 or 3.")]
    title: Annotated[str, Doc("A human name (English; translate at the edge).")]
    explanation: Annotated[str, Doc("When a game ends with it, in a sentence.")]


class RuleSet(TypedDict):
    """A rule set's facts (its ``nardy.descriptor.Descriptor``): what a client needs to
    draw and name its games without knowing which one it is."""

    name: Annotated[str, Doc("The stable name: `POST matches/`'s `rules` (`RulesEnum`).")]
    title: Annotated[str, Doc("The human name, one spelling (English; translate at the edge).")]
    summary: Annotated[str, Doc("What the game is, in a sentence.")]
    default: Annotated[bool, Doc("The rule set `POST matches/` plays when `rules` is not "
                                 "given (exactly one has it).")]
    tag: Annotated[str, Doc("The letters its position and turn IDs start with "
                            "(docs/notation.md); empty for Long Nardy's `P1-…`.")]
    results: Annotated[list[RuleSetResult], Doc("From the least (`single`) up.")]
    head: Annotated[bool, Doc("A head rule (R11): one checker a turn leaves own point 24; "
                              "the match answers' `head_may_leave` counts it.")]
    hits: Annotated[bool, Doc("A lone checker can be hit (H7); steps carry `hit`.")]
    bar: Annotated[bool, Doc("Checkers stand on a bar and enter from it (H8); when false "
                             "the board's `bar` is always zeros.")]
    bears_off: Annotated[bool, Doc("A game ends by bearing off 15 checkers; when false it "
                                   "ends when all 15 are home (H13).")]
    cap: Annotated[int, Doc("The most own checkers one point may hold (0: no limit).")]
    numbering: Annotated[str, Doc("How the opponent's point q maps to one's own: `rotated` "
                                  "(q ± 12, R2) or `mirrored` (25 − q, H1).",
                                  choices=("rotated", "mirrored"))]
    start: Annotated[dict[str, int], Doc("The starting layout, own point → checkers, the "
                                         "same for both sides in their own numbering.")]
    home: Annotated[list[int], Doc("The own points of the home.")]
    opening: Annotated[str, Doc("How a game that needs a starter begins (H4): `roll_off` "
                                "(the dice are not played) or `roll_off_played`.",
                                choices=("roll_off", "roll_off_played"))]
    later_games: Annotated[str, Doc("Who starts the second and later games (R8, H5).",
                                    choices=("loser_starts", "roll_off"))]
    stakes: Annotated[list[str], Doc("The `stakes` a match of it may be created with "
                                     "(`StakesEnum`).")]
    progressions: Annotated[list[str], Doc("The `progression`s it allows "
                                           "(`ProgressionEnum`).")]


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
    resign_offers: Annotated[list[GameResignOffer], Doc(
        "Every offer to resign with a result, in order.")]
    turns: list[RecordTurn]
    result: RecordResult | None
    fairness: Annotated[Fairness | None, Doc("The dice commitment and, once the game is "
                                             "over, the seed (docs/fairness.md).")]


class MatchRecord(TypedDict):
    """The JSON form of a match record (``GET matches/{id}/export/?format=json``)."""

    format: Annotated[str, Doc(f"Always {RECORD_FORMAT!r}.")]
    id: int
    rules: RulesName
    white: str | None
    black: str | None
    hotseat: bool
    rated: bool
    length: int
    stakes: StakesName
    progression: ProgressionName
    date: Annotated[str | None, Doc(date=True)]
    status: StatusName
    winner: Colour | None
    score: Score
    games: list[RecordGame]
    analysis: NotRequired[Annotated[dict[str, Any], Doc(
        "The match's deepest done game review, as GET matches/{id}/analysis/ "
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


# --- game review ---------------------------------------------------------------


class MatchAnalysis(TypedDict):
    """A game review of the match at one depth (docs/api.md, "Game review")."""

    depth: Annotated[int, Doc("Plies: 0, 1 or 2.")]
    state: Annotated[str, Doc(choices=ANALYSIS_STATES)]
    turns_done: int
    turns_total: int
    error: Annotated[str, Doc("Why it failed (a record that does not replay); else empty.")]
    games: Annotated[list[dict[str, Any]] | None,
                     Doc("When done: per game, its review (docs/computer.md, \"Game "
                         "review\"): which engine reviewed it (`engine`: `field` or "
                         "`network`), money-play equities, each side's `pr` (the "
                         "performance rating on the field engine's scale; null unless "
                         "`engine` is `field`) and, in a match longer than 1 point, each "
                         "play's match-winning chance (`mwc`, `best_mwc`, `mwc_lost`); "
                         "else null.")]


class ReviewMarks(TypedDict):
    inaccuracy: int
    mistake: int
    blunder: int


class ReviewAverage(TypedDict):
    """A player's figures over their last analysed games of one rule set."""

    games: Annotated[int, Doc("Analysed games counted (at most `last`).")]
    decisions: Annotated[int, Doc("Their non-forced decisions in those games.")]
    error_rate: Annotated[float, Doc("Equity lost per decision, pooled over the games.")]
    rating: Annotated[float, Doc("500 × error_rate (lower is better).")]
    marks: Annotated[ReviewMarks, Doc("Counts of each mark over the games.")]
    marks_per_game: Annotated[dict[str, float], Doc("The same per game.")]
    luck: Annotated[float, Doc("Mean luck per game (equity; positive: lucky).")]
    last_match: Annotated[int, Doc("The newest match counted.")]
    pr: Annotated[float | None, Doc(
        "The PR (500 × equity lost per decision, the field engine's scale) pooled over "
        "those games the field engine reviewed; null when it reviewed none.")]


class PlayerReview(TypedDict):
    """A player's game-review averages per rule set."""

    username: str
    last: Annotated[int, Doc("N: the newest N analysed games of each rule set count.")]
    by_rules: Annotated[dict[str, ReviewAverage], Doc(
        "Per rule set with an analysed game; a match counts with its deepest done "
        "analysis; hotseat matches do not count.")]
