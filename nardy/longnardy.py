"""Long Nardy: move generation, the turn state and the rule set (RULES R4-R28).

Internally a query works in the mover's own numbering with ints only:

- ``key``: the mover's checkers, one byte per point; the mover's point ``p`` sits in
  the byte of that point's White number, so ``key.to_bytes(25, "little")`` lists the
  counts in ``Position.points`` order for either side (see :class:`_Mover`);
- ``occ``: bit ``p`` set when the mover has a checker on point ``p``;
- ``opp``: bit ``p`` set when the opponent has a checker on the mover's point ``p``
  (the opponent never moves during the mover's turn, so it is fixed per query);
- ``forb[t]``: the six-point windows containing point ``t`` that the prime rule
  refuses to see newly filled (R14-R18), chosen once per query from a table.

Plays are generated breadth-first, one die per layer, merging equal boards, so every
intermediate stop is judged (R10, R16) and each distinct result is found once.

>>> state = TurnState.start(Position.initial(), WHITE, (6, 6), first_turn=True)
>>> [str(s) for s in state.legal_steps()], state.head_may_leave()
(['24/18'], 2)
>>> [str(p) for p in legal_plays(Position.initial(), WHITE, (6, 6), True)]
['24/18 24/18']
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from typing import ClassVar, Final

from . import notation
from .board import BoardPosition
from .codec import PACKED_SIZE, BoardCodec, SignedCounts
from .descriptor import LONG_NARDY
from .errors import IllegalMoveError, InvalidPositionError, NotationError
from .forced import Firsts, Search, Shared, search
from .moves import Play, Step
from .position import Outcome, Position, resign_outcome
from .ruleset import DescribedRuleSet
from .turnbase import TurnBase, check_dice, check_dice_left, dice_text, dice_to_play, err
from .types import CHECKERS, HEAD, WHITE, Side, check_side, side_name

# ---------------------------------------------------------------------------
# Tables, built once at import.

_BIT: Final = tuple(1 << p for p in range(25))
# The byte of the board key holding the mover's point p is the byte of that point in
# White's numbering, so a key reads straight into Position.points order for either side.
_SHIFTS: Final = (tuple(8 * p for p in range(25)),
                  tuple(8 * (p + 12 if p <= 12 else p - 12) if p else 0 for p in range(25)))
_UNITS: Final = tuple(tuple(1 << sh for sh in shifts) for shifts in _SHIFTS)
# _MOVES[side][d][s]: what moving a checker from the mover's point s with die d adds to
# the key (off the board when s <= d; unused entries 0).
_MOVES: Final = tuple(tuple(tuple((units[s - d] if s > d else 0) - units[s] if s else 0
                                  for s in range(25)) for d in range(7))
                      for units in _UNITS)
# Points of a 12-bit mask, high to low: _HIGH_POINTS[m] for bits 13..24 (m = mask >> 13),
# _LOW_POINTS[m] for bits 1..12 (m = (mask >> 1) & 0xFFF). Faster than peeling bits.
_HIGH_POINTS: Final = tuple(tuple(p for p in range(24, 12, -1) if m >> (p - 13) & 1)
                            for m in range(4096))
_LOW_POINTS: Final = tuple(tuple(p for p in range(12, 0, -1) if m >> (p - 1) & 1)
                           for m in range(4096))
_NOT_HEAD: Final = ~(1 << HEAD)
_OUTSIDE_HOME: Final = sum(1 << p for p in range(7, 25))
_LOW: Final = tuple(sum(1 << p for p in range(1, d + 1)) for d in range(7))
"""_LOW[d]: bits of points 1..d."""
_LOWER_HALF: Final = sum(1 << p for p in range(1, 13))
_UPPER_HALF: Final = sum(1 << p for p in range(13, 25))

# Mover point p -> index into Position.points (White numbering), per side.
_INDEX: Final = (
    tuple([-1] + [p - 1 for p in range(1, 25)]),
    tuple([-1] + [(p + 12 if p <= 12 else p - 12) - 1 for p in range(1, 25)]),
)
_SIGN: Final = (1, -1)

# Converting Position.points to and from bytes (see _Mover).
_PACK: Final = struct.Struct("x24b").pack
_UNPACK: Final = struct.Struct("x24b").unpack
_PACK_RECORD: Final = struct.Struct("24b2x").pack  # RuleSet.legal_positions_packed's record
_SIGNED = tuple(range(128)) + tuple(range(-128, 0))  # byte -> signed value
_POSITIVE: Final = bytes(v if v > 0 else 0 for v in _SIGNED)
_NEGATIVE: Final = bytes(-v if v < 0 else 0 for v in _SIGNED)
_POSITIVE_BIT: Final = bytes(b"1"[0] if v > 0 else b"0"[0] for v in _SIGNED)
_NEGATIVE_BIT: Final = bytes(b"1"[0] if v < 0 else b"0"[0] for v in _SIGNED)
# Excess-128 bytes: the opponent's signed values (one side's checkers zeroed) plus 128.
_BIASED_NEGATIVE: Final = bytes(128 + v if v < 0 else 128 for v in _SIGNED)
_BIASED_POSITIVE: Final = bytes(128 + v if v > 0 else 128 for v in _SIGNED)
_UNBIAS: Final = bytes(b ^ 0x80 for b in range(256))  # excess-128 -> two's complement


def _make_steps() -> tuple[tuple[Step, ...], ...]:
    """_STEPS[d][s]: the interned step moving a checker from s with die d."""
    table = []
    for d in range(7):
        row = [Step(1, 0, 1)]  # placeholder for s = 0, never used
        for s in range(1, 25):
            row.append(Step(s, max(s - d, 0), d) if d else Step(s, 0, 0))
        table.append(tuple(row))
    return tuple(table)


_STEPS: Final = _make_steps()


def _window(k: int) -> int:
    return sum(1 << p for p in range(k, k + 6))


def _prime_allowed(k: int, lowest_low: int, lowest_high: int) -> bool:
    """R15/R18 for the window of own points k..k+5.

    ``lowest_low`` / ``lowest_high``: the mover's lowest point holding an opposing
    checker among 1..12 / 13..24 (13 / 25 when none). An opposing checker on the
    mover's point p has opponent number opp(p); it is ahead of the window when
    opp(p) is below opp of every window point:
    - window within 1..12 (k <= 7): opp numbers k+12..k+17; ahead are the mover's
      points 13..24 (opp 1..12) and 1..k-1;
    - window within 13..24 (k >= 13): opp numbers k-12..k-7; ahead are 13..k-1;
    - window holding 12 and 13 (k = 8..12): it holds opp number 1, nothing is ahead.
    """
    if k <= 7:
        return lowest_high <= 24 or lowest_low < k
    if k >= 13:
        return lowest_high < k
    return False


def _make_forbidden() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    table = []
    for lowest_low in range(14):
        row = []
        for lowest_high in range(26):
            per_point: list[tuple[int, ...]] = [()]
            for t in range(1, 25):
                per_point.append(tuple(
                    _window(k) for k in range(max(1, t - 5), min(19, t) + 1)
                    if not _prime_allowed(k, lowest_low, lowest_high)))
            row.append(tuple(per_point))
        table.append(tuple(row))
    return tuple(table)


_FORBIDDEN: Final = _make_forbidden()
"""_FORBIDDEN[lowest_low][lowest_high][t]: refused windows containing point t."""


def _forbidden_for(opp: int) -> tuple[tuple[int, ...], ...]:
    low = opp & _LOWER_HALF
    high = opp & _UPPER_HALF
    lowest_low = (low & -low).bit_length() - 1 if low else 13
    lowest_high = (high & -high).bit_length() - 1 if high else 25
    return _FORBIDDEN[lowest_low][lowest_high]


# ---------------------------------------------------------------------------
# The generator.

# A layer maps a board key to (occ, head_left, steps so far).
_State = tuple[int, int, tuple[Step, ...]]
_Layer = dict[int, _State]


def _expand(mover: _Mover, forb: tuple[tuple[int, ...], ...], layer: _Layer, d: int,
            nxt: _Layer, ended: _Layer,
            firsts_in: Firsts | None, firsts_out: Firsts | None,
            ended_firsts: Firsts | None, with_steps: bool = True) -> None:
    """Play die ``d`` once from every state of ``layer`` in every legal way.

    New states go to ``nxt`` (or ``ended`` when the 15th checker is off, R28).
    When ``firsts_out`` is given, each new state collects the set of first steps
    that reach it (``firsts_in`` None means ``layer`` is the turn's root). Without
    ``with_steps`` the states keep the root's (empty) steps: only the results are wanted.
    """
    open_landing = ~(mover.opp << d)  # sources whose landing holds no opposing checker (R6)
    not_low_d = ~_LOW[d]
    not_below_d = ~_LOW[d - 1]
    steps_d = _STEPS[d]
    high_points = _HIGH_POINTS
    low_points = _LOW_POINTS
    bit = _BIT
    move = _MOVES[mover.side][d]
    shift = mover.shift
    for key, (occ, head, steps) in layer.items():
        cand = occ & open_landing
        if not head:
            cand &= _NOT_HEAD  # R11/R12: the head allowance is used up
        if occ & _OUTSIDE_HOME:
            cand &= not_low_d  # R25: no bearing off while a checker is outside home
        else:
            top = occ.bit_length() - 1
            # R26: exact point d, or the highest point when d is above it.
            cand = bit[top] if top < d else cand & not_below_d
        for s in high_points[cand >> 13] + low_points[(cand >> 1) & 0xFFF]:
            key2 = key + move[s]
            target = nxt if key2 else ended  # (no checker left on the board: R28)
            seen = key2 in target
            if seen and firsts_out is None:
                continue  # found already: this path's legality cannot change the result
            occ2 = occ ^ bit[s] if (key >> shift[s]) & 255 == 1 else occ
            t = s - d
            if t > 0:
                tb = bit[t]
                if not occ2 & tb:
                    occ2 |= tb
                    refused = False
                    for window in forb[t]:  # R15-R17: only windows through t can be new
                        if occ2 & window == window:
                            refused = True
                            break
                    if refused:
                        continue
            step = steps_d[s]
            if seen:
                fo = firsts_out if key2 else ended_firsts
                assert fo is not None
                fo[key2] |= firsts_in[key] if firsts_in is not None else {step}
                continue
            target[key2] = (occ2, head - 1 if s == HEAD else head,
                            (*steps, step) if with_steps else steps)
            if firsts_out is not None:
                fo = firsts_out if key2 else ended_firsts
                assert fo is not None
                fo[key2] = set(firsts_in[key]) if firsts_in is not None else {step}


_Search = Search[_State]
"""What :func:`_search` finds (see :mod:`.forced`)."""


def _search(mover: _Mover, head: int, dice_left: tuple[int, ...], want_firsts: bool,
            with_steps: bool = True) -> _Search:
    """All complete plays allowed by R19-R21 from one state (see the module doc); the
    finals hold no steps unless ``with_steps``."""
    root: _Layer = {mover.key: (mover.occ, head, ())}
    if mover.key == 0:
        return Search(root, set(), 0)
    expand = partial(_expand, mover, _forbidden_for(mover.opp), with_steps=with_steps)
    return search(expand, root, dice_left, want_firsts)


# ---------------------------------------------------------------------------
# Converting between Position and the mover's int encoding.


@dataclass(frozen=True, slots=True)
class _Mover:
    """A position seen by ``side``: the int encoding plus what converts it back.

    ``key`` holds the mover's counts, one byte per point, at the byte of the point's
    White number (``shift`` gives the bit offset of the mover's point p; :data:`_MOVES`
    what a step adds to the key).
    ``occ``/``opp`` are bit masks in the mover's numbering. ``convert`` is the
    excess-128 byte image of the opponent's checkers: White's points are
    ``convert + key`` and Black's ``convert - key`` read as biased bytes.
    """

    side: Side
    key: int
    occ: int
    opp: int
    convert: int
    off: tuple[int, int]
    shift: tuple[int, ...]

    @classmethod
    def of(cls, position: Position, side: Side) -> _Mover:
        raw = _PACK(*position.points)  # byte i + 1: White's point i + 1, two's complement
        if side == WHITE:
            key = int.from_bytes(raw.translate(_POSITIVE), "little")
            occ = int(raw.translate(_POSITIVE_BIT)[::-1], 2)
            opp = int(raw.translate(_NEGATIVE_BIT)[::-1], 2)
            convert = int.from_bytes(raw.translate(_BIASED_NEGATIVE), "little")
        else:
            key = int.from_bytes(raw.translate(_NEGATIVE), "little")
            occ = _rotate(int(raw.translate(_NEGATIVE_BIT)[::-1], 2))
            opp = _rotate(int(raw.translate(_POSITIVE_BIT)[::-1], 2))
            convert = int.from_bytes(raw.translate(_BIASED_POSITIVE), "little")
        return cls(side, key, occ & _ALL_POINTS, opp & _ALL_POINTS, convert, position.off,
                   _SHIFTS[side])

    def positions(self, keys: Iterable[int]) -> list[Position]:
        """The Positions where the mover's checkers are each of ``keys`` (the opponent's
        unchanged), built without validation: the generator's results are consistent
        by construction. One loop: the hot path of :func:`legal_plays` and
        :func:`legal_positions`."""
        new = object.__new__
        unpack = _UNPACK
        unbias = _UNBIAS
        set_points = _set_points
        set_off = _set_off
        convert = self.convert
        positions = []
        # key % 255 is the sum of its bytes (256 ** p leaves 1 modulo 255): the checkers
        # on the board.
        if self.side == WHITE:
            black_off = self.off[1]
            for key in keys:
                position = new(Position)
                set_points(position, unpack((convert + key).to_bytes(25, "little")
                                            .translate(unbias)))
                set_off(position, (CHECKERS - key % 255, black_off))
                positions.append(position)
        else:
            white_off = self.off[0]
            for key in keys:
                position = new(Position)
                set_points(position, unpack((convert - key).to_bytes(25, "little")
                                            .translate(unbias)))
                set_off(position, (white_off, CHECKERS - key % 255))
                positions.append(position)
        return positions

    def packed(self, keys: Iterable[int]) -> bytes:
        """:meth:`positions` of ``keys`` packed as ``RuleSet.legal_positions_packed``
        packs them: per key, White's 24 points and the two (empty) bars as signed bytes."""
        # Biased bytes without the key's unused byte 0, and biased zeros for the bars.
        convert = (self.convert >> 8) | _EMPTY_BARS
        if self.side == WHITE:
            raw = b"".join([(convert + (key >> 8)).to_bytes(PACKED_SIZE, "little")
                            for key in keys])
        else:
            raw = b"".join([(convert - (key >> 8)).to_bytes(PACKED_SIZE, "little")
                            for key in keys])
        return raw.translate(_UNBIAS)


