"""The match record: the whole match as plain text, read and written without Django.

Like python-chess keeps PGN in ``chess.pgn``, the record format lives with the rules.
:func:`format_record` writes the text from the record's JSON form;
:func:`parse_record` reads text into a :class:`MatchRecord` without applying any rule
(the server's importer plays it through its one turn path). The format is documented
in ``docs/notation.md`` ("Match record"). In short::

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

With stakes (RULES-FAMILY S1-S7) the header says ``Stakes: cube`` or ``Stakes: dave``
(and ``Progression: arithmetic`` or ``geometric``), an offer and its answer are lines of
their own before the offerer's turn (``white offers 2`` / ``black accepts``), a refused
offer ends the game (``black refuses`` then ``Result: black refuses, white wins 2 points
(stake 2); score 2-0``), and a result above stake 1 names it: ``(gammon, stake 2)``.

Scores are written White first. Steps are in the mover's numbering, in the engine's
one step notation (:class:`~nardy.moves.Step`): ``bar/22``, ``13/7*`` for a
hit, ``3/off`` for the exact die and ``3/off(5)`` for a larger one. Another rule set
than Long Nardy says so in the title and a ``Rules:`` header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import EngineError, NotationError
from .moves import PASS_TEXT, Step
from .outcome import RESULT_POINTS
from .types import Side, other, parse_side, side_name

_TITLE_NAMES: Final = {"long_nardy": "Long Nardy", "short_nardy": "Short nardy",
                       "backgammon": "Backgammon", "nard": "Nard"}
FORMAT: Final = "nardy-match/1"
"""The ``format`` of the JSON form."""
MAX_LINE: Final = 400
"""No line of a record is longer (a turn of four bear-offs and a pass is about 70)."""
_TITLES: Final = frozenset({f"{name} match record".lower() for name in _TITLE_NAMES.values()}
                           | {"match record"})


def title(rules: str) -> str:
    """The first line of a record of ``rules``: ``"Long Nardy match record"``."""
    return f"{_TITLE_NAMES.get(rules, rules)} match record"



class RecordError(NotationError):
    """A record that cannot be read (or, raised by an importer, that the rules reject):
    ``line`` says where, ``reason`` is a stable code, ``text`` the sentence alone."""

    def __init__(self, line: int, message: str, *, reason: str = "invalid_record") -> None:
        super().__init__(f"Line {line}: {message}")
        self.line = line
        self.reason = reason
        self.text = message


@dataclass
class OfferLine:
    """``white offers 2`` (S2-S4), with the answer line that follows it, if any."""

    line: int
    side: Side
    stake: int
    answer: str | None = None
    """``accept``, ``refuse``, or ``None`` (not answered: the game was resigned)."""
    answer_line: int = 0
    answer_side: Side | None = None


@dataclass
class TurnLine:
    line: int
    number: int
    side: Side
    dice: tuple[int, int]
    steps: list[tuple[str, Step]]
    pass_reason: str | None
    offer: OfferLine | None = None
    """The accepted offer that came before this turn's roll."""


@dataclass
class GameResultLine:
    line: int
    winner: Side
    points: int
    name: str
    """``single``, ``mars``, ``koks``, ``gammon`` or ``backgammon`` (R29, H15)."""
    resigned: Side | None
    score: tuple[int, int] | None
    stake: int = 1
    refused: Side | None = None
    """The side that refused an offer (S4) and so lost the game."""

    @property
    def mars(self) -> bool:
        return self.name != "single"


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
    final_offer: OfferLine | None = None
    """An offer after the last turn: refused (the game's end, S4) or never answered."""
    pending_offer: OfferLine | None = None


@dataclass
class MatchRecord:
    headers: dict[str, tuple[int, str]] = field(default_factory=dict)
    games: list[GameRecord] = field(default_factory=list)
    last_line: int = 0

    def header(self, key: str) -> tuple[int, str] | None:
        return self.headers.get(key)


_MATCH_HEADERS: Final = ("white", "black", "length", "rules", "date", "result", "hotseat",
                         "stakes", "progression")
