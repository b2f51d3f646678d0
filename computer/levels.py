"""The levels: how each picks one of the legal plays (the committed networks they read
are loaded by :mod:`computer.weights_io`)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

import numpy as np

from nardy import RULESETS, BoardPosition, Side
from nardy import BoardPlay as Play

from . import heuristic
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
}
"""Level name → one sentence (``GET computer/``). :func:`levels_for` says which exist
for a rule set: the learned levels need its trained weights."""

LEARNED = frozenset({"network", "strong", "expert"})
PLIES = {"network": 0, "strong": 1, "expert": 2}

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
    """The levels playable in ``rules`` (name → sentence): ``random`` always; the
    others where the computer reads the rule set's board (:func:`~computer.board.readable`),
    the learned ones with its trained weights. Raises ``KeyError`` for an unknown rule
    set."""
    ruleset(rules)
    if not readable(rules):
        return {"random": LEVELS["random"]}
    learned = weights_path(rules).exists()
    return {name: text for name, text in LEVELS.items() if learned or name not in LEARNED}


Picker = Callable[[Sequence[Play], Side], int]
"""Chooses the index of one of ``side``'s legal plays."""


def picker(rules: str, level: str, rng: random.Random | None = None,
           net: Net | None = None, exact_race: bool = True,
           race: bool | Net | None = None, reduced: bool | None = None,
           objective: Objective | None = None) -> Picker:
    """The play chooser of ``level`` in ``rules``; ``net`` overrides the committed
    weights (training and tests); ``exact_race=False``: the learned levels value
    bear-off races by the network, not the database (:mod:`computer.bearoff`; for
    measuring what it adds); ``race``: the race network (:mod:`computer.race`; ``None``
    the committed one with the committed network, ``False`` none: the contact network
    in races too; :class:`~computer.search.Evaluator`); ``reduced``: the expert's 2-ply
    reduced or full (``None``: reduced in the rule sets of :data:`REDUCED`);
    ``objective``: what the learned levels play for (:mod:`computer.score`: the match
    score's; ``None`` money equity). Raises ``UnknownLevelError``."""
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
                         objective=objective).best_play(plays, side, plies)

    return pick


def race_estimate(rules: str, position: BoardPosition, side: Side) -> float:
    """The ``heuristic`` level's P(win) for ``side`` about to roll: a logistic in the pip
    lead (plus 4 pips for having the roll) over the square root of the pips left."""
    mine, theirs = pips(boards(rules, [position], side))
    lead = float(theirs[0] - mine[0]) + 4.0
    spread = float(np.sqrt(max(int(mine[0] + theirs[0]), 1)))
    return float(1.0 / (1.0 + np.exp(-1.7 * lead / spread)))