_ALL_POINTS: Final = sum(1 << p for p in range(1, 25))
_EMPTY_BARS: Final = (128 << 8 * 24) | (128 << 8 * 25)


def _rotate(mask: int) -> int:
    """A point mask in White's numbering -> the same points in Black's (R2)."""
    return ((mask & _LOWER_HALF) << 12) | ((mask & _UPPER_HALF) >> 12)


# The slot descriptors' setters: the cheapest way to fill a frozen dataclass.
_set_points: Final = vars(Position)["points"].__set__
_set_off: Final = vars(Position)["off"].__set__
_set_steps: Final = vars(Play)["steps"].__set__
_set_position: Final = vars(Play)["position"].__set__


def _plays_from(mover: _Mover, head: int, dice_left: tuple[int, ...]) -> list[Play]:
    finals = _search(mover, head, dice_left, False).finals
    plays = []
    for position, (_, _, steps) in zip(mover.positions(finals), finals.values(),
                                       strict=True):
        play = object.__new__(Play)
        _set_steps(play, steps)
        _set_position(play, position)
        plays.append(play)
    return plays


def _head_allowance(dice: tuple[int, int], first_turn: bool) -> int:
    """R11/R12: two may leave on a first turn's 6-6, 4-4 or 3-3, else one."""
    return 2 if first_turn and dice[0] == dice[1] and dice[0] in (6, 4, 3) else 1


