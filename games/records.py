"""Match records: the whole match as plain text or JSON, and the import that rebuilds one.

The text format is documented in ``docs/notation.md`` ("Match record"). In short::

    Long Nardy match record
    White: alice
    Black: bob
    Length: 3
    Date: 2026-05-01
    Result: white wins 4-1

    Game 1
    Roll-off: white 6, black 1
    Starter: white
    1. white 6-5: 24/18 18/13
    2. black 2-1: 24/22 22/21
    3. white 6-6: 24/18 18/12 (pass: no legal move)
    ...
    Result: white wins 2 points (mars), borne off; score 2-0

Scores are written White first. Steps are in the mover's numbering (the engine's
notation); a bear-off with a die larger than the point is written with its die,
``3/off(5)``.

:func:`match_import` is a service: in one transaction it rebuilds the match, its games,
per-move records and event log through the same helpers :mod:`games.services` uses when
the match is played online, so an imported match is indistinguishable from a played
one (``verify_games`` replays it). It refuses, naming the line, anything the rules
reject.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from django.db import transaction
from rest_framework import renderers, serializers

from accounts.models import User
from games import services
from games.engine import (
    BLACK,
    PASS_TEXT,
    WHITE,
    EngineError,
    Side,
    Step,
    TurnState,
    parse_side,
    side_name,
)
from games.exceptions import InvalidRequest
from games.models import (
    MATCH_LENGTHS,
    EndReason,
    Game,
    GamePhase,
    Match,
    MatchStatus,
    Turn,
    color_of,
    side_of,
)
from games.serializers import OutStepSerializer, ScoreSerializer

TITLE: Final = "Long Nardy match record"
FORMAT: Final = "long-nardy-match/1"
"""The ``format`` of the JSON form."""
MAX_LINE: Final = 400
"""No line of a record is longer (a turn of four bear-offs and a pass is about 70)."""


# --- export ------------------------------------------------------------------------------


def step_text(step: Mapping[str, int]) -> str:
    """``{"from": 24, "to": 18, "die": 6}`` → ``"24/18"``; a bear-off with a larger die
    than its point keeps the die: ``"3/off(5)"``."""
    src, dst, die = step["from"], step["to"], step.get("die") or 0
    if dst:
        return f"{src}/{dst}"
    return f"{src}/off" if die in (0, src) else f"{src}/off({die})"


def steps_text(steps: list[Mapping[str, int]]) -> str:
    """A turn's steps in notation; no steps is ``"-"``."""
    return " ".join(step_text(s) for s in steps) if steps else PASS_TEXT


def _name(user: Any) -> str | None:
    return user.username if user is not None else None


def match_record(match: Match) -> dict[str, Any]:
    """The JSON form of the record: everything the text shows, as data (4 queries)."""
    games = list(match.games.order_by("number"))
    turns: dict[int, list[Turn]] = {g.pk: [] for g in games}
    for turn in Turn.objects.filter(game__match=match).order_by("game__number", "number"):
        turns[turn.game_id].append(turn)
    roll_offs: dict[int, list[dict[str, int]]] = {}
    for event in match.events.filter(type="roll_off").order_by("seq"):
        data = event.data
        if data.get("result") in ("tie", "white", "black"):
            roll_offs.setdefault(data.get("game", 1), []).append(
                {"white": data["white"], "black": data["black"]})
    score = {"white": 0, "black": 0}
    game_data = []
    for game in games:
        result = None
        if game.winner:
            score[game.winner] += game.points_won or 0
            loser = "black" if game.winner == "white" else "white"
            result = {
                "winner": game.winner,
                "points": game.points_won,
                "mars": game.mars,
                "end_reason": game.end_reason,
                "resigned": loser if game.end_reason == EndReason.RESIGNED else None,
                "score": dict(score),
            }
        game_data.append({
            "number": game.number,
            "roll_off": roll_offs.get(game.number, []),
            "starter": game.starter or None,
            "turns": [{
                "number": t.number,
                "side": t.side,
                "dice": list(t.dice),
                "steps": list(t.steps),
                "notation": steps_text(t.steps),
                "pass_reason": t.pass_reason or None,
                "position_after": t.position_after or None,
            } for t in turns[game.pk]],
            "result": result,
        })
    started = match.started_at or match.created_at
    return {
        "format": FORMAT,
        "id": match.pk,
        "white": _name(match.white),
        "black": _name(match.black),
        "hotseat": match.hotseat,
        "length": match.length,
        "date": started.astimezone(dt.UTC).date().isoformat() if started else None,
        "status": match.status,
        "winner": match.winner or None,
        "score": {"white": match.score_white, "black": match.score_black},
        "games": game_data,
    }


