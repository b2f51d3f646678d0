"""The one turn path: every way a match's games change state goes through here.

The live services (:mod:`games.services`), the import of a match record
(:mod:`games.importing`), the replay check (:mod:`games.replay`) and the demo data
all play turns with these functions, so there is one way a turn happens. They work
on the match aggregate in memory — the match, its current game and turn record —
through a :class:`~games.unit_of_work.Change`, which collects the rows they touch and
the events they log; nothing here writes to the database or knows who asked (the
change is written by its owner, :meth:`~games.unit_of_work.Change.commit`). The rules are reached
only through ``match.ruleset`` (``nardy.RULESETS``).

    roll_off ─▶ start_turn ─▶ play ─▶ … ─▶ (settle: pass / end turn / end_game)
    offer ─▶ accept ─▶ start_turn …   or   offer ─▶ refuse ─▶ end_game      (S2-S5)
    resign ─▶ end_game ─▶ next game (R8/H5) or match over (R31/H17)
    resign_offer ─▶ resign_accept ─▶ end_game   or   resign_offer ─▶ resign_refuse ─▶
        the interrupted turn goes on (before its roll, or after it with no step played)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from django.utils.translation import gettext_noop

from games import dice, shapes
from games.exceptions import (
    IllegalMove,
    InvalidRequest,
    NotYourTurn,
    ResignOfferRepeated,
    ResignOfferTooHigh,
    WrongPhase,
)
from games.models import (
    EndReason,
    Game,
    GamePhase,
    Match,
    MatchStatus,
    Result,
    color_of,
    side_of,
)
from games.models import Turn as TurnRecord
from games.unit_of_work import Change
from nard_site.api.renderers import iso_time_or_none
from nardy import (
    MAX_TURNS_PER_GAME,
    WHITE,
    AskedStep,
    IllegalMoveError,
    NotationError,
    Outcome,
    Side,
    Step,
    Turn,
    match_winner,
    other,
    resign_offers,
    stakes,
)

NO_LEGAL_MOVE = "no legal move"
RESIGN_OFFER_WAITS = gettext_noop("A resignation offer waits for its answer: accept or "
                                  "refuse it.")


# --- results of the transitions ------------------------------------------------------------


@dataclass(frozen=True)
class AppliedStep:
    """A step as played: the engine's step and whether it hit a blot (H7)."""

    step: Step
    hit: bool = False


@dataclass(frozen=True)
class RollOff:
    side: Side
    die: int
    result: str
    """``pending``, ``tie``, or the starter's colour."""
    opening: tuple[int, int] | None = None
    """Backgammon (H4): the two roll-off dice, played at once as the starter's turn."""


@dataclass(frozen=True)
class TurnResult:
    """Where a turn stands after a transition: the engine state (``None`` once the
    turn or the game is over) and the steps applied by this call."""

    state: Turn | None
    applied: tuple[AppliedStep, ...] = ()
    passed: bool = False


def step_json(step: Step, hit: bool = False) -> shapes.Step:
    """The one JSON shape of a step: the API, the events and the per-move records."""
    return {"from": step.src, "to": step.dst, "die": step.die, "hit": hit}


def legal_steps_json(state: Turn) -> list[shapes.Step]:
    """R24/H11: the steps the side to move may play next, each with its hit flag."""
    return [step_json(s, state.hits(s)) for s in state.legal_steps()]


# --- games -----------------------------------------------------------------------------------


def new_game(change: Change, number: int, starter: Side | None) -> Game:
    """Game ``number`` of the match at its start: a roll-off when ``starter`` is None."""
    match = change.match
    game = Game(match=match, number=number, position_key=match.ruleset.initial().to_id(),
                started_at=change.now,
                phase=GamePhase.ROLL_OFF if starter is None else GamePhase.ROLL,
                turn="" if starter is None else color_of(starter),
                starter="" if starter is None else color_of(starter))
    match.current_game = game
    if change.commit_dice:
        dice.commit(game)
    change.touch(game)
    change.log("game_start", game=number, starter=game.starter or None,
               roll_off=starter is None,
               **({"commitment": game.dice_commitment} if game.dice_commitment else {}))
    return game