def legal_plays(position: Position, side: Side, dice: tuple[int, int],
                first_turn: bool = False) -> list[Play]:
    """Every legal complete play for ``side`` rolling ``dice`` (R9-R28).

    One play per distinct resulting position, each with one step order; all use the
    same, maximal number of dice (R19-R21; a play bearing off the 15th checker ends
    there, R28, and counts the dice it used). With no legal move the list holds one empty play
    whose position is ``position`` (R23). Raises ``ValueError`` for bad dice/side.

    >>> from nardy import BLACK
    >>> [str(p) for p in legal_plays(Position.initial(), BLACK, (3, 3), True)]
    ['24/21 24/21 21/18 21/18', '24/21 24/21 21/18 18/15']
    """
    side = check_side(side)
    dice = check_dice(dice)
    if position.outcome() is not None:
        return [Play((), position)]
    return _plays_from(_Mover.of(position, side), _head_allowance(dice, first_turn),
                       dice_to_play(dice))


def legal_positions(position: Position, side: Side, dice: tuple[int, int],
                    first_turn: bool = False) -> tuple[Position, ...]:
    """The resulting positions of :func:`legal_plays`, in the same order, without
    building the steps' plays (what a search needs). Raises like :func:`legal_plays`.

    >>> legal_positions(Position.initial(), WHITE, (6, 6), True) == tuple(
    ...     p.position for p in legal_plays(Position.initial(), WHITE, (6, 6), True))
    True
    """
    side = check_side(side)
    dice = check_dice(dice)
    if position.outcome() is not None:
        return (position,)
    mover = _Mover.of(position, side)
    finals = _search(mover, _head_allowance(dice, first_turn), dice_to_play(dice), False,
                     False).finals
    return tuple(mover.positions(finals))


