"""The turn state, plays and the rule sets of the hitting games (RULES-FAMILY H2-H16).

>>> from nardy import BACKGAMMON_RULES as game
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
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Final

from .. import notation
from ..board import BoardPosition
from ..codec import BoardCodec, SignedCounts
from ..errors import IllegalMoveError, NotationError
from ..forced import Shared
from ..moves import Step, format_play
from ..outcome import Outcome
from ..ruleset import DescribedRuleSet
from ..turnbase import TurnBase, check_dice, check_dice_left, dice_text, dice_to_play, err
from ..types import WHITE, Side, check_side, side_name
from .generate import (
    BAR,
    Layer,
    Mover,
    Search,
    State,
    distinct_finals,
    expand,
    hit_flags,
    search,
)
from .position import HitPosition
from .variants import BY_TAG, Variant

__all__ = ["HitPlay", "HitTurn", "HittingGame"]

_INDEX: Final = (tuple([-1] + [p - 1 for p in range(1, 25)]),
                 tuple([-1] + [24 - p for p in range(1, 25)]))
_NO_MARKS: Final = (0,)
_PACK_ONE: Final = struct.Struct("26b").pack


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


def _finals(mover: Mover, marks: tuple[int, ...], dice_left: tuple[int, ...],
            shared: Shared[State] | None = None) -> Layer:
    """The final states of the complete plays, one per distinct result."""
    finals = search(mover, mover.root(marks), dice_left, False, shared).finals
    return distinct_finals(finals) if mover.no_hit_and_hide else finals


def _plays(mover: Mover, marks: tuple[int, ...], dice_left: tuple[int, ...]) -> list[HitPlay]:
    finals = _finals(mover, marks, dice_left)
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
class HitTurn(TurnBase):
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
        check_dice_left(self.dice, self.dice_left)
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
        dice = check_dice(dice)
        return cls(position, check_side(side), dice, dice_to_play(dice), bool(first_turn))

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

    def head_may_leave(self) -> int:
        """Always 0: the hitting games have no head rule (H11)."""
        return 0

    # -- moving --------------------------------------------------------------

    GAME_OVER: ClassVar[str] = "the game is over (H14)"
    FORCED_RULES: ClassVar[tuple[str, str, str]] = ("H11", "H11", "H11")

    def _not_a_step(self, src: int, dst: int) -> IllegalMoveError | None:
        if not 1 <= src <= BAR or not 0 <= dst < src or (dst and src - dst > 6):
            where = "bar" if src == BAR else src
            return err("invalid_step", f"{where}/{dst or 'off'} is not a step: points run "
                                       "25 (the bar)..1 by 1..6")
        return None

    def _no_die_bears_off(self, src: int) -> IllegalMoveError:
        if not self.position.variant.descriptor.bears_off:
            return self._no_bear_off(src)
        return super()._no_die_bears_off(src)

    def _no_bear_off(self, src: int) -> IllegalMoveError:
        return err("no_bear_off", f"H13: {self.position.rules} has no bearing off; a checker "
                                  f"on {src} plays at most a {min(src - 1, 6)}")

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
        refused = self._not_started()
        if refused is not None:
            return refused
        variant = self.position.variant
        cap = variant.descriptor.cap
        src, dst, die = step.src, step.dst, step.die
        if dst == 0 and not variant.descriptor.bears_off:
            return self._no_bear_off(src)
        if die not in self.dice_left:
            return err("no_such_die", f"no {die} to play (dice left: "
                                      f"{dice_text(self.dice_left)})")
        position = self.position
        side = self.side
        on_bar = position.bar[side]
        if src == BAR:
            if not on_bar:
                return err("no_checker", "you have no checker on the bar")
        else:
            if on_bar:
                return err("bar_first", f"H9: enter your {on_bar} checker(s) from the bar "
                                        "before moving any other")
            mine = position.count_at(side, src)
            if mine < 0:
                return err("wrong_side", f"point {src} holds the opponent's checkers, "
                                         "not yours")
            if mine == 0:
                return err("no_checker", f"you have no checker on point {src}")
        if dst:
            there = position.count_at(side, dst)
            if there <= -2:
                return err("point_blocked", f"H7: point {dst} is closed (the opponent holds "
                                            f"{-there} checkers there)")
            if cap and there >= cap:
                return err("point_full", f"H7: {position.rules} allows at most {cap} "
                                         f"checkers on a point ({dst} holds {there})")
            if (variant.no_hit_and_hide and src != BAR and there > 0
                    and position.count_at(side, src) == 1
                    and all(m >> src & 1 for m in self.marks)):
                return err("hit_and_hide", f"H10: the checker on {src} hit this turn and may "
                                           f"not land on {dst}, which holds your checkers")
        else:
            if on_bar or not position.all_home(side):
                return err("not_all_home", "H12: bearing off needs every checker in home "
                                           "(1..6) and none on the bar")
            if die > src and any(position.count_at(side, p) > 0 for p in range(src + 1, 7)):
                return err("bear_off_not_exact",
                           f"H12: a {die} bears off from {src} only when no checker stands "
                           f"higher than {src}")
        return self._forced_play_error(step)

    # -- IDs -----------------------------------------------------------------

    def to_id(self) -> str:
        """The turn ID (docs/notation.md): ``<tag>T-`` + base64url of the position's
        10 bytes, 2 bytes of side, first turn, dice and dice left, and 3 bytes per
        H10 reading when there is more to say than "no hitter"."""
        position = self.position
        key = position._key((WHITE, 1), "big")
        readings = () if self.marks == _NO_MARKS else self.marks
        head = (((self.side << 1 | int(self.first_turn)) << 10
                 | notation.pack_dice(self.dice, self.dice_left)) << 4) | len(readings)
        data = key + head.to_bytes(2, "big") + b"".join(
            (m >> 1).to_bytes(3, "big") for m in readings)
        return f"{position.variant.descriptor.tag}T-" + base64.urlsafe_b64encode(data).decode()

    @classmethod
    def from_id(cls, text: str) -> HitTurn:
        """Parse a turn ID written by :meth:`to_id`. Raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"turn ID must be a string, not {type(text).__name__}")
        variant = BY_TAG.get(text[:2])
        payload = text[4:]
        if variant is None or text[2:4] != "T-":
            raise NotationError(
                f"a hitting game's turn ID starts with "
                f"{', '.join(tag + 'T-' for tag in BY_TAG)}: {text[:8]!r}")
        if len(payload) < 16 or len(payload) % 4 or not re.fullmatch(r"[A-Za-z0-9_-]+",
                                                                         payload):
            raise NotationError("turn ID: expected 16 + 4k base64url characters after the "
                                "prefix")
        try:
            data = base64.urlsafe_b64decode(payload)
        except (binascii.Error, ValueError) as exc:  # pragma: no cover - alphabet checked
            raise NotationError(f"turn ID: not base64url: {exc}") from None
        position = HitPosition._from_key(variant.descriptor.name, data[:10], (WHITE, 1), "big",
                                         "turn ID")
        head = int.from_bytes(data[10:12], "big")
        count = head & 0xF
        first_turn = bool((head >> 14) & 1)
        side = (head >> 15) & 1
        if len(data) != 12 + 3 * count:
            raise NotationError(f"turn ID: {count} H10 readings need {12 + 3 * count} bytes, "
                                f"not {len(data)}")
        dice, dice_left = notation.unpack_dice(head >> 4, "turn ID")
        marks = tuple(int.from_bytes(data[12 + 3 * i:15 + 3 * i], "big") << 1
                      for i in range(count)) or _NO_MARKS
        try:
            return cls(position, side, dice, dice_left, first_turn, marks)
        except ValueError as exc:
            raise NotationError(f"turn ID: {exc}") from None

    def __str__(self) -> str:
        return (f"{side_name(self.side)} to play {dice_text(self.dice_left)} "
                f"(roll {self.dice[0]}-{self.dice[1]}) on {self.position}")