def start_first_game(change: Change) -> Game:
    """Both seats are taken: the match becomes active and game 1 begins with a roll-off."""
    match = change.match
    match.status = MatchStatus.ACTIVE
    match.started_at = change.now
    return new_game(change, 1, None)


def roll_off(change: Change, game: Game, side: Side, die: int) -> RollOff:
    """One side's roll-off die (R7, H4); ties roll again.

    When both dice are in and differ, the higher starts: it rolls for its first turn
    (``opening == "roll_off"``), or plays the two roll-off dice at once (backgammon's
    ``roll_off_played``). Raises :class:`WrongPhase` outside the roll-off.
    """
    if game.phase != GamePhase.ROLL_OFF:
        raise WrongPhase(gettext_noop("The roll-off is over."), details={"phase": game.phase})
    if (game.rolloff_white if side == WHITE else game.rolloff_black) is not None:
        raise WrongPhase(f"{color_of(side)} has rolled in this roll-off already.")
    if side == WHITE:
        game.rolloff_white = die
    else:
        game.rolloff_black = die
    change.touch(game)
    white, black = game.rolloff_white, game.rolloff_black
    result, opening = "pending", None
    if white is not None and black is not None:
        if white == black:
            result = "tie"
            game.rolloff_white = game.rolloff_black = None
        else:
            starter = WHITE if white > black else 1 - WHITE
            result = color_of(starter)
            game.starter = game.turn = color_of(starter)
            game.phase = GamePhase.ROLL
            if change.match.ruleset.opening == "roll_off_played":
                opening = (white, black) if starter == WHITE else (black, white)
    change.log("roll_off", game=game.number, side=color_of(side), die=die, white=white,
               black=black, result=result)
    if opening is not None:
        start_turn(change, game, opening)
    return RollOff(side, die, result, opening)


# --- turns -----------------------------------------------------------------------------------


def start_turn(change: Change, game: Game, dice: tuple[int, int]) -> TurnResult:
    """The side in ``game.turn`` has rolled ``dice``: open its turn record and play on
    from there (a pass at once when nothing can be played, R23/H11)."""
    if game.phase == GamePhase.RESIGN:
        raise WrongPhase(RESIGN_OFFER_WAITS, details={"phase": game.phase})
    if game.phase != GamePhase.ROLL:
        raise WrongPhase(gettext_noop("The dice are rolled; play your steps."),
                         details={"phase": game.phase})
    if game.turns >= MAX_TURNS_PER_GAME:
        raise WrongPhase("This game has reached the turn limit.")
    side = side_of(game.turn)
    state = change.match.ruleset.start_turn(game.position, side, dice, game.first_turn(side))
    game.turns += 1
    record = TurnRecord(game=game, number=game.turns, side=game.turn, dice=list(dice),
                        started_at=change.now)
    game.current_turn = record
    game.phase, game.dice = GamePhase.MOVE, list(dice)
    change.touch(game, record)
    change.log("roll", game=game.number, turn=record.number, side=game.turn, dice=list(dice))
    return settle(change, game, state)


