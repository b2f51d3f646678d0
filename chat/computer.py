"""What the computer says in a match's players' room: nothing unless asked — a greeting
answered once with a short one, and "gg" after the match answered once with "good game",
in the language it was asked in. Said through the same path as a person's line (a line,
and the match's ``chat`` event), in the asking line's transaction."""

from __future__ import annotations

import re

from accounts.models import User
from chat.models import Line
from games import opponents
from games.models import Match, is_over

GREETING = re.compile(r"^(hi|hello|hey|gl|good luck|gl hf|привет|здравствуй\w*|удачи)\b",
                      re.IGNORECASE)
GOOD_GAME = re.compile(r"^(gg|good game|gg wp|хорошая игра|спасибо за игру)\b",
                       re.IGNORECASE)
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)

ANSWERS = {"greeting": ("Hello, good luck!", "Привет, удачи!"),
           "good_game": ("Good game!", "Хорошая игра!")}


def computer_in(match: Match) -> User | None:
    """The match's computer player, if it has one."""
    for player in (match.white, match.black):
        if player is not None and opponents.level_of(player):
            return player
    return None


def answer(match: Match, line: Line) -> str | None:
    """The computer's answer to ``line``, or ``None``: each kind of answer once a match."""
    computer = computer_in(match)
    if computer is None or line.author_id == computer.pk:
        return None
    text = line.text.strip()
    if GOOD_GAME.match(text) and is_over(match.status):
        kind = "good_game"
    elif GREETING.match(text):
        kind = "greeting"
    else:
        return None
    said = set(Line.objects.filter(kind=line.kind, object_id=line.object_id,
                                   author=computer).values_list("text", flat=True))
    if said & set(ANSWERS[kind]):
        return None
    return ANSWERS[kind][1 if _CYRILLIC.search(text) else 0]