def _one_die(mover: Mover, root: Layer, die: int, nxt: Layer, ended: Layer) -> Layer:
    expand(mover, root, die, nxt, ended, None, None, None)
    return {**nxt, **ended}


# ---------------------------------------------------------------------------
# The rule sets.


class HittingGame(DescribedRuleSet):
    """A hitting game as a :class:`~nardy.ruleset.RuleSet`: the shared rules
    with one :class:`~.variants.Variant`'s differences; its facts are the variant's
    :class:`~nardy.descriptor.Descriptor`. ``nardy.register`` makes it playable: its
    positions and IDs are known from then on. Raises ``ValueError`` when the
    descriptor's tag is not two letters (its IDs begin with it)."""

    def __init__(self, variant: Variant) -> None:
        tag = variant.descriptor.tag
        if len(tag) != 2:
            raise ValueError(f"a hitting game's tag is two letters, not {tag!r}")
        super().__init__(variant.descriptor)
        self.variant: Final = variant
        self.codec: Final[BoardCodec] = SignedCounts(self.position_from_perspective,
                                                     bar=variant.descriptor.bar)

    def __repr__(self) -> str:
        return f"HittingGame({self.descriptor.name})"

    def initial(self) -> HitPosition:
        """H3: the start of every game."""
        return HitPosition.initial(self.name)

    def _own(self, position: BoardPosition) -> HitPosition:
        if not isinstance(position, HitPosition) or position.rules != self.descriptor.name:
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
        dice = check_dice(dice)
        if own.outcome() is not None:
            return [HitPlay((), own, ())]
        return _plays(Mover.of(own, side, self.variant), _NO_MARKS, dice_to_play(dice))

    def legal_positions(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                        first_turn: bool = False) -> tuple[HitPosition, ...]:
        """The resulting positions of :meth:`legal_plays`, in the same order, without
        the plays. Raises like :meth:`legal_plays`."""
        own = self._own(position)
        side = check_side(side)
        dice = check_dice(dice)
        if own.outcome() is not None:
            return (own,)
        mover = Mover.of(own, side, self.variant)
        make = mover.position
        return tuple([make(key) for key in _finals(mover, _NO_MARKS, dice_to_play(dice))])

    def legal_positions_packed(self, position: BoardPosition, side: Side,
                               rolls: Iterable[tuple[int, int]], first_turn: bool = False,
                               ) -> tuple[bytes, ...]:
        """For each of ``rolls``, :meth:`legal_positions` packed
        (``RuleSet.legal_positions_packed``); the rolls share the one-die layers."""
        own = self._own(position)
        side = check_side(side)
        dice_list = [check_dice(dice) for dice in rolls]
        if own.outcome() is not None:
            return (_PACK_ONE(*own.points, *own.bar),) * len(dice_list)
        mover = Mover.of(own, side, self.variant)
        shared: Shared[State] = {}
        return tuple(mover.packed(_finals(mover, _NO_MARKS, dice_to_play(dice), shared))
                     for dice in dice_list)

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