def play(change: Change, game: Game, wanted: Sequence[Step | AskedStep]) -> TurnResult:
    """Apply steps of the turn in order, all or none: the engine's own steps, or steps
    as asked (a request's, a record's), which may be no step at all.

    A missing die is resolved by the engine (R26/H12). Raises :class:`IllegalMove`
    naming the first step the rules refuse (``details``: reason, index, the step and
    the legal steps at that point); nothing is changed then.
    """
    if game.phase == GamePhase.RESIGN:
        raise WrongPhase(RESIGN_OFFER_WAITS, details={"phase": game.phase})
    if game.phase != GamePhase.MOVE:
        raise WrongPhase(gettext_noop("Roll the dice first."), details={"phase": game.phase})
    state = game.turn_state()
    assert state is not None
    applied: list[AppliedStep] = []
    boards: list[tuple[shapes.Board, str]] = []  # after each step: the board, its id
    codec = change.match.ruleset.codec
    for index, asked in enumerate(wanted):
        src, dst, die = asked.src, asked.dst, asked.die or None
        try:
            step = state.take(asked)
            after = state.apply(step)
        except (IllegalMoveError, NotationError) as exc:
            reason = getattr(exc, "reason", "invalid_step")
            shown = f"{'bar' if src == 25 else src}/{'off' if dst == 0 else dst}"
            raise IllegalMove(
                f"Step {index + 1} ({shown}) is illegal: {exc}",
                details={"reason": reason, "index": index,
                         "step": {"from": src, "to": dst, "die": die},
                         "legal_steps": legal_steps_json(state)},
            ) from exc
        opponent = other(state.side)
        hit = after.position.bar_of(opponent) > state.position.bar_of(opponent)
        applied.append(AppliedStep(step, hit))
        boards.append((cast(shapes.Board, codec.board(after.position, state.side)),
                       after.position.to_id()))
        state = after
    record = game.current_turn
    assert record is not None
    # Each step event carries the position after it (the board in the mover's numbering
    # and its position id): a client that follows the stream need not read the match.
    for done, (board, position_id) in zip(applied, boards, strict=True):
        change.log("step", game=game.number, turn=record.number, side=game.turn,
                   **step_json(done.step, done.hit), board=board, position_id=position_id)
    record.steps = [*record.steps, *(step_json(d.step, d.hit) for d in applied)]
    change.touch(record)
    result = settle(change, game, state)
    return TurnResult(result.state, tuple(applied), result.passed)


def settle(change: Change, game: Game, state: Turn) -> TurnResult:
    """Store the turn's state; end the turn (with a pass, R23) or the game (R28/H14)."""
    record = game.current_turn
    assert record is not None
    game.position_key = state.position.to_id()
    game.turn_key = state.to_id()
    change.touch(game, record)
    outcome = state.outcome()
    if outcome is not None:
        _end_turn(change, game, state, reason="")
        end_game(change, game, outcome, EndReason.BORNE_OFF)
        return TurnResult(None)
    if not state.is_turn_over():
        return TurnResult(state)
    reason = state.pass_reason() or ""
    if reason:
        change.log("pass", game=game.number, turn=record.number, side=game.turn,
                   reason=reason, dice_left=list(state.dice_left))
    _end_turn(change, game, state, reason=reason)
    return TurnResult(None, passed=bool(reason))


def _end_turn(change: Change, game: Game, state: Turn, reason: str) -> None:
    record = game.current_turn
    assert record is not None
    record.pass_reason = reason
    record.position_after = state.position.to_id()
    record.finished_at = change.now
    _first_turn_used(game, state.side)
    game.turn = color_of(other(state.side))
    game.phase = GamePhase.ROLL
    game.dice, game.turn_key, game.current_turn = None, "", None


def _first_turn_used(game: Game, side: Side) -> None:
    if side == WHITE:
        game.white_first_turn = False
    else:
        game.black_first_turn = False


# --- stakes (RULES-FAMILY S1-S7) -------------------------------------------------------------


_NO_OFFER_MESSAGES: dict[stakes.NoOffer, str] = {
    "no_stakes": "This match is played without stakes.",
    "one_point_match": "A 1-point match has no offers (S7).",
    "crawford": "No offers in the Crawford game (S7).",
    "cap": f"The stake is at {stakes.MAX_STAKE}: no one may offer (S5).",
}


