"""The levels: how each picks one of the legal plays (the committed networks they read
are loaded by :mod:`computer.weights_io`)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from nardy import BACKGAMMON_RULES, RULESETS, SHORT_NARDY_RULES, BoardPosition, Side
from nardy import BoardPlay as Play

from . import field, heuristic
from .board import UnreadableBoardError, boards, pips, readable, reader, ruleset
from .network import Net
from .score import Objective
from .search import Evaluator
from .weights_io import WEIGHTS_DIR, UnknownLevelError, load_net, weights_path

LEVELS: dict[str, str] = {
    "random": "Plays a uniformly random legal move: a floor, and handy for testing clients.",
    "heuristic": "Scores every complete play with a hand-written evaluation (race, blocks "
                 "and primes, blots, head, borne off) and plays the best.",
    "network": "Plays the move its self-taught neural network (TD(λ) self-play) rates best, "
               "without looking ahead.",
    "strong": "The neural network looking one roll ahead: each candidate is judged by the "
              "opponent's best reply to each of its 21 rolls.",
    "expert": "The neural network with a 2-ply look-ahead over the dice and move filters: "
              "the strongest level.",
    "world-class": "Backgammon only: the field engine's deepest search within a move's time.",
}
"""Level name → one sentence (``GET computer/``). :func:`levels_for` says which exist
for a rule set (the learned levels need its trained weights or the field engine;
``world-class`` is backgammon's) and gives backgammon's own sentences."""

LEARNED = frozenset({"network", "strong", "expert", "world-class"})
PLIES = {"network": 0, "strong": 1, "expert": 2, "world-class": 2}
"""The look-ahead of each learned level with the project's own network (``world-class``
where the field engine is missing: the expert's search)."""

FIELD_RULES = BACKGAMMON_RULES.name
"""The rule set the field engine plays (:mod:`computer.field`)."""

FIELD_ONLY = frozenset({"world-class"})
"""Levels offered only in :data:`FIELD_RULES`."""


@dataclass(frozen=True)
class FieldSearch:
    """How a level searches with the field engine: ``plies`` (GNU Backgammon's count)
    over the best ``keep`` candidates within ``margin`` of the best by the raw network."""

    plies: int
    keep: int = field.FILTER_KEEP
    margin: float = field.FILTER_MARGIN


FIELD_SEARCH: dict[str, FieldSearch] = {
    "network": FieldSearch(0),
    "strong": FieldSearch(1),
    "expert": FieldSearch(2),
    "world-class": FieldSearch(2, keep=8, margin=0.16),
}
"""The learned levels in backgammon with the field engine (docs/computer.md, "The field
engine"): ``network`` its raw network, ``strong`` one ply ahead, ``expert`` two (Open
Sage's own "3-ply" analysis and filter), ``world-class`` the same two plies over a filter
twice as wide — the deepest search whose decision time stays within 300 ms at p95 here
(three plies take seconds)."""

FIELD_TEXTS: dict[str, str] = {
    "network": "Plays the move the field engine's neural network (Open Sage) rates best, "
               "without looking ahead.",
    "strong": "The field engine (Open Sage) looking one roll ahead: each candidate judged "
              "by the opponent's best reply to each of its 21 rolls.",
    "expert": "The field engine (Open Sage) with a 2-ply look-ahead over the dice and its "
              "move filter.",
    "world-class": "The field engine (Open Sage) at its deepest within a move's time: a "
                   "2-ply look-ahead over twice as many candidates. The strongest level.",
}
"""Backgammon's sentences for the levels the field engine plays."""

FALLBACK_WORLD_CLASS = ("Where the field engine is not installed: the neural network's "
                        "2-ply look-ahead, as expert.")

OWN_NETWORK = "own network"
"""The level list's engine of a level played by the project's own network."""
OWN_HEURISTIC = "own heuristic"
RANDOM = "random"


def through_field(rules: str, level: str) -> bool:
    """Whether ``level`` plays ``rules`` through the field engine: backgammon's learned
    levels where the engine is :func:`~computer.field.available`."""
    return rules == FIELD_RULES and level in FIELD_SEARCH and field.available()


FIELD_VALUED = frozenset({SHORT_NARDY_RULES.name})
"""The rule sets on backgammon's board whose moves are not backgammon's (short nardy: no
hit-and-hide, H10) where the field engine values the positions: their learned levels
search with the project's own search (:class:`~computer.search.Evaluator`, the level's
plies and filters) over the rule set's own legal plays, each position reached valued by
the field engine's raw network instead of the own network. Measured stronger than the
own network at the same depth (docs/computer.md, "Short nardy through the field
engine"), with the approximation said there: the engine values a position as if the
game went on under backgammon's rules."""

FIELD_VALUED_TEXTS: dict[str, str] = {
    "network": "Plays the move the field engine's neural network (Open Sage's, for "
               "backgammon) rates best among short nardy's legal moves, without looking "
               "ahead.",
    "strong": "Looks one roll ahead over short nardy's moves: each candidate judged by the "
              "opponent's best reply to each of its 21 rolls, the positions valued by the "
              "field engine (Open Sage).",
    "expert": "A 2-ply look-ahead over short nardy's moves with move filters, the "
              "positions valued by the field engine (Open Sage): the strongest level.",
}
"""Short nardy's sentences for the levels the field engine values."""


def field_valued(rules: str, level: str) -> bool:
    """Whether ``level`` plays ``rules`` by the project's search over the rule set's
    moves with the field engine valuing the positions (:data:`FIELD_VALUED`): short
    nardy's learned levels where the engine is :func:`~computer.field.available`."""
    return rules in FIELD_VALUED and level in FIELD_VALUED_TEXTS and field.available()


def engine_of(rules: str, level: str) -> str:
    """Which engine plays ``level`` in ``rules``, as the level list says it: the field
    engine's name and version (``"Open Sage 2.0.20260907"``; also where it values the
    positions of the project's search, :func:`field_valued`), :data:`OWN_NETWORK`,
    :data:`OWN_HEURISTIC` or :data:`RANDOM`."""
    if through_field(rules, level) or field_valued(rules, level):
        return field.engine_label() or field.ENGINE
    if level in LEARNED:
        return OWN_NETWORK
    return OWN_HEURISTIC if level == "heuristic" else RANDOM

SEARCH_FILE = WEIGHTS_DIR / "search.json"
"""The expert's search settings per rule set, data beside the committed networks."""


def _reduced() -> frozenset[str]:
    names = json.loads(SEARCH_FILE.read_text())["reduced_2_ply"]
    unknown = [name for name in names if name not in RULESETS]
    if unknown:
        raise ValueError(f"{SEARCH_FILE.name}: no rule set {', '.join(map(repr, unknown))}")
    return frozenset(names)


REDUCED: frozenset[str] = _reduced()
"""The rule sets whose ``expert`` searches its 2-ply reduced (its last ply over a third
of the rolls, :data:`computer.search.ROLL_GROUPS`), listed in :data:`SEARCH_FILE`: those
whose full 2-ply misses the 300 ms a decision at p95 — the nardy games (Long Nardy's
30-odd plays a roll, the hitting games' 20-30); backgammon's full 2-ply is within it
(docs/computer.md has both measurements, time and strength)."""


def levels_for(rules: str) -> dict[str, str]:
    """The levels playable in ``rules`` (name → sentence), strongest last: ``random``
    always; the others where the computer reads the rule set's board
    (:func:`~computer.board.readable`), the learned ones with its trained weights or,
    in backgammon, the field engine; ``world-class`` in backgammon only (played by the
    own network's expert search where the field engine is missing, and the sentence says
    so). Raises ``KeyError`` for an unknown rule set."""
    ruleset(rules)
    if not readable(rules):
        return {"random": LEVELS["random"]}
    learned = weights_path(rules).exists()
    found: dict[str, str] = {}
    for name, text in LEVELS.items():
        if name in FIELD_ONLY and rules != FIELD_RULES:
            continue
        if through_field(rules, name):
            found[name] = FIELD_TEXTS[name]
        elif field_valued(rules, name):
            found[name] = FIELD_VALUED_TEXTS[name]
        elif learned or name not in LEARNED:
            found[name] = (f"{text} {FALLBACK_WORLD_CLASS}" if name in FIELD_ONLY else text)
    return found


def engines_for(rules: str) -> dict[str, str]:
    """:func:`levels_for`'s levels → the engine that plays each (:func:`engine_of`)."""
    return {name: engine_of(rules, name) for name in levels_for(rules)}


Picker = Callable[[Sequence[Play], Side], int]
"""Chooses the index of one of ``side``'s legal plays."""

Chooser = Callable[[BoardPosition, Sequence[Play], Side], int]
"""Chooses the index of one of ``side``'s legal plays from a position (the plays'
starting point, which the field engine reads)."""


def chooser(rules: str, level: str, rng: random.Random | None = None,
            objective: Objective | None = None) -> Chooser:
    """The play chooser of ``level`` in ``rules`` as the server plays it: through the
    field engine where :func:`through_field`, else :func:`picker`'s (the own network,
    or the field engine valuing the positions where :func:`field_valued`; the
    heuristic, a coin). ``objective`` as in :func:`picker`. Raises
    ``UnknownLevelError``."""
    if not through_field(rules, level):
        pick = picker(rules, level, rng, objective=objective,
                      field=field_valued(rules, level))
        return lambda position, plays, side: pick(plays, side)
    search = FIELD_SEARCH[level]

    def choose(position: BoardPosition, plays: Sequence[Play], side: Side) -> int:
        return field.best_play(position, side, plays, search.plies, objective,
                               keep=search.keep, margin=search.margin)

    return choose


def picker(rules: str, level: str, rng: random.Random | None = None,
           net: Net | None = None, exact_race: bool = True,
           race: bool | Net | None = None, reduced: bool | None = None,
           objective: Objective | None = None, field: bool = False) -> Picker:
    """The play chooser of ``level`` in ``rules`` with the project's own evaluation
    (the own network for the learned levels, also in backgammon: the comparison and the
    field engine's fallback; :func:`chooser` is what the server plays); ``net``
    overrides the committed weights (training and tests); ``exact_race=False``: the
    learned levels value bear-off races by the network, not the database
    (:mod:`computer.bearoff`; for measuring what it adds); ``race``: the race network
    (:mod:`computer.race`; ``None`` the committed one with the committed network,
    ``False`` none: the contact network in races too; :class:`~computer.search.Evaluator`);
    ``reduced``: the expert's 2-ply reduced or full (``None``: reduced in the rule sets
    of :data:`REDUCED`);
    ``objective``: what the learned levels play for (:mod:`computer.score`: the match
    score's; ``None`` money equity); ``field``: the learned levels' positions valued by
    the field engine instead (:func:`field_valued`, :class:`~computer.search.Evaluator`).
    Raises ``UnknownLevelError``."""
    if level not in LEVELS:
        raise UnknownLevelError(f"no level {level!r}; known: {', '.join(LEVELS)}")
    if level == "random":
        chance = rng or random.Random()
        return lambda plays, side: chance.randrange(len(plays))
    try:
        reader(rules)
    except UnreadableBoardError as error:
        raise UnknownLevelError(f"no level {level!r} in {rules!r}: {error}") from None
    if level == "heuristic":
        return lambda plays, side: (
            0 if len(plays) == 1 else heuristic.best_index(rules, [p.position for p in plays],
                                                           side))
    model = net if net is not None else load_net(rules)
    plies = PLIES[level]
    if reduced is None:
        reduced = rules in REDUCED
    reduced = reduced and plies == 2

    def pick(plays: Sequence[Play], side: Side) -> int:
        return Evaluator(rules, model, exact_race=exact_race, race=race, reduced=reduced,
                         objective=objective, field=field).best_play(plays, side, plies)

    return pick


def race_estimate(rules: str, position: BoardPosition, side: Side) -> float:
    """The ``heuristic`` level's P(win) for ``side`` about to roll: a logistic in the pip
    lead (plus 4 pips for having the roll) over the square root of the pips left."""
    mine, theirs = pips(boards(rules, [position], side))
    lead = float(theirs[0] - mine[0]) + 4.0
    spread = float(np.sqrt(max(int(mine[0] + theirs[0]), 1)))
    return float(1.0 / (1.0 + np.exp(-1.7 * lead / spread)))