def _match_result_text(data: Mapping[str, Any]) -> str:
    score = f"{data['score']['white']}-{data['score']['black']}"
    status = data["status"]
    if status == MatchStatus.FINISHED:
        return f"{data['winner']} wins {score}"
    if status == MatchStatus.ACTIVE:
        return f"in progress {score}"
    if status == MatchStatus.ABORTED:
        return f"aborted {score}"
    return "not started"


def _game_result_text(result: Mapping[str, Any]) -> str:
    points = result["points"]
    text = f"{result['winner']} wins {points} point{'s' if points != 1 else ''}"
    if result["mars"]:
        text += " (mars)"
    if result["resigned"]:
        text = f"{result['resigned']} resigns, {text}"
    else:
        text += ", borne off"
    return f"{text}; score {result['score']['white']}-{result['score']['black']}"


def format_record(data: Mapping[str, Any]) -> str:
    """The text form of a record from its JSON form (:func:`match_record`)."""
    lines = [TITLE, f"White: {data['white'] or '?'}", f"Black: {data['black'] or '?'}",
             f"Length: {data['length']}"]
    if data["hotseat"]:
        lines.append("Hotseat: yes")
    if data["date"]:
        lines.append(f"Date: {data['date']}")
    lines.append(f"Result: {_match_result_text(data)}")
    for game in data["games"]:
        lines += ["", f"Game {game['number']}"]
        if game["roll_off"]:
            lines.append("Roll-off: " + "; ".join(f"white {r['white']}, black {r['black']}"
                                                  for r in game["roll_off"]))
        lines.append(f"Starter: {game['starter'] or 'none'}")
        for turn in game["turns"]:
            dice = "-".join(str(d) for d in turn["dice"])
            text = f"{turn['number']}. {turn['side']} {dice}: {turn['notation']}"
            if turn["pass_reason"]:
                text += f" (pass: {turn['pass_reason']})"
            lines.append(text)
        if game["result"]:
            lines.append(f"Result: {_game_result_text(game['result'])}")
    return "\n".join(lines) + "\n"


def record_text(match: Match) -> str:
    """The whole match as the plain-text record of ``docs/notation.md``."""
    return format_record(match_record(match))


# --- parsing ---------------------------------------------------------------------------


class RecordError(InvalidRequest):
    """A record that cannot be read or that the rules reject; ``details.line`` says where."""

    def __init__(self, line: int, message: str, *, reason: str = "invalid_record") -> None:
        super().__init__(f"Line {line}: {message}",
                         details={"line": line, "reason": reason, "record": [message]})
        self.line = line


@dataclass
class TurnLine:
    line: int
    number: int
    side: Side
    dice: tuple[int, int]
    steps: list[tuple[str, Step]]
    pass_reason: str | None


@dataclass
class GameResultLine:
    line: int
    winner: Side
    points: int
    mars: bool
    resigned: Side | None
    score: tuple[int, int] | None


@dataclass
class GameRecord:
    line: int
    number: int
    roll_offs: list[tuple[int, int]] = field(default_factory=list)
    roll_off_line: int = 0
    starter: Side | None = None
    starter_line: int = 0
    turns: list[TurnLine] = field(default_factory=list)
    result: GameResultLine | None = None
    last_line: int = 0


@dataclass
class MatchRecord:
    headers: dict[str, tuple[int, str]] = field(default_factory=dict)
    games: list[GameRecord] = field(default_factory=list)
    last_line: int = 0

    def header(self, key: str) -> tuple[int, str] | None:
        return self.headers.get(key)