def offer(change: Change, game: Game, side: Side) -> int:
    """``side`` offers to raise the stake (S2-S5, S7); the game waits for the answer of
    the other side, which is then in ``game.turn`` (phase ``offer``). Returns the value
    offered.

    Raises :class:`WrongPhase` (``details.reason``: ``roll_off``, ``dice_rolled``,
    ``offer_waiting``, ``no_stakes``, ``one_point_match``, ``crawford``, ``cap``,
    ``not_holder``) when no offer is allowed now, and :class:`NotYourTurn` when ``side``
    is not the side to roll (S3).
    """
    if game.phase == GamePhase.ROLL_OFF:
        raise WrongPhase("No offer during the roll-off (S3).",
                         details={"phase": game.phase, "reason": "roll_off"})
    if game.phase == GamePhase.MOVE:
        raise WrongPhase("Offers come before rolling (S3); the dice are rolled.",
                         details={"phase": game.phase, "reason": "dice_rolled"})
    if game.phase in (GamePhase.OFFER, GamePhase.RESIGN):
        raise WrongPhase("An offer is waiting for its answer (S3).",
                         details={"phase": game.phase, "reason": "offer_waiting"})
    if game.phase != GamePhase.ROLL:
        raise WrongPhase("The game is over.", details={"phase": game.phase})
    if game.turn != color_of(side):
        raise NotYourTurn(f"Only the side to roll may offer; it is {game.turn}'s turn (S3).",
                          details={"turn": game.turn})
    holder = game.may_offer()
    reason = game.no_offer_reason()
    if reason is not None:
        raise WrongPhase(_NO_OFFER_MESSAGES[reason], details={
            "phase": game.phase, "reason": reason, "may_offer": holder})
    if not stakes.holds_the_right(holder, color_of(side)):
        raise WrongPhase(f"Only {holder}, who accepted the last raise, may offer the next "
                         "(S2).", details={"phase": game.phase, "reason": "not_holder",
                                           "may_offer": holder})
    stake = game.offered_stake
    game.offer_by = color_of(side)
    game.offers = [*game.offers, {"before_turn": game.turns + 1, "by": game.offer_by,
                                  "stake": stake, "answer": None}]
    game.phase, game.turn = GamePhase.OFFER, color_of(other(side))
    change.touch(game)
    change.log("offer", game=game.number, side=game.offer_by, stake=stake)
    return stake


def _answered(game: Game, answer: str) -> tuple[Side, int]:
    """Mark the waiting offer answered; the offerer and the value it offered."""
    if game.phase != GamePhase.OFFER or not game.offer_by:
        raise WrongPhase("No offer is waiting for an answer.", details={"phase": game.phase})
    offerer, stake = side_of(game.offer_by), game.offered_stake
    game.offers = [*game.offers[:-1], {**game.offers[-1], "answer": answer}]
    game.offer_by = ""
    return offerer, stake


def accept(change: Change, game: Game, side: Side) -> int:
    """S4: ``side`` accepts the waiting offer: the stake moves to the value offered, the
    right to offer next is ``side``'s alone (S2), and the offerer rolls. Returns the new
    stake. Raises :class:`WrongPhase` when no offer waits."""
    offerer, stake = _answered(game, "accept")
    game.stake, game.stake_holder = stake, color_of(side)
    game.phase, game.turn = GamePhase.ROLL, color_of(offerer)
    change.touch(game)
    change.log("accept", game=game.number, side=color_of(side), stake=stake)
    return stake


def refuse(change: Change, game: Game, side: Side) -> None:
    """S4: ``side`` refuses the waiting offer and loses the game at once; the offerer
    scores the stake as it was before the offer, times 1 (result ``refused``).
    Raises :class:`WrongPhase` when no offer waits."""
    offerer, offered = _answered(game, "refuse")
    change.log("refuse", game=game.number, side=color_of(side), stake=game.stake,
               offered=offered)
    end_game(change, game, Outcome(offerer, 1, "single"), EndReason.REFUSED, Result.REFUSED)


def game_points(match: Match, game: Game, outcome: Outcome, reason: str) -> tuple[int, bool]:
    """S6: what a game scores and whether it counts as more than a single game.

    ``cube`` (and no stakes, where the stake stays 1): the stake times the R29/H15 points
    (R30/H16 for a resignation). ``dave``: the stake, no mars, gammon or koks, also for
    a resignation. A refused offer (S4): the stake before the offer, times 1.
    """
    return stakes.game_points(match.stakes, stake=game.stake, points=outcome.points,
                              mars=outcome.mars, refused=reason == EndReason.REFUSED)


# --- the end of a game -------------------------------------------------------------------


