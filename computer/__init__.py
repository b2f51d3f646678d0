"""The computer opponents: levels for every rule set of the engine (docs/computer.md).

Pure Python and NumPy, no Django. The server calls::

    from computer import LEVELS, levels_for, choose_play, choose_for_turn, stake_decision

    levels_for("long_nardy")                 # {"random": "...", "heuristic": "...", ...}
    steps = choose_play("long_nardy", "expert", position, side, (6, 5), first_turn=False)
    turn = turn.apply_all(steps)             # the steps replay through the turn state
    stake_decision("long_nardy", "expert", position, side, question="offer",
                   stake=1, next_stake=2)    # True: offer the raise now
    match_stake_decision("long_nardy", "expert", position, side, situation,
                         question="accept")  # the same, the match score first

Positions, sides, dice and steps are the engine's (``nardy``); the rule set is
named as in ``nardy.RULESETS``.
"""

from __future__ import annotations

import os

# Small matrices: one BLAS thread is faster and keeps training bit-for-bit reproducible.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import random
from typing import Literal

from nardy import BoardPosition, Side, Step, Turn
from nardy import stakes as nardy_stakes

from . import field, stakes
from .board import UnreadableBoardError, ruleset
from .levels import (
    FIELD_SEARCH,
    LEARNED,
    LEVELS,
    Chooser,
    chooser,
    engine_of,
    engines_for,
    field_valued,
    levels_for,
    race_estimate,
    through_field,
)
from .network import OUTPUTS, WeightsMismatchError
from .search import Evaluator
from .stakes import Situation
from .weights_io import UnknownLevelError, load_net

__all__ = [
    "LEVELS",
    "OUTPUTS",
    "Situation",
    "UnknownLevelError",
    "UnreadableBoardError",
    "WeightsMismatchError",
    "choose_for_turn",
    "choose_play",
    "engine_of",
    "engines_for",
    "estimate",
    "levels_for",
    "match_stake_decision",
    "resignation_decision",
    "stake_decision",
]


def _check_level(rules: str, level: str) -> None:
    known = levels_for(rules)
    if level not in known:
        raise UnknownLevelError(f"no level {level!r} for {rules!r}; known: {', '.join(known)}")


def choose_play(rules: str, level: str, position: BoardPosition, side: Side,
                dice: tuple[int, int], first_turn: bool,
                rng: random.Random | None = None,
                situation: Situation | None = None) -> tuple[Step, ...]:
    """The whole turn ``level`` plays for ``side`` having rolled ``dice`` in ``position``.

    The steps are in playing order and replay through
    ``RULESETS[rules].start_turn(position, side, dice, first_turn).apply_all(steps)``;
    ``()`` when no move is legal (R23). ``rng`` drives the ``random`` level only (the
    others are deterministic). ``situation``: the match as ``side`` sees it — the
    learned levels then play for the match-winning chance at its score
    (:meth:`Situation.objective`: gammons and marses worth what they do for the match,
    nothing with ``dave``, S6, or in a 1-point match); ``None``: money play. Raises
    ``KeyError`` for an unknown rule set and :class:`UnknownLevelError` for a level it
    does not have.
    """
    rs = ruleset(rules)
    _check_level(rules, level)
    plays = rs.legal_plays(position, side, dice, first_turn)
    return plays[_chooser(rules, level, rng, side, situation)(position, plays, side)].steps


def choose_for_turn(rules: str, level: str, turn: Turn,
                    rng: random.Random | None = None,
                    situation: Situation | None = None) -> tuple[Step, ...]:
    """The rest of a turn in progress (some dice may already be played): the steps
    that ``turn.apply_all`` plays to its end. ``situation`` as in :func:`choose_play`;
    the same errors."""
    ruleset(rules)
    _check_level(rules, level)
    plays = turn.plays()
    pick = _chooser(rules, level, rng, turn.side, situation)
    return plays[pick(turn.position, plays, turn.side)].steps


def _chooser(rules: str, level: str, rng: random.Random | None, side: Side,
             situation: Situation | None) -> Chooser:
    if situation is None or level not in LEARNED:
        return chooser(rules, level, rng)
    return chooser(rules, level, rng, objective=situation.objective(rules, side))


def estimate(rules: str, position: BoardPosition, side: Side, first_turn: bool = False,
             plies: int = 1) -> dict[str, float]:
    """The network's estimates (:data:`OUTPUTS` → probability) for ``side`` about to roll
    in ``position`` at 0 or 1 ply. Raises :class:`UnknownLevelError` without weights."""
    values = Evaluator(rules, load_net(rules)).to_roll(position, side, first_turn, plies)
    return {name: float(v) for name, v in zip(OUTPUTS, values, strict=True)}


def _level_estimates(rules: str, level: str, position: BoardPosition, roller: Side,
                     first_turn: bool) -> list[float]:
    """The estimates (:data:`OUTPUTS` order) ``level`` judges a stake or a resignation
    by, ``roller`` about to roll: the field engine's at the level's depth where it plays
    (:func:`through_field`), the pip-count race formula for ``heuristic`` (no gammons),
    else the network at 1 ply (in short nardy over its own moves valued by the field
    engine, :func:`field_valued`)."""
    if through_field(rules, level):
        return list(field.to_roll_probabilities(position, roller, FIELD_SEARCH[level].plies))
    if level == "heuristic":
        return [race_estimate(rules, position, roller), 0.0, 0.0, 0.0, 0.0]
    return list(Evaluator(rules, load_net(rules), field=field_valued(rules, level))
                .to_roll(position, roller, first_turn, 1))