_MATCH_HEADERS: Final = ("white", "black", "length", "date", "result", "hotseat")
_GAME_HEADERS: Final = ("roll-off", "starter", "result")
_KEY = re.compile(r"([A-Za-z][A-Za-z-]*)\s*:\s*(.*)")
_GAME = re.compile(r"game\s+(\d+)", re.IGNORECASE)
_TURN = re.compile(r"(\d+)\s*\.\s*(\w+)\s+(\d)\s*-\s*(\d)\s*:\s*(.*)")
_PASS = re.compile(r"(.*?)\s*\(\s*pass\s*:\s*([^()]*?)\s*\)", re.IGNORECASE)
_STEP_DIE = re.compile(r"(.+?)\(\s*(\d)\s*\)")
_ROLL_PAIR = re.compile(r"white\s+(\d)\s*,\s*black\s+(\d)", re.IGNORECASE)
_GAME_RESULT = re.compile(
    r"(?:(white|black)\s+resigns\s*,\s*)?(white|black)\s+wins\s+(\d+)\s+points?"
    r"(\s*\(\s*mars\s*\))?(\s*,\s*borne\s+off)?(?:\s*;\s*score\s+(\d+)\s*-\s*(\d+))?",
    re.IGNORECASE)
_MATCH_RESULT = re.compile(r"(white|black)\s+wins\s*,?\s*(\d+)\s*[-–]\s*(\d+)", re.IGNORECASE)


def _side(text: str, line: int) -> Side:
    try:
        return parse_side(text)
    except ValueError:
        raise RecordError(line, f"{text!r} is not a side: write white or black") from None


def _parse_step(token: str, line: int, index: int) -> Step:
    core, die = token, 0
    annotated = _STEP_DIE.fullmatch(token)
    if annotated:
        core, die = annotated.group(1), int(annotated.group(2))
    try:
        return Step.parse(core, die)
    except EngineError as exc:
        raise RecordError(line, f"step {index} ({token}): {exc}", reason="notation") from None


def _parse_turn(match: re.Match[str], line: int) -> TurnLine:
    number, side_text, d1, d2, rest = match.groups()
    dice = (int(d1), int(d2))
    if not all(1 <= d <= 6 for d in dice):
        raise RecordError(line, f"dice {d1}-{d2}: each die shows 1 to 6", reason="notation")
    pass_reason = None
    passed = _PASS.fullmatch(rest)
    if passed:
        rest, pass_reason = passed.group(1), passed.group(2)
    words = rest.replace(",", " ").split()
    if len(words) == 1 and words[0].lower() in (PASS_TEXT, "pass"):
        words = []
    steps = [(w, _parse_step(w, line, i)) for i, w in enumerate(words, start=1)]
    return TurnLine(line, int(number), _side(side_text, line), dice, steps, pass_reason)


def _parse_game_result(text: str, line: int) -> GameResultLine:
    match = _GAME_RESULT.fullmatch(text)
    if not match:
        raise RecordError(line, "a game's result reads like 'white wins 2 points (mars), borne "
                                "off' or 'black resigns, white wins 1 point'", reason="notation")
    resigned, winner, points, mars, borne_off, score_w, score_b = match.groups()
    if bool(resigned) == bool(borne_off):
        raise RecordError(line, "say how the game ended: ', borne off' or '<side> resigns, '",
                          reason="notation")
    if (int(points), bool(mars)) not in ((1, False), (2, True)):
        raise RecordError(line, "a win is 1 point, or 2 points with '(mars)' (R29)",
                          reason="notation")
    win_side = _side(winner, line)
    resign_side = _side(resigned, line) if resigned else None
    if resign_side is not None and resign_side == win_side:
        raise RecordError(line, "the side that resigns cannot win the game", reason="notation")
    score = (int(score_w), int(score_b)) if score_w is not None else None
    return GameResultLine(line, win_side, int(points), bool(mars), resign_side, score)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\x00" in raw:
            raise RecordError(number, "the line holds a NUL character", reason="notation")
        if len(raw) > MAX_LINE:
            raise RecordError(number, f"the line is longer than {MAX_LINE} characters",
                              reason="notation")
        line = raw.strip()
        if line and not line.startswith("#"):
            yield number, line