def end_game(change: Change, game: Game, outcome: Outcome, reason: str,
             result: str | None = None, *, forfeit: Side | None = None) -> None:
    """Score the game (R29/H15; R30/H16 for a resignation; times the stake, S6), then end
    the match (R31/H17) or start the next game (R8/H5), marking the Crawford game (S7).
    ``forfeit``: the side that abandoned the match, which ends now whatever the score."""
    match = change.match
    points, mars = game_points(match, game, outcome, reason)
    game.winner = color_of(outcome.winner)
    game.points_won, game.mars = points, mars
    game.result = result or (outcome.result if stakes.mars_counts(match.stakes) else "single")
    game.end_reason = reason
    game.finished_at = change.now
    game.phase, game.turn, game.offer_by = GamePhase.FINISHED, "", ""
    game.dice, game.turn_key, game.current_turn = None, "", None
    change.touch(game)
    if outcome.winner == WHITE:
        match.score_white += points
    else:
        match.score_black += points
    score = {"white": match.score_white, "black": match.score_black}
    change.log("game_over", game=game.number, winner=game.winner, points=points,
               mars=mars, result=game.result, reason=reason, stake=game.stake, score=score,
               **dice.reveal(game))
    winner = match_winner((match.score_white, match.score_black), match.length)
    if winner is None and forfeit is not None:
        winner = other(forfeit)
    if winner is not None:
        match.status, match.winner, match.finished_at = (
            MatchStatus.FINISHED, color_of(winner), change.now)
        # A forfeit (abandoned, or the match resigned) says why the match ended early.
        change.log("match_over", winner=match.winner, score=score,
                   **({"reason": reason} if forfeit is not None else {}))
        return
    if stakes.crawford_follows(match.stakes, length=match.length,
                               score=(match.score_white, match.score_black),
                               crawford_game=match.crawford_game):
        match.crawford_game = game.number + 1  # S7: once per match
    loser = other(outcome.winner)
    starter = None if match.ruleset.later_games == "roll_off" else loser  # H5 / R8
    new_game(change, game.number + 1, starter)


def resign(change: Change, game: Game, resigning: Side,
           reason: str = EndReason.RESIGNED, *, whole_match: bool = False) -> None:
    """``resigning`` concedes the game (R30/H16) with the points the position gives now;
    a turn in progress ends here. ``reason``: ``resigned``, or ``claimed`` / ``abandoned``
    for the clock's resignations (:func:`claim`, :func:`abandon`), which log their own
    event instead of ``resign``; ``abandoned`` ends the match too, as does
    ``whole_match`` (a player resigning the match, not only the game)."""
    _close_resigned_turn(change, game)
    if reason == EndReason.RESIGNED:
        change.log("resign", game=game.number, side=color_of(resigning),
                   **({"match": True} if whole_match else {}))
    outcome = change.match.ruleset.resign_outcome(game.position, resigning)
    end_game(change, game, outcome, reason, Result.RESIGNED,
             forfeit=resigning if reason == EndReason.ABANDONED or whole_match else None)


def _close_resigned_turn(change: Change, game: Game) -> None:
    """A turn in progress ends with the game that a resignation ends (nothing more is
    played in it); its side's first turn is used up."""
    record = game.current_turn
    if record is not None:
        record.position_after = game.position_key
        record.finished_at = change.now
        _first_turn_used(game, side_of(record.side))
        change.touch(record)


# --- resignation offers (R30/H16 with a choice) ------------------------------------------------


def resign_conceded(match: Match, game: Game, side: Side) -> Outcome:
    """What ``side`` resigning now concedes (R30/H16), as a result that counts: a single
    with ``dave`` stakes, where a win never counts as more (S6)."""
    conceded = match.ruleset.resign_outcome(game.position, side)
    if not stakes.mars_counts(match.stakes):
        return Outcome(conceded.winner, 1, "single")
    return conceded