_GAME_HEADERS: Final = ("roll-off", "starter", "result")
_KEY = re.compile(r"([A-Za-z][A-Za-z-]*)\s*:\s*(.*)")
_GAME = re.compile(r"game\s+(\d+)", re.IGNORECASE)
_TURN = re.compile(r"(\d+)\s*\.\s*(\w+)\s+(\d)\s*-\s*(\d)\s*:\s*(.*)")
_PASS = re.compile(r"(.*?)\s*\(\s*pass\s*:\s*([^()]*?)\s*\)", re.IGNORECASE)
_ROLL_PAIR = re.compile(r"white\s+(\d)\s*,\s*black\s+(\d)", re.IGNORECASE)
_GAME_RESULT = re.compile(
    r"(?:(white|black)\s+(resigns|refuses)\s*,\s*)?(white|black)\s+wins\s+(\d+)\s+points?"
    r"(?:\s*\(\s*(mars|koks|gammon|backgammon)?\s*,?\s*(?:stake\s+(\d+))?\s*\))?"
    r"(\s*,\s*borne\s+off)?(?:\s*;\s*score\s+(\d+)\s*-\s*(\d+))?",
    re.IGNORECASE)
_OFFER = re.compile(r"(white|black)\s+offers\s+(\d+)", re.IGNORECASE)
_ANSWER = re.compile(r"(white|black)\s+(accepts|refuses)", re.IGNORECASE)
MATCH_RESULT = re.compile(r"(white|black)\s+wins\s*,?\s*(\d+)\s*[-–]\s*(\d+)", re.IGNORECASE)


def _side(text: str, line: int) -> Side:
    try:
        return parse_side(text)
    except ValueError:
        raise RecordError(line, f"{text!r} is not a side: write white or black") from None


def _parse_step(token: str, line: int, index: int) -> Step:
    """A step of a record (:meth:`Step.parse`). ``N/off`` keeps ``die == 0``: the
    writer adds the die only when it is larger than ``N`` (``3/off(5)``), so a reader
    plays it with the die ``N`` when there is one (:func:`bear_off_die`)."""
    try:
        return Step.parse(token)
    except EngineError as exc:
        raise RecordError(line, f"step {index} ({token}): {exc}", reason="notation") from None


def bear_off_die(step: Step, dice_left: tuple[int, ...]) -> int:
    """The die of a record's step: its own, or for ``N/off`` the exact die ``N`` when it
    is left (else 0: the rules pick the one larger die that fits)."""
    if step.die or step.dst:
        return step.die
    return step.src if step.src in dice_left else 0


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
    loser, how, winner, points, named, stake_text, borne_off, score_w, score_b = match.groups()
    if bool(loser) == bool(borne_off):
        raise RecordError(line, "say how the game ended: ', borne off', '<side> resigns, ' "
                                "or '<side> refuses, '", reason="notation")
    name = (named or "single").lower()
    stake = int(stake_text) if stake_text else 1
    refused = bool(how) and how.lower() == "refuses"
    if refused and name != "single":
        raise RecordError(line, "a refused offer scores the stake, times 1 (S4)",
                          reason="notation")
    if not 1 <= stake <= 64 or RESULT_POINTS[name] * stake != int(points):
        raise RecordError(line, "a win is the stake (1 to 64) times 1 point, 2 with '(mars)' "
                                "or '(gammon)', 3 with '(koks)' or '(backgammon)' (R29, H15, "
                                "S6)", reason="notation")
    win_side = _side(winner, line)
    loser_side = _side(loser, line) if loser else None
    if loser_side is not None and loser_side == win_side:
        raise RecordError(line, "the side that resigns or refuses cannot win the game",
                          reason="notation")
    score = (int(score_w), int(score_b)) if score_w is not None else None
    return GameResultLine(line, win_side, int(points), name,
                          None if refused else loser_side, score, stake,
                          loser_side if refused else None)


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
        if line.lower() in _TITLES:
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
            parsed = _parse_turn(turn, number)
            pending = game.pending_offer
            if pending is not None:
                if pending.answer != "accept":
                    raise RecordError(number, "a turn after an offer that was not accepted "
                                              "(S3-S4)", reason="offer")
                parsed.offer, game.pending_offer = pending, None
            game.turns.append(parsed)
            continue
        offered = _OFFER.fullmatch(line)
        answered = _ANSWER.fullmatch(line)
        if offered or answered:
            if game is None or game.result is not None:
                raise RecordError(number, "an offer or answer belongs inside a game, before "
                                          "its result")
            if offered:
                if game.pending_offer is not None:
                    raise RecordError(number, "an offer before the last one was answered "
                                              "(S3)" if game.pending_offer.answer is None
                                      else "a second offer before the turn: the side that "
                                           "accepted offers next, at its own turn (S2)",
                                      reason="offer")
                game.pending_offer = OfferLine(number, _side(offered.group(1), number),
                                               int(offered.group(2)))
            else:
                assert answered is not None  # an offer or an answer matched
                pending = game.pending_offer
                if pending is None or pending.answer is not None:
                    raise RecordError(number, "an answer with no offer waiting (S3)",
                                      reason="offer")
                pending.answer = "accept" if answered.group(2).lower() == "accepts" else "refuse"
                pending.answer_line = number
                pending.answer_side = _side(answered.group(1), number)
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
                                          "Black, Length, Rules, Date, Result, Hotseat, "
                                          "Stakes, Progression)")
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
            game.final_offer, game.pending_offer = game.pending_offer, None
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


