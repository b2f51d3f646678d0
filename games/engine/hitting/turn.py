"""The turn state, plays and the rule sets of the hitting games (RULES-FAMILY H2-H16).

>>> from games.engine.hitting.variants import BACKGAMMON
>>> game = HittingGame(BACKGAMMON)
>>> state = game.start_turn(game.initial(), WHITE, (3, 1), first_turn=True)
>>> [str(s) for s in state.legal_steps()][:3]
['24/21', '24/23', '13/10']
>>> state = state.apply_all("8/5 6/5")
>>> state.is_turn_over(), state.position.in_perspective(WHITE)[5]
(True, 2)
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from ..errors import IllegalMoveError, NotationError
from ..moves import Step, format_play, parse_play
from ..outcome import Outcome
from ..ruleset import BoardPosition, LaterGames, Opening
from ..types import WHITE, Side, check_side, side_name
from .generate import BAR, Layer, Mover, Search, distinct_finals, expand, hit_flags, search
from .position import HitPosition
from .variants import BY_TAG, Variant

__all__ = ["HitPlay", "HitTurn", "HittingGame"]

_INDEX: Final = (tuple([-1] + [p - 1 for p in range(1, 25)]),
                 tuple([-1] + [24 - p for p in range(1, 25)]))
_NO_MARKS: Final = (0,)


class HitPlay:
    """A complete play: its ``steps`` in order, which of them hit (``hits``, one flag
    per step) and the resulting ``position``. ``str`` writes hit marks: ``13/7* 7/4``.

    Plays listed by the generator work out ``position`` and ``hits`` on first use
    (most callers look at one play of many). Treat it as immutable.
    """

    __slots__ = ("_hits", "_key", "_mover", "_position", "steps")

    def __init__(self, steps: tuple[Step, ...], position: HitPosition,
                 hits: tuple[bool, ...]) -> None:
        if len(hits) != len(steps):
            raise ValueError("hits needs one flag per step")
        self.steps = steps
        self._position: HitPosition = position
        self._hits: tuple[bool, ...] = hits
        self._mover: Mover | None = None
        self._key = 0

    @property
    def position(self) -> HitPosition:
        try:
            return self._position
        except AttributeError:  # a listed play: worked out on first use
            assert self._mover is not None
            position = self._position = self._mover.position(self._key)
            return position

    @property
    def hits(self) -> tuple[bool, ...]:
        try:
            return self._hits
        except AttributeError:
            assert self._mover is not None
            hits = self._hits = hit_flags(self._mover, self.steps)
            return hits

    def __str__(self) -> str:
        return format_play(self.steps, self.hits)

    def __repr__(self) -> str:
        return f"HitPlay({format_play(self.steps, self.hits)!r} -> {self.position})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HitPlay):
            return NotImplemented
        return self.steps == other.steps and self.position == other.position

    def __hash__(self) -> int:
        return hash((self.steps, self.position))

    @property
    def dice_used(self) -> int:
        return len(self.steps)


# The slot descriptors' setters: the cheapest way to fill a play.
_set_steps: Final = vars(HitPlay)["steps"].__set__
_set_mover: Final = vars(HitPlay)["_mover"].__set__
_set_key: Final = vars(HitPlay)["_key"].__set__


def _check_dice(dice: object) -> tuple[int, int]:
    if (not isinstance(dice, tuple | list) or len(dice) != 2
            or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6
                   for d in dice)):
        raise ValueError(f"dice must be two ints 1..6, not {dice!r}")
    return (dice[0], dice[1])


def _dice_to_play(dice: tuple[int, int]) -> tuple[int, ...]:
    """H6: four of a double, else the two dice high to low."""
    a, b = dice
    return (a,) * 4 if a == b else ((a, b) if a > b else (b, a))


def _dice_text(dice: tuple[int, ...]) -> str:
    return "-".join(str(d) for d in dice) if dice else "none"


def _err(reason: str, message: str) -> IllegalMoveError:
    return IllegalMoveError(reason, message)


def _plays(mover: Mover, marks: tuple[int, ...], dice_left: tuple[int, ...]) -> list[HitPlay]:
    finals = search(mover, mover.root(marks), dice_left, False).finals
    if mover.no_hit_and_hide:
        finals = distinct_finals(finals)
    new = object.__new__
    plays = []
    for key, value in finals.items():
        play = new(HitPlay)
        _set_steps(play, value[3])  # _position and _hits stay unset until asked for
        _set_mover(play, mover)
        _set_key(play, key)
        plays.append(play)
    return plays


@dataclass(frozen=True)
class HitTurn:
    """One side's turn in progress in a hitting game. Immutable: :meth:`apply`
    returns the next state.

    ``dice_left`` is sorted high to low (a double gives four). ``marks`` is for H10
    (``short_nardy``): the possible sets of the mover's points (bit ``p``) holding a
    checker that hit this turn; more than one when a step from a point holding the
    hitter and other checkers may have been either's. Always ``(0,)`` elsewhere.
    """

    position: HitPosition
    side: Side
    dice: tuple[int, int]
    dice_left: tuple[int, ...]
    first_turn: bool = False
    marks: tuple[int, ...] = _NO_MARKS

    def __post_init__(self) -> None:
        check_side(self.side)
        if not isinstance(self.position, HitPosition):
            raise TypeError(f"a hitting game's turn needs a HitPosition, not "
                            f"{type(self.position).__name__}")
        if not isinstance(self.dice, tuple):
            raise ValueError(f"dice must be a tuple, not {self.dice!r}")
        allowed = _dice_to_play(_check_dice(self.dice))
        left = self.dice_left
        if (not isinstance(left, tuple) or list(left) != sorted(left, reverse=True)
                or any(left.count(d) > allowed.count(d) for d in left)):
            raise ValueError(f"dice_left {left!r} is not part of the roll {self.dice!r}")
        marks = self.marks
        if (not isinstance(marks, tuple) or not marks or list(marks) != sorted(set(marks))
                or any(not isinstance(m, int) or m & ~0x1FFFFFE for m in marks)):
            raise ValueError(f"marks {marks!r} must be sorted distinct masks of points 1..24")
        if marks != _NO_MARKS:
            if not self.position.variant.no_hit_and_hide:
                raise ValueError(f"{self.position.rules} has no hit-and-hide rule: marks "
                                 "must be (0,)")
            for m in marks:
                for p in range(1, 25):
                    if m >> p & 1 and self.position.count_at(self.side, p) <= 0:
                        raise ValueError(f"a hitter is marked on point {p} where "
                                         f"{side_name(self.side)} has no checker")

    @classmethod
    def start(cls, position: HitPosition, side: Side, dice: tuple[int, int],
              first_turn: bool = False) -> HitTurn:
        """The state at the start of ``side``'s turn with ``dice`` rolled.
        Raises ``ValueError`` for bad dice or side."""
        dice = _check_dice(dice)
        return cls(position, check_side(side), dice, _dice_to_play(dice), bool(first_turn))

    # -- queries -------------------------------------------------------------

    @cached_property
    def _mover(self) -> Mover:
        return Mover.of(self.position, self.side, self.position.variant)

    @cached_property
    def _search_result(self) -> Search:
        if self.position.outcome() is not None:
            return Search({}, set(), 0)
        mover = self._mover
        return search(mover, mover.root(self.marks), self.dice_left, True)

    def outcome(self) -> Outcome | None:
        return self.position.outcome()

    def legal_steps(self) -> tuple[Step, ...]:
        """H11 (as R24): the first steps of the complete plays allowed from here,
        sorted by source (the bar, 25, first), then die, high first."""
        return self._legal_steps

    @cached_property
    def _legal_steps(self) -> tuple[Step, ...]:
        return tuple(sorted(self._search_result.firsts, key=lambda s: (-s.src, -s.die)))

    def hits(self, step: Step) -> bool:
        """Whether ``step`` lands on an opposing blot (H7), judged on the current board."""
        dst = step.dst
        if not 1 <= dst <= 24:
            return False
        value = self.position.points[_INDEX[self.side][dst]]
        return value == (-1 if self.side == WHITE else 1)

    def plays(self) -> list[HitPlay]:
        """The complete plays from this stop on, one per distinct result (same
        contract as :meth:`HittingGame.legal_plays`)."""
        if self.position.outcome() is not None:
            return [HitPlay((), self.position, ())]
        return _plays(self._mover, self.marks, self.dice_left)

    def max_dice(self) -> int:
        """How many more dice the maximal plays use from here (H11)."""
        return self._search_result.max_dice

    def head_may_leave(self) -> int:
        """Always 0: the hitting games have no head rule (H11)."""
        return 0

    def is_turn_over(self) -> bool:
        """No dice left, no legal step or the game is over."""
        return not self.dice_left or not self.legal_steps()

    def pass_reason(self) -> str | None:
        """``"no legal move"`` when dice remain but none can be played, else None."""
        if self.dice_left and self.position.outcome() is None and not self.legal_steps():
            return "no legal move"
        return None

    # -- moving --------------------------------------------------------------

    def apply(self, step: Step) -> HitTurn:
        """Play one step; returns the next state. A bear-off with ``die == 0`` is
        resolved first. Raises :class:`IllegalMoveError` (``.reason`` says why)
        unless the step is one of :meth:`legal_steps`."""
        if not isinstance(step, Step):
            raise TypeError(f"apply() takes a Step, not {type(step).__name__}")
        if step.die == 0:
            step = self.resolve(step.src, step.dst)
        elif step not in self.legal_steps():
            raise self._diagnose(step)
        return self._after(step)

    def apply_all(self, steps: Iterable[Step] | str) -> HitTurn:
        """Apply steps in order (text is read with :func:`parse_play`)."""
        state = self
        for step in parse_play(steps) if isinstance(steps, str) else steps:
            state = state.apply(step)
        return state

    def resolve(self, src: int, dst: int) -> Step:
        """The legal step from ``src`` (25: the bar) to ``dst`` (0: off), finding its
        die. Raises :class:`IllegalMoveError`: ``ambiguous_die`` when several dice bear
        off from ``src`` legally, else the reason the move is refused."""
        if self.position.outcome() is not None:
            raise _err("game_over", "the game is over (H14)")
        for name, value in (("src", src), ("dst", dst)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise _err("invalid_step", f"step {name} must be an int, not {value!r}")
        if not 1 <= src <= BAR or not 0 <= dst < src or (dst and src - dst > 6):
            where = "bar" if src == BAR else src
            raise _err("invalid_step", f"{where}/{dst or 'off'} is not a step: points run "
                                       "25 (the bar)..1 by 1..6")
        matches = [s for s in self.legal_steps() if s.src == src and s.dst == dst]
        if len(matches) == 1:
            return matches[0]
        if matches:
            dice = " or ".join(str(s.die) for s in matches)
            raise _err("ambiguous_die", f"{src}/off can be played with a {dice}: say which die")
        if dst:
            raise self._diagnose(Step(src, dst))
        fitting = sorted((d for d in set(self.dice_left) if d >= src), key=lambda d: d - src)
        if not fitting:
            if not self.dice_left:
                raise _err("turn_over", "no dice left this turn")
            if not self.position.variant.bear_off:
                raise self._diagnose(Step(src, 0, src if src <= 6 else 6))
            raise _err("no_such_die", f"no die left bears off from {src} "
                                      f"(dice left: {_dice_text(self.dice_left)})")
        raise self._diagnose(Step(src, 0, fitting[0]))

    def _after(self, step: Step) -> HitTurn:
        mover = self._mover
        root = mover.root(self.marks)
        nxt: Layer = {}
        ended: Layer = {}
        search_one = _one_die(mover, root, step.die, nxt, ended)
        children = [key for key, value in search_one.items() if value[3][-1] == step]
        left = list(self.dice_left)
        left.remove(step.die)
        marks = tuple(sorted({mover.marks_of(k) for k in children}))
        return HitTurn(mover.position(children[0]), self.side, self.dice, tuple(left),
                       self.first_turn, marks if self.position.variant.no_hit_and_hide
                       else _NO_MARKS)

    def _diagnose(self, step: Step) -> IllegalMoveError:
        """Why ``step`` is not among the legal steps (checked in a fixed order)."""
        if self.position.outcome() is not None:
            return _err("game_over", "the game is over (H14)")
        if not self.dice_left:
            return _err("turn_over", "no dice left this turn")
        variant = self.position.variant
        src, dst, die = step.src, step.dst, step.die
        if dst == 0 and not variant.bear_off:
            return _err("no_bear_off", f"H13: {variant.name} has no bearing off; a checker "
                                       f"on {src} plays at most a {min(src - 1, 6)}")
        if die not in self.dice_left:
            return _err("no_such_die", f"no {die} to play (dice left: "
                                       f"{_dice_text(self.dice_left)})")
        position = self.position
        side = self.side
        on_bar = position.bar[side]
        if src == BAR:
            if not on_bar:
                return _err("no_checker", "you have no checker on the bar")
        else:
            if on_bar:
                return _err("bar_first", f"H9: enter your {on_bar} checker(s) from the bar "
                                         "before moving any other")
            mine = position.count_at(side, src)
            if mine < 0:
                return _err("wrong_side", f"point {src} holds the opponent's checkers, "
                                          "not yours")
            if mine == 0:
                return _err("no_checker", f"you have no checker on point {src}")
        if dst:
            there = position.count_at(side, dst)
            if there <= -2:
                return _err("point_blocked", f"H7: point {dst} is closed (the opponent holds "
                                             f"{-there} checkers there)")
            if variant.cap and there >= variant.cap:
                return _err("point_full", f"H7: {variant.name} allows at most {variant.cap} "
                                          f"checkers on a point ({dst} holds {there})")
            if (variant.no_hit_and_hide and src != BAR and there > 0
                    and position.count_at(side, src) == 1
                    and all(m >> src & 1 for m in self.marks)):
                return _err("hit_and_hide", f"H10: the checker on {src} hit this turn and may "
                                            f"not land on {dst}, which holds your checkers")
        else:
            if on_bar or not position.all_home(side):
                return _err("not_all_home", "H12: bearing off needs every checker in home "
                                            "(1..6) and none on the bar")
            if die > src and any(position.count_at(side, p) > 0 for p in range(src + 1, 7)):
                return _err("bear_off_not_exact",
                            f"H12: a {die} bears off from {src} only when no checker stands "
                            f"higher than {src}")
        result = self._search_result
        a, b = self.dice_left[0], self.dice_left[-1]
        if len(self.dice_left) == 2 and a != b:
            if result.both_possible:
                return _err("must_play_both",
                            f"H11: {step} leaves the other die unplayable; both must be played")
            return _err("must_play_larger",
                        f"H11: only one die can be played, so the larger ({a}) must be")
        return _err("must_play_max",
                    f"H11: {step} does not lead to a play of the most dice "
                    f"({result.max_dice}) possible")

    # -- IDs -----------------------------------------------------------------

    def to_id(self) -> str:
        """The turn ID (docs/notation.md): ``<tag>T-`` + base64url of the position's
        10 bytes, 2 bytes of side, first turn, dice and dice left, and 3 bytes per
        H10 reading when there is more to say than "no hitter"."""
        position = self.position
        key = position._key((WHITE, 1), "big")
        dice, left = self.dice, self.dice_left
        n_left = len(left)
        last_is_die2 = int(dice[0] != dice[1] and n_left == 1 and left[0] == dice[1])
        readings = () if self.marks == _NO_MARKS else self.marks
        head = self.side
        for value, bits in ((int(self.first_turn), 1), (dice[0], 3), (dice[1], 3),
                            (n_left, 3), (last_is_die2, 1), (len(readings), 4)):
            head = (head << bits) | value
        data = key + head.to_bytes(2, "big") + b"".join(
            (m >> 1).to_bytes(3, "big") for m in readings)
        return f"{position.variant.tag}T-" + base64.urlsafe_b64encode(data).decode()

    @classmethod
    def from_id(cls, text: str) -> HitTurn:
        """Parse a turn ID written by :meth:`to_id`. Raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"turn ID must be a string, not {type(text).__name__}")
        variant = BY_TAG.get(text[:2])
        payload = text[4:]
        if variant is None or text[2:4] != "T-":
            raise NotationError(
                f"a hitting game's turn ID starts with SNT-, BGT- or NRT-: {text[:8]!r}")
        if len(payload) < 16 or len(payload) % 4 or not re.fullmatch(r"[A-Za-z0-9_-]+",
                                                                         payload):
            raise NotationError("turn ID: expected 16 + 4k base64url characters after the "
                                "prefix")
        try:
            data = base64.urlsafe_b64decode(payload)
        except (binascii.Error, ValueError) as exc:  # pragma: no cover - alphabet checked
            raise NotationError(f"turn ID: not base64url: {exc}") from None
        position = HitPosition._from_key(variant.name, data[:10], (WHITE, 1), "big", "turn ID")
        head = int.from_bytes(data[10:12], "big")
        count = head & 0xF
        last_is_die2 = (head >> 4) & 1
        n_left = (head >> 5) & 0b111
        die2 = (head >> 8) & 0b111
        die1 = (head >> 11) & 0b111
        first_turn = bool((head >> 14) & 1)
        side = (head >> 15) & 1
        if len(data) != 12 + 3 * count:
            raise NotationError(f"turn ID: {count} H10 readings need {12 + 3 * count} bytes, "
                                f"not {len(data)}")
        if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
            raise NotationError(f"turn ID: dice must be 1..6, got {die1} and {die2}")
        double = die1 == die2
        if n_left > (4 if double else 2) or (last_is_die2 and (double or n_left != 1)):
            raise NotationError(f"turn ID: {n_left} dice left of a {die1}-{die2} roll")
        dice_left: tuple[int, ...]
        if double:
            dice_left = (die1,) * n_left
        elif n_left == 2:
            dice_left = (max(die1, die2), min(die1, die2))
        elif n_left == 1:
            dice_left = (die2 if last_is_die2 else die1,)
        else:
            dice_left = ()
        marks = tuple(int.from_bytes(data[12 + 3 * i:15 + 3 * i], "big") << 1
                      for i in range(count)) or _NO_MARKS
        try:
            return cls(position, side, (die1, die2), dice_left, first_turn, marks)
        except ValueError as exc:
            raise NotationError(f"turn ID: {exc}") from None

    def __str__(self) -> str:
        return (f"{side_name(self.side)} to play {_dice_text(self.dice_left)} "
                f"(roll {self.dice[0]}-{self.dice[1]}) on {self.position}")