def resign_options(match: Match, game: Game, side: Side) -> tuple[Outcome, ...]:
    """The results ``side`` may offer to resign with in the position now: the rule set's
    results from ``single`` up to, not including, what a resignation would concede now
    (R30/H16, :func:`nardy.resign_offers`: offering as much is resigning); none with
    ``dave`` stakes (S6) or where resigning concedes a single. Whether an offer may be
    made now is :func:`resign_offer`'s."""
    return resign_offers(match.ruleset.descriptor.results, resign_conceded(match, game, side))


def resign_offer_turn(game: Game) -> int:
    """The number of the side to act's turn a resignation offer now belongs to: the next
    turn before the roll, the turn being played after it."""
    return game.turns + 1 if game.phase == GamePhase.ROLL else game.turns


def resign_offer_refusal(game: Game, side: Side, result_points: int) -> dict[str, object] | None:
    """The refused offer of ``side`` in this same turn of its (before or after the roll)
    that was worth ``result_points`` or more, if any: the same or a cheaper result may
    not be offered again until the opponent has played a turn."""
    turn, colour = resign_offer_turn(game), color_of(side)
    for made in game.resign_offers:
        if (made.get("answer") == "refuse" and made["by"] == colour and made["turn"] == turn
                and made["result_points"] >= result_points):
            return dict(made)
    return None


def resign_offer_problem(game: Game, side: Side) -> WrongPhase | NotYourTurn | None:
    """Why ``side`` may not offer a resignation now, or ``None``: only at its own turn,
    before the roll or after it with no step played yet (not in the middle of moving),
    with no offer waiting."""
    if game.phase in (GamePhase.OFFER, GamePhase.RESIGN):
        return WrongPhase("An offer is waiting for its answer.",
                          details={"phase": game.phase, "reason": "offer_waiting"})
    if game.phase == GamePhase.ROLL_OFF:
        return WrongPhase("No resignation offer during the roll-off: resign instead.",
                          details={"phase": game.phase, "reason": "roll_off"})
    if game.phase not in (GamePhase.ROLL, GamePhase.MOVE):
        return WrongPhase("The game is over.", details={"phase": game.phase})
    if game.turn != color_of(side):
        return NotYourTurn("A resignation is offered at one's own turn; it is "
                           f"{game.turn}'s turn.", details={"turn": game.turn})
    record = game.current_turn
    if game.phase == GamePhase.MOVE and record is not None and record.steps:
        return WrongPhase("A resignation is offered before or after the roll, not in the "
                          "middle of moving: finish the turn first, or resign.",
                          details={"phase": game.phase, "reason": "moving"})
    return None


def resign_offer(change: Change, game: Game, side: Side, result: str) -> Outcome:
    """``side`` offers to resign the game with ``result`` (a name of the rule set's
    results), worth less than a resignation concedes now and never less than a single
    (R30/H16, :func:`resign_options`), times the stake (S6). The game waits for the
    opponent's answer (phase ``resign``, the opponent in ``turn``); the turn it
    interrupts keeps its dice. Returns the outcome offered.

    Raises, in this order: :class:`WrongPhase` / :class:`NotYourTurn` when no offer may
    be made now (:func:`resign_offer_problem`); :class:`InvalidRequest` for a result the
    rule set does not have; :class:`ResignOfferTooHigh` for one worth as much as resigning
    concedes, or more; :class:`ResignOfferRepeated` for the same or a cheaper result than one
    the opponent refused in this turn.
    """
    problem = resign_offer_problem(game, side)
    if problem is not None:
        raise problem
    match = change.match
    options = resign_options(match, game, side)
    names = match.ruleset.results
    if result not in names:
        message = f"{match.ruleset.title} has no result {result!r}; it has {', '.join(names)}."
        raise InvalidRequest(message, details={"offer": [message]})
    offered = next((o for o in options if o.result == result), None)
    if offered is None:
        conceded = resign_conceded(match, game, side).result
        raise ResignOfferTooHigh(
            f"Resigning now concedes a {conceded}: offer less than that, or resign.",
            details={"offer": result, "conceded": conceded,
                     "most": options[-1].result if options else None,
                     "offers": [o.result for o in options]})
    refused = resign_offer_refusal(game, side, offered.points)
    if refused is not None:
        raise ResignOfferRepeated(
            f"{color_of(other(side)).title()} refused a {refused['result']} in this turn: offer "
            "more, or wait until they have played a turn.",
            details={"offer": result, "refused": refused["result"]})
    points, _mars = game_points(match, game, offered, EndReason.RESIGNED)
    entry = {"turn": resign_offer_turn(game), "during": game.phase, "by": color_of(side),
             "result": offered.result, "result_points": offered.points, "points": points,
             "answer": None}
    game.resign_offers = [*game.resign_offers, entry]
    game.phase, game.turn = GamePhase.RESIGN, color_of(other(side))
    change.touch(game)
    change.log("resign_offer", game=game.number, side=color_of(side), result=offered.result,
               points=points, turn=entry["turn"], during=entry["during"])
    return offered


