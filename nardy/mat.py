"""A backgammon match as the ``.mat`` text GNU Backgammon and eXtreme Gammon import.

The ``.mat`` ("Jellyfish match") format has no formal standard; this writes it the way
gnubg's own ``export match mat`` does (``ExportGameJF`` in gnubg's export.c), which is
also what its importer (``ImportMat`` in import.c) reads back::

    ; [Site "nard_site"]
    ; [EventDate "2026.05.01"]

     3 point match

     Game 1
     alice : 0                      bob : 0
      1)                             31: 8/5 6/5
      2) 52: 13/8 24/22              64: 24/18* 13/9
      3)  Doubles => 2                Takes
      4) 66: 25/19 19/13 13/7 7/1*  33:
     ...
                                      Wins 2 points

White is the left column (gnubg's first player), Black the right; a line holds one
action of each, numbered. Moves are in the mover's numbering, one ``from/to`` per die
(``25`` the bar, ``0`` off, ``*`` a hit), no move after a roll is a pass (``66:``). A
raise is ``Doubles => N``, its answer ``Takes`` or ``Drops`` (then ``Wins N point(s)``).
A game won on the board, by a refusal or by a resignation ends with ``Wins N
point(s)`` in the winner's column; a resignation in the middle of a turn keeps that
turn's roll alone (gnubg reads a roll with no move where moves exist as "rolled, then
resigned"). Each game's header line carries the score before it. gnubg assumes the
Crawford rule in every match, as the server plays matches with a cube (S7).

The input is a match record's JSON form (``games.selectors.match_record``, the same as
:func:`nardy.record.format_record`'s); the turns are replayed through the engine to tell a
complete turn from one left unfinished by a resignation. Only rule sets in
:data:`MAT_RULES` (backgammon) and stakes other than ``dave`` (whose wins all score one
and whose raises need not double) can be written: :func:`mat_refusal` says why not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .moves import Step
from .registry import ruleset
from .stakes import DAVE
from .types import parse_side

MAT_RULES: Final = frozenset({"backgammon"})
"""The rule sets whose matches the ``.mat`` format can hold."""

_RIGHT: Final = " " * 34
"""The indent of a right-column ``Wins`` line."""
_LEFT: Final = " " * 6
"""The indent of a left-column ``Wins`` line."""


def mat_refusal(rules: str, stakes: str) -> str | None:
    """Why a match of ``rules`` with ``stakes`` has no ``.mat`` form (``None``: it has)."""
    if rules not in MAT_RULES:
        return f"only {', '.join(sorted(MAT_RULES))} matches have a .mat form, not {rules}"
    if stakes == DAVE:
        return "a match with dave stakes has no .mat form (the format knows the cube only)"
    return None


def _points(n: int) -> str:
    return f"Wins {n} point{'' if n == 1 else 's'}"


def _move_text(turn: Mapping[str, Any], complete: bool) -> str:
    dice = "".join(str(int(d)) for d in turn["dice"])
    if not complete:
        return f"{dice}:"
    moves = " ".join(f"{s['from']}/{s['to']}{'*' if s.get('hit') else ''}"
                     for s in turn["steps"])
    return f"{dice}: {moves}".rstrip()


class _Game:
    """gnubg's two-column layout of one game's actions (``ExportGameJF``)."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.i = 0  # actions written: even, the left column is next

    def action(self, player: int, text: str) -> None:
        if self.i == 0 and player == 1:
            self.out.append("  1)" + " " * 29)
            self.i = 1
        if self.i % 2 != player:  # a side acting twice: the other's slot stays empty
            self.action(1 - player, "")
        if self.i % 2:
            self.out.append(text + "\n")
        else:
            self.out.append(f"{self.i // 2 + 1:3d}) {text:<27} ")
        self.i += 1

    def wins(self, winner: int, points: int) -> None:
        if winner == 0:
            self.out.append(("\n" if self.i % 2 else "") + _LEFT + _points(points) + "\n\n")
        else:
            self.out.append(("" if self.i % 2 else _RIGHT) + _points(points) + "\n\n")

    def drop(self, player: int, points: int) -> None:
        """``Drops`` and the other side's win on the same or the next line."""
        if self.i % 2 != player:
            self.action(1 - player, "")
        if player == 1:
            self.out.append(" Drops\n" + _LEFT + _points(points) + "\n\n")
        else:
            self.out.append(f"{self.i // 2 + 1:3d})  Drops" + " " * 23 + _points(points)
                            + "\n\n")
        self.i += 1


def _game_text(rules: str, game: Mapping[str, Any], names: Sequence[str],
               score: Sequence[int]) -> str:
    rs = ruleset(rules)
    head = f"{names[0]} : {score[0]}"
    lines = [f" Game {game['number']}\n", f" {head:<31}{names[1]} : {score[1]}\n"]
    layout = _Game()
    position, first = rs.initial(), [True, True]
    offers = list(game.get("offers") or ())
    result = game.get("result")
    turns = list(game["turns"])

    def offer_lines(offer: Mapping[str, Any]) -> None:
        by = parse_side(offer["by"])
        layout.action(by, f" Doubles => {offer['stake']}")
        if offer.get("answer") == "accept":
            layout.action(1 - by, " Takes")
        elif offer.get("answer") == "refuse" and result:
            layout.drop(1 - by, int(result["points"]))

    for turn in turns:
        while offers and offers[0]["before_turn"] <= turn["number"]:
            offer_lines(offers.pop(0))
        side = parse_side(turn["side"])
        dice = (int(turn["dice"][0]), int(turn["dice"][1]))
        steps = [Step(int(s["from"]), int(s["to"]), int(s.get("die") or 0))
                 for s in turn["steps"]]
        state = rs.start_turn(position, side, dice, first[side]).apply_all(steps)
        complete = state.is_turn_over() or state.outcome() is not None
        layout.action(side, _move_text(turn, complete))
        first[side] = False
        position = state.position
    for offer in offers:
        offer_lines(offer)
    if result and not result.get("refused"):
        layout.wins(parse_side(result["winner"]), int(result["points"]))
    elif not result and layout.i % 2:
        layout.out.append("\n")
    return "".join(lines + layout.out)


def format_mat(data: Mapping[str, Any]) -> str:
    """The ``.mat`` text of a match record's JSON form (module docstring). Raises
    ``ValueError`` when :func:`mat_refusal` refuses it or a turn does not replay."""
    rules = data.get("rules") or ""
    refusal = mat_refusal(rules, data.get("stakes") or "none")
    if refusal:
        raise ValueError(refusal)
    names = [_name(data.get("white"), "White"), _name(data.get("black"), "Black")]
    if names[0] == names[1]:  # one account at a shared screen: two names for gnubg
        names = [f"{names[0]}-white", f"{names[1]}-black"]
    head = ['; [Site "nard_site"]\n']
    if data.get("date"):
        head.append(f'; [EventDate "{str(data["date"]).replace("-", ".")}"]\n')
    parts = ["".join(head), "\n", f" {int(data['length'])} point match\n\n"]
    score = [0, 0]
    for game in data["games"]:
        parts.append(_game_text(rules, game, names, score))
        result = game.get("result")
        if result:
            score[parse_side(result["winner"])] += int(result["points"])
    return "".join(parts)


def _name(value: Any, default: str) -> str:
    """A player's name as gnubg reads it: no colon, no spaces."""
    text = "".join(ch for ch in str(value or default) if ch not in ": \t") or default
    return text[:31]