def _one_die(mover: Mover, root: Layer, die: int, nxt: Layer, ended: Layer) -> Layer:
    expand(root, die, mover, nxt, ended, None, None, None)
    return {**nxt, **ended}


# ---------------------------------------------------------------------------
# The rule sets.


class HittingGame:
    """A hitting game as a :class:`~games.engine.ruleset.RuleSet`: the shared rules
    with one :class:`~.variants.Variant`'s differences."""

    def __init__(self, variant: Variant) -> None:
        self.variant: Final = variant

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def title(self) -> str:
        return self.variant.title

    @property
    def opening(self) -> Opening:
        return self.variant.opening

    @property
    def later_games(self) -> LaterGames:
        return self.variant.later_games

    @property
    def results(self) -> tuple[str, ...]:
        return self.variant.results

    def __repr__(self) -> str:
        return f"HittingGame({self.name})"

    def initial(self) -> HitPosition:
        """H3: the start of every game."""
        return HitPosition.initial(self.name)

    def _own(self, position: BoardPosition) -> HitPosition:
        if not isinstance(position, HitPosition) or position.rules != self.name:
            raise TypeError(f"{self.name} plays its own HitPosition, not {position!r}")
        return position

    def start_turn(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                   first_turn: bool = False) -> HitTurn:
        return HitTurn.start(self._own(position), side, dice, first_turn)

    def legal_plays(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                    first_turn: bool = False) -> list[HitPlay]:
        """Every legal complete play for ``side`` rolling ``dice`` (H6-H14).

        One play per distinct resulting position (board, bar and off), each with one
        step order; all use the same, maximal number of dice (H11). With no legal
        move the list holds one empty play whose position is ``position``.
        Raises ``ValueError`` for bad dice or side, ``TypeError`` for another
        rule set's position.
        """
        own = self._own(position)
        side = check_side(side)
        dice = _check_dice(dice)
        if own.outcome() is not None:
            return [HitPlay((), own, ())]
        return _plays(Mover.of(own, side, self.variant), _NO_MARKS, _dice_to_play(dice))

    def outcome(self, position: BoardPosition) -> Outcome | None:
        return self._own(position).outcome()

    def resign_outcome(self, position: BoardPosition, resigning_side: Side) -> Outcome:
        """H16: see :meth:`HitPosition.resign_outcome`."""
        return self._own(position).resign_outcome(resigning_side)

    def position_from_id(self, text: str) -> HitPosition:
        position = HitPosition.from_id(text)
        if position.rules != self.name:
            raise NotationError(f"position ID is a {position.rules} position, not {self.name}")
        return position

    def turn_from_id(self, text: str) -> HitTurn:
        turn = HitTurn.from_id(text)
        if turn.position.rules != self.name:
            raise NotationError(f"turn ID is a {turn.position.rules} turn, not {self.name}")
        return turn

    def position_from_perspective(self, side: Side, counts: Mapping[int, int],
                                  off_mine: int = 0, off_theirs: int = 0,
                                  bar_mine: int = 0, bar_theirs: int = 0) -> HitPosition:
        return HitPosition.from_perspective(self.name, side, counts, off_mine, off_theirs,
                                            bar_mine, bar_theirs)

    def position_from_gnubg_id(self, text: str, on_roll: Side) -> HitPosition:
        """A position from GNU Backgammon's position ID, ``on_roll`` to play."""
        return HitPosition.from_gnubg_id(text, on_roll, self.name)