def _resign_answered(game: Game, answer: str) -> dict[str, object]:
    """Mark the waiting resignation offer answered; the offer as it was made."""
    waiting = game.waiting_resign_offer()
    if waiting is None:
        raise WrongPhase("No resignation offer is waiting for an answer.",
                         details={"phase": game.phase})
    game.resign_offers = [*game.resign_offers[:-1], {**waiting, "answer": answer}]
    return waiting


def resign_accept(change: Change, game: Game, side: Side) -> None:
    """``side`` accepts the waiting resignation offer: the game ends as the offerer's
    resignation (end reason ``resigned``) with the result offered — ``single``, ``mars``,
    ``gammon``, … — and its points times the stake (S6); a turn in progress ends here.
    Raises :class:`WrongPhase` when no resignation offer waits."""
    made = _resign_answered(game, "accept")
    result, worth = str(made["result"]), int(cast(int, made["result_points"]))
    change.log("resign_answer", game=game.number, side=color_of(side), answer="accept",
               result=result, points=made["points"])
    _close_resigned_turn(change, game)
    end_game(change, game, Outcome(side, worth, result), EndReason.RESIGNED, result)


def resign_refuse(change: Change, game: Game, side: Side) -> None:
    """``side`` refuses the waiting resignation offer: play goes on exactly where it
    stopped — the offerer to roll, or to play the dice it rolled. Raises
    :class:`WrongPhase` when no resignation offer waits."""
    made = _resign_answered(game, "refuse")
    game.phase, game.turn = str(made["during"]), str(made["by"])
    change.touch(game)
    change.log("resign_answer", game=game.number, side=color_of(side), answer="refuse",
               result=made["result"], points=made["points"])


def claim(change: Change, game: Game, claimer: Side, late: Side) -> None:
    """``claimer`` claims the game of ``late``, whose deadline has passed; the
    late side loses it as a resignation (R30/H16, times the stake). The caller checks
    the clock."""
    deadline = change.match.deadline
    change.log("claim", game=game.number, side=color_of(claimer), late=color_of(late),
               deadline=iso_time_or_none(deadline))
    resign(change, game, late, EndReason.CLAIMED)


def abandon(change: Change, game: Game, late: Side, by: str) -> None:
    """``late`` has abandoned the match (late by more than the clock allows):
    it loses the current game as a resignation and the match with it. ``by``: what
    settled it (``sweep`` or ``request``)."""
    deadline = change.match.deadline
    change.log("abandoned", game=game.number, side=color_of(late), by=by,
               deadline=iso_time_or_none(deadline))
    resign(change, game, late, EndReason.ABANDONED)


__all__ = [
    "MAX_TURNS_PER_GAME",
    "NO_LEGAL_MOVE",
    "AppliedStep",
    "Change",
    "RollOff",
    "TurnResult",
    "abandon",
    "accept",
    "claim",
    "end_game",
    "game_points",
    "legal_steps_json",
    "new_game",
    "offer",
    "play",
    "refuse",
    "resign",
    "resign_accept",
    "resign_offer",
    "resign_options",
    "resign_refuse",
    "roll_off",
    "settle",
    "start_first_game",
    "start_turn",
    "step_json",
]
