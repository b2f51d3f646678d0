"""The import of a match record: a service that rebuilds a finished match.

In one transaction it plays the record's games through the one turn path
(:mod:`games.transitions`) with the record's dice, so an imported match is
indistinguishable from one played online (``verify_games`` replays it), and refuses,
naming the line, anything the rules reject. The text is read by the engine
(:mod:`nardy.record`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.db import transaction

from accounts.models import User
from games import transitions
from games.exceptions import InvalidRequest
from games.models import (
    MATCH_LENGTHS,
    Game,
    GamePhase,
    Match,
    MatchStatus,
    Progression,
    Stakes,
    color_of,
    side_of,
)
from games.permissions import require_active_players
from games.replay import StepRefused, WrongStake, offer_and_answer, play_turn
from games.unit_of_work import Change
from nard_site.domain import DomainError
from nardy import DEFAULT_RULES, RULESETS, WHITE, AskedStep, Side, other, side_name
from nardy.record import (
    MATCH_RESULT,
    GameRecord,
    GameResultLine,
    MatchRecord,
    OfferLine,
    RecordError,
    TurnLine,
    bear_off_die,
    parse_record,
)
from nardy.stakes import mars_counts, progression_allowed


class RecordRefused(InvalidRequest):
    """A record that cannot be read or that the rules reject; ``details.line`` says where."""

    def __init__(self, error: RecordError) -> None:
        super().__init__(str(error), details={"line": error.line, "reason": error.reason,
                                              "record": [error.text]})
        self.line = error.line


def _header_user(record: MatchRecord, key: str) -> User:
    found = record.header(key)
    if found is None:
        raise RecordError(1, f"the record has no '{key.capitalize()}:' line")
    line, name = found
    user = User.objects.named(name).first()
    if user is None:
        raise RecordError(line, f"no player named {name!r}")
    return user


def _header_length(record: MatchRecord) -> int:
    found = record.header("length")
    if found is None:
        raise RecordError(1, "the record has no 'Length:' line")
    line, text = found
    if not text.isdigit() or int(text) not in MATCH_LENGTHS:
        raise RecordError(line, "a match is 1, 3, 5 or 7 points (R31)")
    return int(text)


def _header_rules(record: MatchRecord) -> str:
    found = record.header("rules")
    if found is None:
        return DEFAULT_RULES
    line, text = found
    if text not in RULESETS:
        raise RecordError(line, f"no rule set {text!r} (known: {', '.join(RULESETS)})")
    return text


def _header_choice(record: MatchRecord, name: str, known: list[str], default: str
                   ) -> tuple[int | None, str]:
    """Header ``name``'s line and value (case-insensitive), one of ``known``; no line
    and ``default`` when absent."""
    found = record.header(name)
    if found is None:
        return None, default
    line, value = found[0], found[1].lower()
    if value not in known:
        raise RecordError(line, f"no {name} {found[1]!r} (known: {', '.join(known)})")
    return line, value


def _header_stakes(record: MatchRecord) -> tuple[str, str]:
    """``Stakes:`` and ``Progression:`` (S1-S7); none and geometric when absent."""
    _, stakes = _header_choice(record, "stakes", Stakes.values, Stakes.NONE)
    line, progression = _header_choice(record, "progression", Progression.values,
                                       Progression.GEOMETRIC)
    if not progression_allowed(stakes, progression):
        assert line is not None  # arithmetic is never the default
        raise RecordError(line, "the arithmetic progression is for dave only (S4)")
    return stakes, progression


def _offer(change: Change, game: Game, offer: OfferLine) -> None:
    """An offer and its answer (S2-S5, S7), as a stored one is replayed
    (:func:`games.replay.offer_and_answer`)."""
    if offer.answer_side is not None and offer.answer_side == offer.side:
        raise RecordError(offer.answer_line, "the offerer's opponent answers (S4)",
                          reason="offer")
    try:
        offer_and_answer(change, game, offer.side, offer.stake, offer.answer)
    except WrongStake as wrong:
        raise RecordError(offer.line, f"the next stake is {wrong.stake} (S4)",
                          reason="offer") from None
    except DomainError as exc:
        raise RecordError(offer.line, exc.message, reason="offer") from None


def _header_date(record: MatchRecord) -> dt.datetime | None:
    found = record.header("date")
    if found is None:
        return None
    line, text = found
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise RecordError(line, "the date reads YYYY-MM-DD", reason="notation") from None
    if day > dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1):
        raise RecordError(line, "the date is in the future")
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def _header_hotseat(record: MatchRecord, same_player: bool) -> bool:
    found = record.header("hotseat")
    hotseat = False
    if found is not None:
        line, text = found
        if text.lower() not in ("yes", "no"):
            raise RecordError(line, "Hotseat is yes or no")
        hotseat = text.lower() == "yes"
    if same_player and not hotseat:
        line = record.headers["black"][0]
        raise RecordError(line, "White and Black are the same player: add 'Hotseat: yes'")
    return hotseat


def _roll_off(change: Change, game: Game, record: GameRecord,
              opening: TurnLine | None) -> None:
    """R7/H4 from the record's dice, through the one turn path. Backgammon's opening
    dice are the first turn's (``opening``: the record's turn 1, whose dice they are)."""
    line = record.roll_off_line
    for index, (white, black) in enumerate(record.roll_offs):
        last = index == len(record.roll_offs) - 1
        if (white == black) != (not last):
            raise RecordError(line, "every roll-off but the last is a tie, and the last is "
                                    "not (R7)", reason="roll_off")
        transitions.roll_off(change, game, WHITE, white)
        transitions.roll_off(change, game, 1 - WHITE, black)
    white, black = record.roll_offs[-1]
    starter: Side = WHITE if white > black else 1 - WHITE
    if record.starter_line and record.starter != starter:
        raise RecordError(record.starter_line, f"the roll-off makes {side_name(starter)} the "
                                               "starter (R7)", reason="roll_off")
    if opening is not None and sorted(opening.dice) != sorted((white, black)):
        raise RecordError(opening.line, "the first turn plays the roll-off dice (H4)",
                          reason="roll_off")


def _play_turn(change: Change, game: Game, line: TurnLine, resigns_next: bool) -> None:
    """One turn, as a stored one is replayed (:func:`games.replay.play_turn`, through
    :mod:`games.transitions`, exactly as the live services play it)."""
    where = line.line
    if game.is_over:
        raise RecordError(where, f"game {game.number} is over (R28): no turn after the "
                                 "fifteenth checker is off", reason="game_over")
    if game.phase == GamePhase.ROLL_OFF:
        raise RecordError(where, "nobody has won the roll-off yet: add 'Roll-off:' or "
                                 "'Starter:' (R7)", reason="roll_off")
    expected = game.turns + 1 if game.phase == GamePhase.ROLL else game.turns  # H4 opening
    if line.number != expected:
        raise RecordError(where, f"expected turn {expected}, not {line.number}")
    side = side_of(game.turn)
    if line.side != side:
        raise RecordError(where, f"it is {game.turn}'s turn, not {side_name(line.side)}'s",
                          reason="not_your_turn")
    if line.offer is not None:
        if line.offer.side != side:
            raise RecordError(line.offer.line, "only the side to roll may offer (S3)",
                              reason="offer")
        _offer(change, game, line.offer)
    dice: tuple[int, int] | None = line.dice
    if game.phase != GamePhase.ROLL:  # the opening turn plays the roll-off's dice (H4)
        if game.turns != line.number or sorted(game.dice or ()) != sorted(line.dice):
            raise RecordError(where, "the dice of the first turn are the roll-off's (H4)",
                              reason="roll_off")
        dice = None

    def asked() -> Iterator[AskedStep]:
        """The line's steps, each read when it is played: ``N/off``'s die is the dice
        left then (:func:`nardy.record.bear_off_die`)."""
        for _, wanted in line.steps:
            state = game.turn_state()
            die = bear_off_die(wanted, state.dice_left) if state is not None else wanted.die
            yield AskedStep(wanted.src, wanted.dst, die or None)

    try:
        result = play_turn(change, game, dice, asked())
    except StepRefused as refused:
        index, exc = refused.index, refused.error
        text = line.steps[index - 1][0]
        if exc is None:
            raise RecordError(where, f"step {index} ({text}) is illegal: the turn is over",
                              reason="turn_over") from None
        raise RecordError(where, f"step {index} ({text}) is illegal: "
                                 f"{getattr(exc.__cause__, 'message', exc.message)}",
                          reason=exc.details.get("reason", "illegal_move")) from None
    except DomainError as exc:  # the roll
        raise RecordError(where, exc.message) from None
    state = result.state
    if line.pass_reason is not None:
        if not result.passed:
            why = ("the game is over" if game.is_over
                   else "every die was played" if state is None
                   else f"{' '.join(str(s) for s in state.legal_steps())} can still be played")
            raise RecordError(where, f"a pass the rules do not allow: {why} (R23)",
                              reason="unjustified_pass")
        if line.pass_reason.lower() != transitions.NO_LEGAL_MOVE:
            raise RecordError(where, f"the only reason to pass is {transitions.NO_LEGAL_MOVE!r} "
                                     "(R23)", reason="unjustified_pass")
    if state is not None and not resigns_next:
        still = " ".join(str(s) for s in state.legal_steps())
        raise RecordError(where, f"the turn stops while {still} can still be played "
                                 "(R19-R21)", reason="incomplete_turn")


def _finish_game(change: Change, match: Match, game: Game, record: GameRecord) -> None:
    result = record.result
    if result is None:
        raise RecordError(record.last_line, f"game {game.number} has no 'Result:' line")
    final = record.final_offer
    if final is not None:
        if game.is_over:
            raise RecordError(final.line, "the game was already won on the board (R28/H14)",
                              reason="game_over")
        if (final.answer == "refuse") != (result.refused is not None) or (
                final.answer is None and result.resigned is None):
            raise RecordError(result.line, "a refused offer ends the game with '<side> "
                                           "refuses, ...' (S4)", reason="wrong_result")
        _offer(change, game, final)
    elif result.refused is not None:
        raise RecordError(result.line, "no offer was refused (S4)", reason="wrong_result")
    if result.resigned is not None:
        if game.is_over:
            raise RecordError(result.line, "the game was already won on the board (R28/H14)",
                              reason="game_over")
        _resign(change, match, game, result)
    elif not game.is_over:
        raise RecordError(result.line, "the game is not over: neither side has won it on the "
                                       "board (R28/H14)", reason="game_not_over")
    stored = (side_of(game.winner), game.points_won, game.mars)
    if stored != (result.winner, result.points, result.mars):
        shown = "" if not game.mars else f" ({game.conceded()})"
        raise RecordError(result.line, f"the rules give {game.winner} {game.points_won} "
                                       f"point(s){shown} (R29-R30, H15-H16)",
                          reason="wrong_result")
    if result.resigned is None and result.refused is None and result.name != game.result:
        raise RecordError(result.line, f"the rules call this game {game.result} (H15)",
                          reason="wrong_result")
    if result.stake != game.stake:
        raise RecordError(result.line, f"the game's stake is {game.stake} (S1-S5)",
                          reason="wrong_result")
    score = (match.score_white, match.score_black)
    if result.score is not None and result.score != score:
        raise RecordError(result.line, f"the score is {score[0]}-{score[1]}",
                          reason="wrong_result")


def _resign(change: Change, match: Match, game: Game, result: GameResultLine) -> None:
    """The resignation that ends a recorded game: as R30/H16 concede it, or — a cheaper
    result than the position gives, where marses count (S6) — an offer to resign with
    that result, accepted (the offer's own checks apply: at the turn's start, no more
    than the position gives)."""
    resigned = result.resigned
    assert resigned is not None
    conceded = match.ruleset.resign_outcome(game.position, resigned)
    if not mars_counts(match.stakes) or result.name == conceded.result:
        transitions.resign(change, game, resigned)
        return
    try:
        transitions.resign_offer(change, game, resigned, result.name)
    except DomainError as exc:
        raise RecordError(result.line, f"{side_name(resigned)} cannot resign with a "
                                       f"{result.name} here: {exc.message}",
                          reason="wrong_result") from None
    transitions.resign_accept(change, game, other(resigned))


def _check_match_result(record: MatchRecord, match: Match) -> None:
    found = record.header("result")
    if match.status != MatchStatus.FINISHED:
        raise RecordError(record.last_line, f"the record ends before the match is over: "
                                f"{match.score_white}-{match.score_black} of {match.length} "
                                "(only finished matches are imported)", reason="unfinished")
    if found is None:
        return
    line, text = found
    written = MATCH_RESULT.fullmatch(text)
    if not written:
        raise RecordError(line, "the match result reads like 'white wins 3-1' (White's score "
                                "first)", reason="notation")
    winner, white, black = written.groups()
    if (winner.lower(), int(white), int(black)) != (
            match.winner, match.score_white, match.score_black):
        raise RecordError(line, f"the games give {match.winner} wins "
                                f"{match.score_white}-{match.score_black}",
                          reason="wrong_result")


def match_import(*, text: str, by: User | None = None) -> Match:
    """Rebuild a finished match from its text record (one transaction, all or nothing).

    The match, its games, per-move records and events are written by the one turn path
    the online services use; the ``match_created`` event carries ``imported: true`` and
    the importer's name (``by``; the record's White player when not given). Raises
    :class:`RecordRefused` (400 ``validation_error`` with ``details.line``) for a record
    that cannot be read or that the rules reject.
    """
    try:
        with transaction.atomic():
            return _import(text, by)
    except RecordError as exc:
        raise RecordRefused(exc) from None


def _import(text: str, by: User | None) -> Match:
    record = parse_record(text)
    white, black = _header_user(record, "white"), _header_user(record, "black")
    require_active_players([white, black])
    length = _header_length(record)
    rules = _header_rules(record)
    stakes, progression = _header_stakes(record)
    hotseat = _header_hotseat(record, white.pk == black.pk)
    started = _header_date(record)
    if not record.games:
        raise RecordError(record.last_line or 1, "the record has no games")
    by = by or white
    match = Match(created_by=by, white=white, black=black, length=length, hotseat=hotseat,
                  rules=rules, stakes=stakes, progression=progression,
                  status=MatchStatus.ACTIVE, version=0)  # the commit makes it 1
    change = Change(match, commit_dice=False)  # the record's dice are played
    # The importer is not a player: the match reads as created by its White player.
    change.log("match_created", length=length, rules=rules, hotseat=hotseat, stakes=stakes,
               progression=progression, by=white.username, white=white.username,
               black=black.username, invited=None, rematch_of=None, imported=True,
               imported_by=by.username)
    transitions.start_first_game(change)
    if started is not None:
        match.started_at = started
    for game_record in record.games:
        game = match.current_game
        if match.status != MatchStatus.ACTIVE or game is None:
            raise RecordError(game_record.line, f"the match was over after game "
                                                f"{game_record.number - 1} (R31)",
                              reason="match_over")
        if game.phase == GamePhase.ROLL_OFF:
            if game_record.roll_offs:
                opening = (game_record.turns[0] if game_record.turns
                           and match.ruleset.opening == "roll_off_played" else None)
                _roll_off(change, game, game_record, opening)
            elif game_record.starter is not None and match.ruleset.opening == "roll_off":
                game.starter = game.turn = color_of(game_record.starter)
                game.phase = GamePhase.ROLL
        else:
            if game_record.roll_offs:
                raise RecordError(game_record.roll_off_line, "only the first game has a "
                                                             "roll-off (R8)", reason="roll_off")
            if game_record.starter_line and (game_record.starter is None or color_of(
                    game_record.starter) != game.starter):
                raise RecordError(game_record.starter_line, f"the loser of game "
                                                            f"{game.number - 1} ({game.starter}) "
                                                            "starts this game (R8)",
                                  reason="starter")
        resigning = game_record.result is not None and game_record.result.resigned is not None
        for index, turn_line in enumerate(game_record.turns):
            last = index == len(game_record.turns) - 1
            _play_turn(change, game, turn_line, resigns_next=last and resigning)
        _finish_game(change, match, game, game_record)
    _check_match_result(record, match)
    return change.commit()