def legal_positions_packed(position: Position, side: Side,
                           rolls: Iterable[tuple[int, int]],
                           first_turn: bool = False) -> tuple[bytes, ...]:
    """For each of ``rolls``, :func:`legal_positions` packed
    (``RuleSet.legal_positions_packed``): per position its 24 ``points`` and two zeros
    (no bar, R6) as signed bytes. The rolls share the one-die layers from the start.

    >>> six, one = legal_positions_packed(Position.initial(), WHITE, [(6, 6), (1, 1)], True)
    >>> len(six), six[23], six[17], struct.unpack("b", six[11:12]), len(one) // PACKED_SIZE
    (26, 13, 2, (-15,), 1)
    """
    side = check_side(side)
    dice_list = [check_dice(dice) for dice in rolls]
    if position.outcome() is not None:
        return (_PACK_RECORD(*position.points),) * len(dice_list)
    mover = _Mover.of(position, side)
    expand = partial(_expand, mover, _forbidden_for(mover.opp), with_steps=False)
    shared: dict[int, Shared[_State]] = {}  # by head allowance: the roots differ
    found = []
    for dice in dice_list:
        head = _head_allowance(dice, first_turn)
        root: _Layer = {mover.key: (mover.occ, head, ())}
        finals = search(expand, root, dice_to_play(dice), False,
                        shared.setdefault(head, {})).finals
        found.append(mover.packed(finals))
    return tuple(found)