def parse_record(text: str) -> MatchRecord:
    """Read a record's text (no rules applied yet). Raises :class:`RecordError`."""
    record = MatchRecord()
    game: GameRecord | None = None
    for number, line in _lines(text):
        record.last_line = number
        if game is not None:
            game.last_line = number
        if line.lower() == TITLE.lower():
            if record.headers or record.games:
                raise RecordError(number, "the title belongs on the first line")
            continue
        game_start = _GAME.fullmatch(line)
        if game_start:
            expected = len(record.games) + 1
            if int(game_start.group(1)) != expected:
                raise RecordError(number, f"expected 'Game {expected}'")
            game = GameRecord(number, expected, last_line=number)
            record.games.append(game)
            continue
        turn = _TURN.fullmatch(line)
        if turn:
            if game is None:
                raise RecordError(number, "a turn before the first 'Game 1' line")
            if game.result is not None:
                raise RecordError(number, f"a turn after the result of game {game.number}")
            game.turns.append(_parse_turn(turn, number))
            continue
        keyed = _KEY.fullmatch(line)
        if not keyed:
            raise RecordError(number, f"cannot read {line[:40]!r}: expected a header "
                                      "('Key: value'), 'Game n', or a turn 'n. side d-d: steps'",
                              reason="notation")
        key, value = keyed.group(1).lower(), keyed.group(2).strip()
        if game is None:
            if key not in _MATCH_HEADERS:
                raise RecordError(number, f"unknown header {keyed.group(1)!r} (known: White, "
                                          "Black, Length, Date, Result, Hotseat)")
            if key in record.headers:
                raise RecordError(number, f"{keyed.group(1)} is given twice")
            record.headers[key] = (number, value)
            continue
        if key not in _GAME_HEADERS:
            raise RecordError(number, f"unknown line {keyed.group(1)!r} in game {game.number} "
                                      "(known: Roll-off, Starter, Result, and turns)")
        if key == "result":
            if game.result is not None:
                raise RecordError(number, f"game {game.number} has two results")
            game.result = _parse_game_result(value, number)
            continue
        if game.turns or game.result is not None:
            raise RecordError(number, f"{keyed.group(1)} belongs before the game's first turn")
        if key == "roll-off":
            if game.roll_off_line:
                raise RecordError(number, "Roll-off is given twice")
            pairs = [p.strip() for p in value.split(";")]
            for pair in pairs:
                rolled = _ROLL_PAIR.fullmatch(pair)
                if not rolled or not all(1 <= int(d) <= 6 for d in rolled.groups()):
                    raise RecordError(number, "a roll-off reads 'white 6, black 1' (ties "
                                              "first: 'white 3, black 3; white 6, black 1')",
                                      reason="notation")
                game.roll_offs.append((int(rolled.group(1)), int(rolled.group(2))))
            game.roll_off_line = number
        else:
            if game.starter_line:
                raise RecordError(number, "Starter is given twice")
            game.starter = None if value.lower() == "none" else _side(value, number)
            game.starter_line = number
    return record


# --- import ------------------------------------------------------------------------------


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


def _roll_off(change: services.Change, game: Game, record: GameRecord) -> None:
    """R7 from the record's dice, logged as :func:`games.services.match_roll` logs it."""
    line = record.roll_off_line
    for index, (white, black) in enumerate(record.roll_offs):
        last = index == len(record.roll_offs) - 1
        if (white == black) != (not last):
            raise RecordError(line, "every roll-off but the last is a tie, and the last is "
                                    "not (R7)", reason="roll_off")
        change.log("roll_off", game=game.number, side="white", die=white, white=white,
                   black=None, result="pending")
        result = "tie" if white == black else ("white" if white > black else "black")
        change.log("roll_off", game=game.number, side="black", die=black, white=white,
                   black=black, result=result)
    white, black = record.roll_offs[-1]
    game.rolloff_white, game.rolloff_black = white, black
    starter = WHITE if white > black else BLACK
    if record.starter_line and record.starter != starter:
        raise RecordError(record.starter_line, f"the roll-off makes {side_name(starter)} the "
                                               "starter (R7)", reason="roll_off")
    game.starter = game.turn = color_of(starter)
    game.phase = GamePhase.ROLL


