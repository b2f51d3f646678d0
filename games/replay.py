"""A stored game's per-move records, replayed: the one walk from records to turns.

:class:`GameReplay` plays a game's records (its ``Turn`` rows: dice and steps, and the
game's offers to raise the stake and to resign, with their answers) through the one
turn path (:mod:`games.transitions`) on an in-memory copy of the game that is never
written, so a stored game is read back by exactly the code that played it. Each turn
comes out as the engine's values (:class:`ReplayedTurn`: the position before and after,
the side, its first-turn flag, the dice, the steps, the stake, the offers made before its
roll); the first record the rules refuse raises :class:`ReplayError` saying where.

Every reader of a stored game walks it here: ``manage.py verify_games``
(:func:`replay_problems`, which compares the replay with the stored snapshot), the
positions of a game's replay (:func:`games.selectors.game_positions_json`) and the game
review's inputs (``reviews.inputs``). The import of a text record
(:mod:`games.importing`) plays each of its turns and offers by the same two functions,
:func:`play_turn` and :func:`offer_and_answer`: a record, stored or written, becomes a
turn one way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games import transitions
from games.models import RESIGNATIONS, Game, GamePhase, Match, MatchStatus, side_of
from games.models import Turn as TurnRecord
from games.transitions import TurnResult
from games.unit_of_work import Change
from nard_site.domain import DomainError
from nardy import AskedStep, BoardPosition, Side, Step, other

_NO_LIMIT = 10**6  # the copy's match length: the replayed game never ends the match


class ReplayError(ValueError):
    """A record the rules refuse: ``where`` it is (``turn 3``, ``turn 3, step 2``, ``after
    turn 40``), ``turn`` its number (0 when after the turns) and ``message`` why."""

    def __init__(self, where: str, message: str, turn: int = 0) -> None:
        super().__init__(f"{where}: {message}")
        self.where, self.message, self.turn = where, message, turn


class StepRefused(Exception):
    """Step ``index`` (1-based) of a recorded turn is refused: by the rules (``error``,
    the transition's refusal), or because the turn was over before it (``error`` None)."""

    def __init__(self, index: int, error: DomainError | None) -> None:
        super().__init__(error.message if error is not None else "the turn is over")
        self.index, self.error = index, error


class WrongStake(ValueError):
    """A recorded offer names another stake than the rules' next, ``stake`` (S4)."""

    def __init__(self, stake: int) -> None:
        super().__init__(f"the next stake is {stake}")
        self.stake = stake


def play_turn(change: Change, game: Game, dice: tuple[int, int] | None,
              steps: Iterable[AskedStep]) -> TurnResult:
    """A recorded turn through the one turn path: its ``dice`` rolled (``None``: they are
    already, backgammon's opening turn plays the roll-off's, H4), then its ``steps`` one
    at a time, each taken from ``steps`` only after the one before is played. Raises
    the roll's :class:`DomainError`, or :class:`StepRefused` naming the step."""
    if dice is not None:
        result = transitions.start_turn(change, game, dice)
    else:
        result = TurnResult(game.turn_state())
    for index, step in enumerate(steps, start=1):
        if result.state is None:
            raise StepRefused(index, None)
        try:
            result = transitions.play(change, game, [step])
        except DomainError as exc:
            raise StepRefused(index, exc) from exc
    return result


def offer_and_answer(change: Change, game: Game, by: Side, stake: int,
                     answer: str | None) -> None:
    """A recorded offer of ``stake`` by ``by`` and its answer (``accept``, ``refuse``, or
    none yet) through the one turn path (S2-S5, S7). Raises the offer's
    :class:`DomainError`, or :class:`WrongStake` when the rules' next stake differs."""
    offered = transitions.offer(change, game, by)
    if offered != stake:
        raise WrongStake(offered)
    if answer == "accept":
        transitions.accept(change, game, side_of(game.turn))
    elif answer == "refuse":
        transitions.refuse(change, game, side_of(game.turn))


@dataclass(frozen=True)
class ReplayedOffer:
    """An offer to raise the stake (S2-S5, S7) and its answer, as the replay made it."""

    before_turn: int
    by: Side
    stake_before: int
    stake: int
    answer: str | None
    """``accept``, ``refuse``, or ``None`` while it waits (or the game ended on it)."""


@dataclass(frozen=True)
class ReplayedTurn:
    """One turn of a stored game as the replay played it."""

    record: TurnRecord
    number: int
    side: Side
    first_turn: bool
    """Whether it was its side's first turn (R11's head rule, H4)."""
    dice: tuple[int, int]
    steps: tuple[Step, ...]
    """The steps as recorded (a die of 0 where the record names none)."""
    before: BoardPosition
    after: BoardPosition
    """The board after its steps (the game's board now for a turn still being played)."""
    after_key: str
    stake: int
    """The game's stake while it was played (after the offers before its roll)."""
    offers: tuple[ReplayedOffer, ...]
    """The offers made before its roll, in order."""
    complete: bool
    """Every die the rules allow was played, or the game ended on it."""
    passed: bool
    """It ended on a pass (R23): dice left that nothing can play."""


class GameReplay:
    """The replay of ``game``'s records (module docstring): iterate :meth:`turns`, then
    :meth:`finish` for what follows the last turn; :attr:`game` is the replayed copy."""

    def __init__(self, game: Game) -> None:
        self.stored = game
        match = game.match
        copy = Match(rules=match.rules, length=_NO_LIMIT, status=MatchStatus.ACTIVE,
                     version=0, hotseat=match.hotseat, stakes=match.stakes,
                     progression=match.progression, crawford_game=match.crawford_game)
        if match.length == 1:
            copy.length = 1  # S7: a 1-point match has no offers
        self.change = Change(copy, commit_dice=False)  # the record's dice are played
        starter = side_of(game.starter) if game.starter else None
        self.game = transitions.new_game(self.change, game.number, starter)  # the roll-off
        self.records = list(game.turn_records.order_by("number"))
        self.offers: list[dict[str, Any]] = list(game.offers)
        """The stored offers not replayed yet."""
        self.resign_offers: list[dict[str, Any]] = list(game.resign_offers)
        """The stored resignation offers not replayed yet."""
        self.final_offers: tuple[ReplayedOffer, ...] = ()
        """The offers after the last turn (:meth:`finish`): one refused ends the game."""

    @property
    def resigned(self) -> bool:
        """The stored game ended by a resignation (by the player, or on the clock)."""
        return self.stored.end_reason in RESIGNATIONS

    def turns(self) -> Iterator[ReplayedTurn]:
        """Each recorded turn, replayed; raises :class:`ReplayError` at the first the
        rules refuse."""
        replayed = self.game
        for expected, record in enumerate(self.records, start=1):
            where = f"turn {record.number}"
            if record.number != expected:
                raise ReplayError(where, f"expected turn number {expected}", expected)
            if replayed.is_over:
                raise ReplayError(where, "the game was already over", expected)
            side = side_of(replayed.turn)
            if side_of(record.side) != side:
                raise ReplayError(where, f"it was {replayed.turn}'s turn, not {record.side}'s",
                                  expected)
            try:
                offers = self._offers(expected)
                if replayed.is_over:
                    raise ReplayError(where, "the game was already over", expected)
                self._resign_offers(expected, GamePhase.ROLL)
                before, first, stake = replayed.position, replayed.first_turn(side), replayed.stake
                dice = (int(record.dice[0]), int(record.dice[1]))
                asked = (AskedStep(s["from"], s["to"], s["die"]) for s in record.steps)
                if self._resign_offers_at(expected, GamePhase.MOVE):
                    # Offers to resign after the roll, before any step: roll, answer, play.
                    # One accepted ends the game there: the roll is left unplayed, as a
                    # resignation leaves it (the turn is not complete).
                    rolled = transitions.start_turn(self.change, replayed, dice)
                    self._resign_offers(expected, GamePhase.MOVE)
                    if replayed.is_over and record.steps:
                        raise StepRefused(1, None)
                    result = (rolled if replayed.is_over
                              else play_turn(self.change, replayed, None, asked))
                else:
                    result = play_turn(self.change, replayed, dice, asked)
                steps = tuple(Step(int(s["from"]), int(s["to"]), int(s.get("die") or 0))
                              for s in record.steps)
            except StepRefused as refused:
                raise ReplayError(f"{where}, step {refused.index}", str(refused),
                                  expected) from None
            except (DomainError, ValueError, KeyError, IndexError, TypeError) as exc:
                if isinstance(exc, ReplayError):
                    raise
                message = getattr(exc, "message", None) or str(exc)
                raise ReplayError(where, message, expected) from None
            yield ReplayedTurn(record, expected, side, first, dice, steps, before,
                               replayed.position, replayed.position_key, stake, offers,
                               complete=result.state is None, passed=result.passed)

    def finish(self) -> None:
        """After the last turn: the offers that follow it (:attr:`final_offers`), and the
        resignation that ended the stored game, if one did."""
        after = len(self.records)
        try:
            self.final_offers = self._offers(after + 1)
            self._resign_offers(after + 1, GamePhase.ROLL)
        except (DomainError, ValueError) as exc:
            raise ReplayError(f"after turn {after}",
                              str(getattr(exc, "message", None) or exc)) from None
        stored, replayed = self.stored, self.game
        if self.resigned and not replayed.is_over:
            transitions.resign(self.change, replayed,
                               1 - side_of(stored.winner) if stored.winner else 0,
                               stored.end_reason)

    def _offers(self, before_turn: int) -> tuple[ReplayedOffer, ...]:
        """The stored offers that came before turn ``before_turn``, with their answers
        (S2-S5, S7), through the one turn path."""
        game, made = self.game, []
        while self.offers and self.offers[0]["before_turn"] == before_turn:
            offer = self.offers.pop(0)
            by = side_of(offer["by"])
            if by != side_of(game.turn) or game.phase != GamePhase.ROLL:
                raise ValueError(f"an offer by {offer['by']} before turn {before_turn}, "
                                 f"when {game.turn or 'nobody'} was to roll")
            stake_before, answer = game.stake, offer.get("answer")
            try:
                offer_and_answer(self.change, game, by, offer["stake"], answer)
            except WrongStake as wrong:
                raise ValueError(f"an offer of {offer['stake']} where the next stake is "
                                 f"{wrong.stake}") from None
            made.append(ReplayedOffer(before_turn, by, stake_before, int(offer["stake"]),
                                      answer if answer in ("accept", "refuse") else None))
        return tuple(made)


    def _resign_offers_at(self, turn: int, during: str) -> bool:
        first = self.resign_offers[0] if self.resign_offers else None
        return first is not None and first["turn"] == turn and first["during"] == during

    def _resign_offers(self, turn: int, during: str) -> None:
        """The stored resignation offers made in turn ``turn`` before its roll (``during``
        ``roll``) or after it (``move``), with their answers, through the one turn path."""
        game = self.game
        while self._resign_offers_at(turn, during):
            made = self.resign_offers.pop(0)
            by = side_of(made["by"])
            transitions.resign_offer(self.change, game, by, made["result"])
            if made.get("answer") == "accept":
                transitions.resign_accept(self.change, game, other(by))
            elif made.get("answer") == "refuse":
                transitions.resign_refuse(self.change, game, other(by))


def replay_problems(game: Game) -> list[str]:
    """What differs between the replay of ``game``'s turns and what is stored (empty: none)."""
    replay = GameReplay(game)
    replayed, records = replay.game, replay.records
    problems: list[str] = []
    try:
        for turn in replay.turns():
            record, where = turn.record, f"turn {turn.record.number}"
            if record.finished_at is None:
                continue
            resigned_here = replay.resigned and record is records[-1]
            if not turn.complete and not resigned_here:
                problems.append(f"{where}: the record stops while dice can still be played")
            expected_pass = transitions.NO_LEGAL_MOVE if turn.passed else ""
            if record.pass_reason != expected_pass and not resigned_here:
                problems.append(f"{where}: pass reason {record.pass_reason!r}, "
                                f"replay says {expected_pass!r}")
            if record.position_after and record.position_after != turn.after_key:
                problems.append(f"{where}: position after is {record.position_after}, "
                                f"replay gives {turn.after_key}")
        replay.finish()
    except ReplayError as error:  # the first record the rules refuse: nothing after it
        return [str(error)]
    if replay.offers:
        problems.append(f"offers {replay.offers} do not fit the turns")
    if replay.resign_offers or replayed.resign_offers != game.resign_offers:
        problems.append(f"resignation offers {game.resign_offers} differ from the replay's "
                        f"{replayed.resign_offers}")
    if replayed.position_key != game.position_key:
        problems.append(f"snapshot board {game.position_key} differs from the replay "
                        f"{replayed.position_key}")
    if (game.white_first_turn, game.black_first_turn) != (replayed.white_first_turn,
                                                           replayed.black_first_turn):
        problems.append("first-turn flags differ from the replay")
    if game.turns != len(records):
        problems.append(f"snapshot counts {game.turns} turns, {len(records)} are recorded")
    if game.phase == GamePhase.MOVE and game.turn_key != replayed.turn_key:
        problems.append("the turn in progress (dice left, head counter) differs from the replay")
    if (game.stake, game.stake_holder, game.offer_by) != (
            replayed.stake, replayed.stake_holder, replayed.offer_by):
        problems.append(f"stake {game.stake} (right: {game.stake_holder or 'both'}, offer by "
                        f"{game.offer_by or 'nobody'}) differs from the replay's "
                        f"{replayed.stake} ({replayed.stake_holder or 'both'}, "
                        f"{replayed.offer_by or 'nobody'}) (S1-S5)")
    problems += _result_problems(game, replayed)
    return problems


def _result_problems(game: Game, replayed: Game) -> list[str]:
    if not game.end_reason:
        return ["the replay ends the game, but it is still open"] if replayed.is_over else []
    if not replayed.is_over:
        return [f"recorded as {game.end_reason}, but the replay has no winner"]
    stored = (game.winner, game.points_won, game.mars, game.result, game.end_reason,
              game.stake)
    expected = (replayed.winner, replayed.points_won, replayed.mars, replayed.result,
                replayed.end_reason, replayed.stake)
    return [] if stored == expected else [f"result {stored} differs from the replay {expected}"]