# ---------------------------------------------------------------------------
# The turn state.

@dataclass(frozen=True)
class TurnState(TurnBase):
    """One side's turn in progress: what is left to play and what may leave the head.

    Immutable: :meth:`apply` returns the next state. ``dice_left`` is sorted high
    to low (a double gives four). ``head_left`` is the R11/R12 allowance less the
    checkers that already left the head this turn.
    """

    position: Position
    side: Side
    dice: tuple[int, int]
    dice_left: tuple[int, ...]
    head_left: int
    first_turn: bool

    def __post_init__(self) -> None:
        check_side(self.side)
        check_dice_left(self.dice, self.dice_left)
        if not 0 <= self.head_left <= _head_allowance(self.dice, self.first_turn):
            raise ValueError(f"head_left {self.head_left!r} is more than R11/R12 allow")

    @classmethod
    def start(cls, position: Position, side: Side, dice: tuple[int, int],
              first_turn: bool = False) -> TurnState:
        """The state at the start of ``side``'s turn with ``dice`` rolled.

        ``first_turn``: this is ``side``'s first turn of this game (R12).
        Raises ``ValueError`` for bad dice or side.
        """
        dice = check_dice(dice)
        return cls(position, check_side(side), dice, dice_to_play(dice),
                   _head_allowance(dice, first_turn), bool(first_turn))

    # -- queries -------------------------------------------------------------

    @cached_property
    def _mover(self) -> _Mover:
        return _Mover.of(self.position, self.side)

    @cached_property
    def _search_result(self) -> _Search:
        if self.position.outcome() is not None:
            return Search({}, set(), 0)
        return _search(self._mover, self.head_left, self.dice_left, True)

    def plays(self) -> list[Play]:
        """The complete plays from this stop on (same contract as :func:`legal_plays`)."""
        if self.position.outcome() is not None:
            return [Play((), self.position)]
        return _plays_from(self._mover, self.head_left, self.dice_left)

    def head_may_leave(self) -> int:
        """R13: ``head_left`` while a legal next step leaves the head, else 0."""
        return self.head_left if any(s.src == HEAD for s in self.legal_steps()) else 0

    def hits(self, step: Step) -> bool:
        """Always ``False``: Long Nardy has no hitting (R6)."""
        return False

    # -- moving --------------------------------------------------------------

    GAME_OVER: ClassVar[str] = "the game is over (R28)"
    FORCED_RULES: ClassVar[tuple[str, str, str]] = ("R19", "R21", "R20")

    def _not_a_step(self, src: int, dst: int) -> IllegalMoveError | None:
        if not 1 <= src <= 24 or not 0 <= dst < src or (dst and src - dst > 6):
            return err("invalid_step",
                       f"{src}/{dst or 'off'} is not a step: points run 24..1 (R4) by 1..6")
        return None

    def _after(self, step: Step) -> TurnState:
        side = self.side
        index = _INDEX[side]
        sign = _SIGN[side]
        points = list(self.position.points)
        points[index[step.src]] -= sign
        off = list(self.position.off)
        if step.dst:
            points[index[step.dst]] += sign
        else:
            off[side] += 1
        left = list(self.dice_left)
        left.remove(step.die)
        return TurnState(Position._trusted(tuple(points), (off[0], off[1])), side, self.dice,
                         tuple(left), self.head_left - (step.src == HEAD), self.first_turn)

    def _diagnose(self, step: Step) -> IllegalMoveError:
        """Why ``step`` is not among the legal steps (checked in a fixed order)."""
        refused = self._not_started()
        if refused is not None:
            return refused
        src, dst, die = step.src, step.dst, step.die
        if src > HEAD:
            return err("invalid_step", f"{step} enters from the bar: Long Nardy has no "
                                       "hitting and no bar (R6)")
        if die not in self.dice_left:
            return err("no_such_die", f"no {die} to play (dice left: "
                                      f"{dice_text(self.dice_left)})")
        m = self._mover
        if m.opp & _BIT[src]:
            return err("wrong_side", f"point {src} holds the opponent's checkers, not yours")
        if not m.occ & _BIT[src]:
            return err("no_checker", f"you have no checker on point {src}")
        if src == HEAD and self.head_left == 0:
            return err("head_rule", "R11/R12: no more checkers may leave the head this turn")
        if dst:
            if m.opp & _BIT[dst]:
                return err("point_blocked", f"R6: point {dst} holds an opposing checker")
            occ2 = m.occ ^ _BIT[src] if (m.key >> m.shift[src]) & 255 == 1 else m.occ
            if not occ2 & _BIT[dst]:
                occ2 |= _BIT[dst]
                for window in _forbidden_for(m.opp)[dst]:
                    if occ2 & window == window:
                        k = (window & -window).bit_length() - 1
                        return err("prime_rule",
                                   f"R15-R18: {src}/{dst} builds a prime on {k + 5}..{k} "
                                   "with no opposing checker ahead of it")
        else:
            if m.occ & _OUTSIDE_HOME:
                return err("not_all_home",
                           "R25: bearing off needs every checker on the board in home (1..6)")
            if die > src and m.occ >> (src + 1):
                return err("bear_off_not_exact",
                           f"R26: a {die} bears off from {src} only when no checker "
                           f"stands higher than {src}")
        return self._forced_play_error(step)

    # -- IDs -----------------------------------------------------------------

    def to_id(self) -> str:
        """The turn ID (docs/notation.md): position, side, dice, dice left, head, first turn."""
        return notation.encode_turn((self.position.points, self.side, self.dice,
                                     self.dice_left, self.head_left, self.first_turn))

    @classmethod
    def from_id(cls, text: str) -> TurnState:
        """Parse a turn ID. Raises :class:`NotationError` saying what is wrong."""
        points, side, dice, left, head_left, first_turn = notation.decode_turn(text)
        try:
            return cls(Position.from_points(points), side, dice, left, head_left, first_turn)
        except ValueError as exc:
            raise NotationError(f"turn ID: {exc}") from None

    def __str__(self) -> str:
        return (f"{side_name(self.side)} to play {dice_text(self.dice_left)} "
                f"(roll {self.dice[0]}-{self.dice[1]}, head {self.head_left}) on {self.position}")