# --- writing ------------------------------------------------------------------------


def _match_result_text(data: Mapping[str, Any]) -> str:
    score = f"{data['score']['white']}-{data['score']['black']}"
    status = data["status"]
    if status == "finished":
        return f"{data['winner']} wins {score}"
    if status == "active":
        return f"in progress {score}"
    if status == "aborted":
        return f"aborted {score}"
    return "not started"


def _game_result_text(result: Mapping[str, Any]) -> str:
    points = result["points"]
    text = f"{result['winner']} wins {points} point{'s' if points != 1 else ''}"
    name = result.get("result") or ("mars" if result["mars"] else "single")
    if name in ("resigned", "refused"):
        name = result.get("conceded") or ("mars" if result["mars"] else "single")
    stake = result.get("stake") or 1
    shown = [name] if name != "single" else []
    if stake != 1:
        shown.append(f"stake {stake}")
    if shown:
        text += f" ({', '.join(shown)})"
    if result["resigned"]:
        text = f"{result['resigned']} resigns, {text}"
    elif result.get("refused"):
        text = f"{result['refused']} refuses, {text}"
    else:
        text += ", borne off"
    return f"{text}; score {result['score']['white']}-{result['score']['black']}"


def format_record(data: Mapping[str, Any]) -> str:
    """The text form of a record from its JSON form (``games.selectors.match_record``)."""
    rules = data.get("rules") or "long_nardy"
    lines = [title(rules), f"White: {data['white'] or '?'}", f"Black: {data['black'] or '?'}",
             f"Length: {data['length']}"]
    if rules != "long_nardy":
        lines.append(f"Rules: {rules}")
    stakes = data.get("stakes") or "none"
    if stakes != "none":
        lines.append(f"Stakes: {stakes}")
        lines.append(f"Progression: {data.get('progression') or 'geometric'}")
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
        offers = list(game.get("offers") or ())
        for turn in game["turns"]:
            while offers and offers[0]["before_turn"] <= turn["number"]:
                lines += _offer_lines(offers.pop(0))
            dice = "-".join(str(d) for d in turn["dice"])
            text = f"{turn['number']}. {turn['side']} {dice}: {turn['notation']}"
            if turn["pass_reason"]:
                text += f" (pass: {turn['pass_reason']})"
            lines.append(text)
        for offer in offers:
            lines += _offer_lines(offer)
        if game["result"]:
            lines.append(f"Result: {_game_result_text(game['result'])}")
    return "\n".join(lines) + "\n"


def _offer_lines(offer: Mapping[str, Any]) -> list[str]:
    """``white offers 2`` and its answer, if any (S2-S4)."""
    lines = [f"{offer['by']} offers {offer['stake']}"]
    if offer.get("answer"):
        answerer = side_name(other(parse_side(offer["by"])))
        lines.append(f"{answerer} {'accepts' if offer['answer'] == 'accept' else 'refuses'}")
    return lines