def _play_turn(change: services.Change, game: Game, line: TurnLine, resigns_next: bool) -> None:
    """One turn, exactly as :func:`services.match_roll` and :func:`services.match_move` do."""
    where = line.line
    if game.is_over:
        raise RecordError(where, f"game {game.number} is over (R28): no turn after the "
                                 "fifteenth checker is off", reason="game_over")
    if game.phase == GamePhase.ROLL_OFF:
        raise RecordError(where, "nobody has won the roll-off yet: add 'Roll-off:' or "
                                 "'Starter:' (R7)", reason="roll_off")
    if line.number != game.turns + 1:
        raise RecordError(where, f"expected turn {game.turns + 1}, not {line.number}")
    side = side_of(game.turn)
    if line.side != side:
        raise RecordError(where, f"it is {game.turn}'s turn, not {side_name(line.side)}'s",
                          reason="not_your_turn")
    if game.turns >= services.MAX_TURNS_PER_GAME:
        raise RecordError(where, "the game has reached the turn limit")
    state = TurnState.start(game.position, side, line.dice, game.first_turn(side))
    game.turns += 1
    turn = Turn(game=game, number=game.turns, side=game.turn, dice=list(line.dice),
                started_at=change.now)
    turn.save()
    game.current_turn = turn
    game.phase, game.dice = GamePhase.MOVE, list(line.dice)
    change.log("roll", game=game.number, turn=turn.number, side=game.turn, dice=list(line.dice))
    for index, (text, wanted) in enumerate(line.steps, start=1):
        try:
            step = state.resolve(wanted.src, wanted.dst) if wanted.die == 0 else wanted
            state = state.apply(step)
        except EngineError as exc:
            raise RecordError(where, f"step {index} ({text}) is illegal: {exc}",
                              reason=getattr(exc, "reason", "illegal_move")) from None
        change.log("step", game=game.number, turn=turn.number, side=game.turn,
                   **services.step_json(step))
        turn.steps.append(services.step_json(step))
    if line.pass_reason is not None:
        expected = state.pass_reason()
        if expected is None:
            still = " ".join(str(s) for s in state.legal_steps())
            why = (f"{still} can still be played" if still
                   else "every die was played" if not state.dice_left else "the game is over")
            raise RecordError(where, f"a pass the rules do not allow: {why} (R23)",
                              reason="unjustified_pass")
        if line.pass_reason.lower() != expected:
            raise RecordError(where, f"the only reason to pass is {expected!r} (R23)",
                              reason="unjustified_pass")
    services.after_steps(change, game, turn, state)
    if game.current_turn is turn and not resigns_next:
        still = " ".join(str(s) for s in state.legal_steps())
        raise RecordError(where, f"the turn stops while {still} can still be played "
                                 "(R19-R21)", reason="incomplete_turn")
    turn.save()


def _finish_game(change: services.Change, match: Match, game: Game,
                 record: GameRecord) -> None:
    result = record.result
    if result is None:
        raise RecordError(record.last_line, f"game {game.number} has no 'Result:' line")
    if result.resigned is not None:
        if game.is_over:
            raise RecordError(result.line, "the game was already won by bearing off (R28)",
                              reason="game_over")
        turn = game.current_turn
        services.resign_game(change, game, result.resigned)
        if turn is not None:
            turn.save()
    elif not game.is_over:
        raise RecordError(result.line, "the game is not over: neither side has borne off "
                                       "all fifteen (R28)", reason="game_not_over")
    stored = (side_of(game.winner), game.points_won, game.mars)
    written = (result.winner, result.points, result.mars)
    if stored != written:
        mars = " (mars)" if game.mars else ""
        raise RecordError(result.line, f"the rules give {game.winner} {game.points_won} "
                                       f"point(s){mars} (R29, R30)", reason="wrong_result")
    score = (match.score_white, match.score_black)
    if result.score is not None and result.score != score:
        raise RecordError(result.line, f"the score is {score[0]}-{score[1]}",
                          reason="wrong_result")
    game.save()


def _check_match_result(record: MatchRecord, match: Match) -> None:
    found = record.header("result")
    if match.status != MatchStatus.FINISHED:
        raise RecordError(record.last_line, f"the record ends before the match is over: "
                                f"{match.score_white}-{match.score_black} of {match.length} "
                                "(only finished matches are imported)", reason="unfinished")
    if found is None:
        return
    line, text = found
    written = _MATCH_RESULT.fullmatch(text)
    if not written:
        raise RecordError(line, "the match result reads like 'white wins 3-1' (White's score "
                                "first)", reason="notation")
    winner, white, black = written.groups()
    if (winner.lower(), int(white), int(black)) != (
            match.winner, match.score_white, match.score_black):
        raise RecordError(line, f"the games give {match.winner} wins "
                                f"{match.score_white}-{match.score_black}",
                          reason="wrong_result")


