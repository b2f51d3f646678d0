"""The stake rules of every rule set (RULES-FAMILY S1-S7), as pure functions.

A match is played with ``none`` (no raises), ``cube`` (always geometric) or ``dave``
(geometric or arithmetic). These functions are the one place that knows how a stake
grows, who may raise it, what a game then scores and when the Crawford game comes; the
server (models, transitions, record import), the server's computer and the reference
bot client all ask here.

>>> next_stake(GEOMETRIC, 4), next_stake(ARITHMETIC, 4), next_stake(GEOMETRIC, 64)
(8, 5, 64)
>>> no_offer_reason(CUBE, length=5, stake=1, crawford=False) is None
True
>>> no_offer_reason(CUBE, length=5, stake=1, crawford=True)
'crawford'
>>> may_offer(CUBE, length=5, stake=2, holder="black", crawford=False, over=False)
'black'
>>> game_points(DAVE, stake=4, points=2, mars=True, refused=False)
(4, False)
"""

from __future__ import annotations

from typing import Final, Literal

NONE: Final = "none"
CUBE: Final = "cube"
DAVE: Final = "dave"
STAKES: Final[tuple[str, ...]] = (NONE, CUBE, DAVE)
"""The match options for raising the stake, fixed at creation."""

GEOMETRIC: Final = "geometric"
ARITHMETIC: Final = "arithmetic"
PROGRESSIONS: Final[tuple[str, ...]] = (GEOMETRIC, ARITHMETIC)
"""The values a stake goes through (S4): 1, 2, 4, 8 … or 1, 2, 3, 4 …"""

START_STAKE: Final = 1
"""S1: the stake of each game starts at 1."""

MAX_STAKE: Final = 64
"""S5: the stake never goes above 64; at 64 no one may offer."""

NoOffer = Literal["no_stakes", "one_point_match", "crawford", "cap"]
"""Why no one may offer in a game that is not over (checked in this order)."""

MayOffer = Literal["both", "white", "black", "none"]
"""Who holds the right to offer now (S2)."""


def progression_allowed(stakes: str, progression: str) -> bool:
    """S4: the arithmetic progression is for ``dave`` only; the cube is always geometric.

    >>> progression_allowed(CUBE, ARITHMETIC), progression_allowed(DAVE, ARITHMETIC)
    (False, True)
    """
    return progression != ARITHMETIC or stakes == DAVE


def next_stake(progression: str, stake: int) -> int:
    """S4: the stake an accepted raise moves to — twice ``stake``, or one more with the
    arithmetic progression — never above :data:`MAX_STAKE` (S5).

    >>> next_stake(ARITHMETIC, 63), next_stake(GEOMETRIC, 32)
    (64, 64)
    """
    raised = stake + 1 if progression == ARITHMETIC else stake * 2
    return min(raised, MAX_STAKE)


def mars_counts(stakes: str) -> bool:
    """S6: whether a win can score more than the stake (mars, gammon, koks …): not with
    ``dave``, where every win scores the stake.

    >>> mars_counts(CUBE), mars_counts(NONE), mars_counts(DAVE)
    (True, True, False)
    """
    return stakes != DAVE


def game_points(stakes: str, *, stake: int, points: int, mars: bool,
                refused: bool) -> tuple[int, bool]:
    """S4, S6: what a game scores and whether it counts as more than a single game.

    ``points`` and ``mars`` are the game's outcome before any stake (R29/H15; R30/H16
    for a resignation). ``cube`` and no stakes (where the stake stays 1): the stake
    times the points. ``dave``: the stake, no mars. A refused offer: the stake before
    the offer, times 1.

    >>> game_points(CUBE, stake=4, points=2, mars=True, refused=False)
    (8, True)
    >>> game_points(CUBE, stake=4, points=1, mars=False, refused=True)
    (4, False)
    """
    if refused or not mars_counts(stakes):
        return stake, False
    return stake * points, mars


def no_offer_reason(stakes: str, *, length: int, stake: int,
                    crawford: bool) -> NoOffer | None:
    """Why no one may offer in a game that is not over, or ``None`` when someone may:
    no stakes, a 1-point match (S7), the Crawford game (S7), the cap (S5).

    >>> no_offer_reason(NONE, length=5, stake=1, crawford=False)
    'no_stakes'
    >>> no_offer_reason(DAVE, length=1, stake=1, crawford=False)
    'one_point_match'
    >>> no_offer_reason(DAVE, length=3, stake=64, crawford=False)
    'cap'
    """
    if stakes == NONE:
        return "no_stakes"
    if length == 1:
        return "one_point_match"
    if crawford:
        return "crawford"
    if stake >= MAX_STAKE:
        return "cap"
    return None


def may_offer(stakes: str, *, length: int, stake: int, holder: str, crawford: bool,
              over: bool) -> MayOffer:
    """S2, S5, S7: who may offer now — ``both`` at the start of a game, then only
    ``holder`` (the colour that accepted the last raise); ``none`` when
    :func:`no_offer_reason` gives a reason or the game is ``over``.

    >>> may_offer(CUBE, length=5, stake=1, holder="", crawford=False, over=False)
    'both'
    >>> may_offer(CUBE, length=5, stake=1, holder="", crawford=False, over=True)
    'none'
    """
    if over or no_offer_reason(stakes, length=length, stake=stake, crawford=crawford):
        return "none"
    if holder == "white":
        return "white"
    if holder == "black":
        return "black"
    if holder:
        raise ValueError(f"the stake's holder is white, black or empty, not {holder!r}")
    return "both"


def holds_the_right(may: str, colour: str) -> bool:
    """S2: whether ``colour`` (``white``/``black``) may offer when :func:`may_offer`
    answered ``may``.

    >>> holds_the_right("both", "white"), holds_the_right("black", "white")
    (True, False)
    """
    return may in ("both", colour)


def crawford_follows(stakes: str, *, length: int, score: tuple[int, int],
                     crawford_game: int | None) -> bool:
    """S7: whether the game after one that left the match at ``score`` (and still
    going) is the Crawford game: a score first became exactly one short of
    ``length``, in a match with stakes longer than 1 point, once per match.

    >>> crawford_follows(CUBE, length=5, score=(4, 2), crawford_game=None)
    True
    >>> crawford_follows(CUBE, length=5, score=(4, 2), crawford_game=3)
    False
    >>> crawford_follows(NONE, length=5, score=(4, 2), crawford_game=None)
    False
    """
    return (stakes != NONE and crawford_game is None and length > 1
            and length - 1 in score)


__all__ = [
    "ARITHMETIC",
    "CUBE",
    "DAVE",
    "GEOMETRIC",
    "MAX_STAKE",
    "NONE",
    "PROGRESSIONS",
    "STAKES",
    "START_STAKE",
    "MayOffer",
    "NoOffer",
    "crawford_follows",
    "game_points",
    "holds_the_right",
    "mars_counts",
    "may_offer",
    "next_stake",
    "no_offer_reason",
    "progression_allowed",
]