def stake_decision(rules: str, level: str, position: BoardPosition, side: Side, *,
                   question: Literal["offer", "accept"], stake: int, next_stake: int,
                   mars: bool = True, first_turn: bool = False,
                   rng: random.Random | None = None, away: tuple[int, int] | None = None,
                   ) -> bool:
    """Whether ``side`` offers the raise ``stake`` → ``next_stake`` before rolling
    (``question="offer"``; ``side`` is about to roll), or accepts one the opponent
    offered (``question="accept"``; the opponent is about to roll).

    ``mars``: whether a win can score more than one (``False`` with ``dave`` stakes,
    S6). ``away``: the points ``side`` and its opponent still need in a match
    (:func:`match_stake_decision` passes them), ``None`` in money play. In backgammon
    the levels the field engine plays (:func:`through_field`) take its cube decision,
    cubeful, at their depth and at ``away``'s score — where the raise is the cube's
    (doubling, marses counting); otherwise the rule is :mod:`computer.stakes`'s and the
    estimates are the level's: the field engine's, the network at 1 ply (``network``,
    ``strong``, ``expert``; in short nardy the 1 ply over its own moves valued by the
    field engine, :func:`field_valued`), the pip-count race formula (``heuristic``), a
    coin (``random``).
    Whether an offer is allowed at all (S2-S7) is the caller's to check. Raises like
    :func:`choose_play`.
    """
    ruleset(rules)
    _check_level(rules, level)
    if question not in ("offer", "accept"):
        raise ValueError(f"question must be 'offer' or 'accept', not {question!r}")
    if level == "random":
        return (rng or random.Random()).random() < 0.5
    roller = side if question == "offer" else 1 - side
    roller_first = first_turn if question == "offer" else False
    if through_field(rules, level):
        plies = FIELD_SEARCH[level].plies
        if mars and next_stake == 2 * stake and next_stake <= field.MAX_STAKE:
            # S2: the stake starts centred; after an accepted raise only the side that
            # accepted may offer, so a raise above the first comes from the cube's holder.
            owner = "centred" if stake == nardy_stakes.START_STAKE else "roller"
            roller_away = away if away is None or question == "offer" else (away[1], away[0])
            # No offer is allowed in the Crawford game (S7), so a match game asked
            # about is never it: Open Sage reads a side needing 1 as post-Crawford.
            action = field.cube_action(position, roller, stake=stake, owner=owner,
                                       away=roller_away, plies=plies)
            return action.double if question == "offer" else action.take
    values = _level_estimates(rules, level, position, roller, roller_first)
    if question == "offer":
        return stakes.should_offer(values, stake, next_stake, mars)
    # The answerer's side of the roller's estimate: win <-> lose.
    mine = [1.0 - values[0], values[3], values[4], values[1], values[2]]
    return stakes.should_accept(mine, stake, next_stake, mars)


def match_stake_decision(rules: str, level: str, position: BoardPosition, side: Side,
                         situation: Situation, *, question: Literal["offer", "accept"],
                         first_turn: bool = False, rng: random.Random | None = None) -> bool:
    """:func:`stake_decision` in a match: the match score first (:mod:`computer.stakes`:
    never offer a dead cube, accept when refusing loses the match), then the level's
    rule with the stake, the next stake and whether marses count read from
    ``situation`` — in backgammon through the field engine, its cube decision at the
    match score (its match equity table; post-Crawford play). The server's computer
    (``games.bots``) and the reference bot client (:mod:`computer.lab.client`) both
    decide here. Whether an offer is allowed at all (S2-S7) is the caller's to check.
    Raises like :func:`stake_decision`.
    """
    ruleset(rules)
    _check_level(rules, level)
    if question == "offer" and situation.a_win_takes_the_match:
        return False
    if question == "accept" and situation.refusal_loses_the_match:
        return True
    away = (max(situation.length - situation.own, 1),
            max(situation.length - situation.opponent, 1))
    return stake_decision(rules, level, position, side, question=question,
                          stake=situation.stake, next_stake=situation.next_stake,
                          mars=situation.mars, first_turn=first_turn, rng=rng,
                          away=away if situation.length > 0 else None)


def resignation_decision(rules: str, level: str, position: BoardPosition, side: Side,
                         situation: Situation, *, offered_points: int,
                         offerer_first_turn: bool = False,
                         rng: random.Random | None = None) -> bool:
    """Whether ``side`` accepts the opponent's offer to resign the game for
    ``offered_points`` (the result's worth times the stake, S6) in ``position``, the
    offerer to roll (an offer made after its roll is judged as before it: cubeless, its
    dice not looked at).

    Accepted when it takes the match (``situation``: the score, the length), else when
    playing on is not expected to bring more (:func:`computer.stakes.should_accept_resignation`,
    the expected points per unit of the stake from the level's estimates, as its stake
    decisions read them: the field engine's where it plays, the network at 1 ply, the
    pip-count race formula for ``heuristic``, which sees no gammons); the ``random``
    level answers at random. Raises like :func:`choose_play`.
    """
    ruleset(rules)
    _check_level(rules, level)
    if situation.own + offered_points >= situation.length:
        return True
    if level == "random":
        return (rng or random.Random()).random() < 0.5
    values = _level_estimates(rules, level, position, 1 - side, offerer_first_turn)
    mine = [1.0 - values[0], values[3], values[4], values[1], values[2]]
    return stakes.should_accept_resignation(mine, offered_points / situation.stake,
                                            situation.mars)