@transaction.atomic
def match_import(*, text: str, by: User | None = None) -> Match:
    """Rebuild a finished match from its text record (one transaction, all or nothing).

    The match, its games, per-move records and events are written by the same helpers
    the online services use; the ``match_created`` event carries ``imported: true`` and
    the importer's name (``by``; the record's White player when not given). Raises
    :class:`RecordError` (400 ``validation_error`` with ``details.line``) for a record
    that cannot be read or that the rules reject.
    """
    record = parse_record(text)
    white, black = _header_user(record, "white"), _header_user(record, "black")
    length = _header_length(record)
    hotseat = _header_hotseat(record, white.pk == black.pk)
    started = _header_date(record)
    if not record.games:
        raise RecordError(record.last_line or 1, "the record has no games")
    by = by or white
    match = Match(created_by=by, white=white, black=black, length=length, hotseat=hotseat,
                  status=MatchStatus.ACTIVE, version=0)  # the commit below makes it 1
    match.save()
    change = services.Change(match)
    change.log("match_created", length=length, hotseat=hotseat, by=by.username,
               white=white.username, black=black.username, invited=None, rematch_of=None,
               imported=True)
    services.start_first_game(change)
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
                _roll_off(change, game, game_record)
            elif game_record.starter is not None:
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


# --- HTTP shapes (the export/import actions of games.views.MatchViewSet) ------------------


class PlainTextRenderer(renderers.BaseRenderer):
    """``text/plain`` for the record; an error body (a dict) is still sent as JSON."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        if isinstance(data, str):
            return data.encode(self.charset)
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return renderers.JSONRenderer().render(data)


class MatchImportInputSerializer(serializers.Serializer):
    record = serializers.CharField(trim_whitespace=False, max_length=200_000,
                                   help_text="The match's text record (docs/notation.md, "
                                             "'Match record').")


class _RecordTurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    side = serializers.ChoiceField(choices=("white", "black"))
    dice = serializers.ListField(child=serializers.IntegerField())
    steps = OutStepSerializer(many=True)
    notation = serializers.CharField(help_text='The steps in notation; "-" for none.')
    pass_reason = serializers.CharField(allow_null=True)
    position_after = serializers.CharField(allow_null=True)


class _RecordResultSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=("white", "black"))
    points = serializers.IntegerField()
    mars = serializers.BooleanField()
    end_reason = serializers.ChoiceField(choices=("borne_off", "resigned"))
    resigned = serializers.ChoiceField(choices=("white", "black"), allow_null=True)
    score = ScoreSerializer(help_text="The match score after this game.")


class _RecordRollOffSerializer(serializers.Serializer):
    white = serializers.IntegerField()
    black = serializers.IntegerField()


class _RecordGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    roll_off = _RecordRollOffSerializer(many=True, help_text="Game 1: ties first (R7).")
    starter = serializers.ChoiceField(choices=("white", "black"), allow_null=True)
    turns = _RecordTurnSerializer(many=True)
    result = _RecordResultSerializer(allow_null=True)


class MatchRecordSerializer(serializers.Serializer):
    """The JSON form of a match record (``GET matches/{id}/export/?format=json``)."""

    format = serializers.CharField(help_text=f"Always {FORMAT!r}.")
    id = serializers.IntegerField()
    white = serializers.CharField(allow_null=True)
    black = serializers.CharField(allow_null=True)
    hotseat = serializers.BooleanField()
    length = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    status = serializers.ChoiceField(choices=MatchStatus.values)
    winner = serializers.ChoiceField(choices=("white", "black"), allow_null=True)
    score = ScoreSerializer()
    games = _RecordGameSerializer(many=True)


__all__ = [
    "FORMAT",
    "TITLE",
    "MatchImportInputSerializer",
    "MatchRecordSerializer",
    "PlainTextRenderer",
    "RecordError",
    "format_record",
    "match_import",
    "match_record",
    "parse_record",
    "record_text",
    "step_text",
    "steps_text",
]