# ---------------------------------------------------------------------------
# The rule set.


class LongNardy(DescribedRuleSet):
    """Long Nardy as a :class:`~nardy.ruleset.RuleSet`; its facts are its
    :class:`~nardy.descriptor.Descriptor` (:data:`~nardy.descriptor.LONG_NARDY`)."""

    def __init__(self) -> None:
        super().__init__(LONG_NARDY)
        self.codec: Final[BoardCodec] = SignedCounts(self.position_from_perspective, bar=False)

    def initial(self) -> Position:
        return Position.initial()

    def start_turn(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                   first_turn: bool) -> TurnState:
        return TurnState.start(_own(position), side, dice, first_turn)

    def legal_plays(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                    first_turn: bool) -> list[Play]:
        return legal_plays(_own(position), side, dice, first_turn)

    def legal_positions(self, position: BoardPosition, side: Side, dice: tuple[int, int],
                        first_turn: bool) -> tuple[Position, ...]:
        return legal_positions(_own(position), side, dice, first_turn)

    def legal_positions_packed(self, position: BoardPosition, side: Side,
                               rolls: Iterable[tuple[int, int]], first_turn: bool,
                               ) -> tuple[bytes, ...]:
        return legal_positions_packed(_own(position), side, rolls, first_turn)

    def outcome(self, position: BoardPosition) -> Outcome | None:
        return _own(position).outcome()

    def resign_outcome(self, position: BoardPosition, resigning_side: Side) -> Outcome:
        return resign_outcome(_own(position), resigning_side)

    def position_from_id(self, text: str) -> Position:
        return Position.from_id(text)

    def turn_from_id(self, text: str) -> TurnState:
        return TurnState.from_id(text)

    def position_from_perspective(self, side: Side, counts: Mapping[int, int],
                                  off_mine: int = 0, off_theirs: int = 0,
                                  bar_mine: int = 0, bar_theirs: int = 0) -> Position:
        if bar_mine or bar_theirs:
            raise InvalidPositionError("Long Nardy has no bar (R6): bar counts must be 0")
        return Position.from_perspective(side, counts, off_mine, off_theirs)


def _own(position: BoardPosition) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"Long Nardy plays its own Position, not {type(position).__name__}")
    return position


LONG_NARDY_RULES: Final = LongNardy()
"""Long Nardy's rule set (``RULESETS["long_nardy"]``), as ``SHORT_NARDY_RULES``,
``BACKGAMMON_RULES`` and ``NARD_RULES`` are the hitting games'."""
