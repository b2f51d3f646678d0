"""A hitting game's position, its results and its IDs (RULES-FAMILY H1-H3, H13-H16).

Stored in White's numbering: ``points[i]`` is the signed count on White's point
``i + 1`` (positive White, negative Black); ``bar`` and ``off`` are ``(white, black)``.
A side's own point ``p`` is the other side's ``25 - p`` (H1), so Black's own point
``q`` is White's ``25 - q``.

>>> p = HitPosition.initial("backgammon")
>>> p.in_perspective(BLACK)[24], p.in_perspective(WHITE)[1]
(2, -2)
>>> p.to_id(), p.gnubg_id(WHITE)
('BGP-B84PgAwHzg-ADA', '4HPwATDgc/ABMA')
>>> HitPosition.from_id(p.to_id()) == p
True
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..errors import InvalidPositionError, NotationError
from ..outcome import Outcome
from ..position import board_from_perspective
from ..types import BLACK, CHECKERS, WHITE, Side, check_side, other, side_name
from .variants import BY_TAG, VARIANTS, Variant

BAR: Final = 25
"""The mover's bar is its point 25 (H2)."""

# _INDEX[side][p]: index into ``points`` of side's own point p (1..24).
_INDEX: Final = (tuple([-1] + [p - 1 for p in range(1, 25)]),
                 tuple([-1] + [24 - p for p in range(1, 25)]))
_SIGN: Final = (1, -1)

_ID_BYTES: Final = 10
_B64URL: Final = re.compile(r"[A-Za-z0-9_-]{14}")
_B64STD: Final = re.compile(r"[A-Za-z0-9+/]{14}")


def variant_of(rules: str) -> Variant:
    """The :class:`Variant` named ``rules``. Raises ``ValueError``."""
    try:
        return VARIANTS[rules]
    except KeyError:
        raise ValueError(f"no hitting game {rules!r}; known: {', '.join(VARIANTS)}") from None


@dataclass(frozen=True, slots=True)
class HitPosition:
    """A board of a hitting game (``rules`` names it): 24 signed counts in White's
    numbering, the checkers on the bar and borne off, ``(white, black)`` each.

    The constructor validates (15 checkers a side on board + bar + off, ``nard``: at
    most 6 on a point and nothing borne off) and raises :class:`InvalidPositionError`.
    """

    rules: str
    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        _validate(self)

    # -- building ------------------------------------------------------------

    @classmethod
    def initial(cls, rules: str) -> HitPosition:
        """The start of every game of ``rules`` (H3)."""
        variant = variant_of(rules)
        cached = _INITIAL.get(rules)
        if cached is None or cached[0] is not variant:
            cached = _INITIAL[rules] = (variant, _initial(variant))
        return cached[1]

    @classmethod
    def from_perspective(cls, rules: str, side: Side, counts: Mapping[int, int],
                         off_mine: int = 0, off_theirs: int = 0, bar_mine: int = 0,
                         bar_theirs: int = 0) -> HitPosition:
        """Build from a board in ``side``'s numbering (positive: ``side``'s checkers,
        zeros ignored). Raises :class:`InvalidPositionError` saying what is wrong.

        >>> HitPosition.from_perspective("backgammon", BLACK, {6: 15}, 0, 15).in_perspective(WHITE)
        {19: -15}
        """
        variant_of(rules)
        side = check_side(side)
        points = board_from_perspective(counts, _INDEX[side], _SIGN[side])
        for name, value in (("off_mine", off_mine), ("off_theirs", off_theirs),
                            ("bar_mine", bar_mine), ("bar_theirs", bar_theirs)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidPositionError(f"{name} must be an int, not {value!r}")
        if side == WHITE:
            return cls(rules, points, (bar_mine, bar_theirs), (off_mine, off_theirs))
        return cls(rules, points, (bar_theirs, bar_mine), (off_theirs, off_mine))

    # -- reading -------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        """Its rule set's :class:`~.variants.Variant` (the registered hitting game
        ``rules`` names)."""
        return VARIANTS[self.rules]

    def in_perspective(self, side: Side) -> dict[int, int]:
        """Point (1..24, ``side``'s numbering) -> signed count, positive ``side``'s;
        empty points omitted, keys from 24 down to 1."""
        side = check_side(side)
        index = _INDEX[side]
        sign = _SIGN[side]
        points = self.points
        return {p: points[index[p]] * sign for p in range(24, 0, -1) if points[index[p]]}

    def count_at(self, side: Side, point: int) -> int:
        """Signed count on ``side``'s own ``point`` 1..24 (positive: ``side``'s)."""
        if not 1 <= point <= 24:
            raise ValueError(f"point must be in 1..24, not {point!r}")
        return self.points[_INDEX[check_side(side)][point]] * _SIGN[side]

    def off_of(self, side: Side) -> int:
        return self.off[check_side(side)]

    def bar_of(self, side: Side) -> int:
        return self.bar[check_side(side)]

    def own_on(self, side: Side, points: range) -> int:
        """How many of ``side``'s checkers stand on its own ``points``."""
        return sum(max(self.count_at(side, p), 0) for p in points)

    def all_home(self, side: Side) -> bool:
        """Every checker of ``side`` that is not borne off is in its home (1..6)."""
        return self.own_on(side, range(1, 7)) + self.off[side] == CHECKERS

    def pips(self, side: Side) -> int:
        """``side``'s pip count (a checker on the bar counts 25)."""
        return (sum(p * n for p, n in self.in_perspective(side).items() if n > 0)
                + BAR * self.bar_of(side))

    # -- results -------------------------------------------------------------

    def finished(self, side: Side) -> bool:
        """``side`` has won on the board: all 15 off (H14), ``nard``: all 15 home (H13)."""
        if self.variant.descriptor.bears_off:
            return self.off[side] == CHECKERS
        if self.bar[side]:
            return False
        # No own checker outside home (1..6): White's 7..24, Black's 7..24 = White's 1..18.
        return max(self.points[6:]) <= 0 if side == WHITE else min(self.points[:18]) >= 0

    def outcome(self) -> Outcome | None:
        """The result when a side has won on the board (H14, H15), else ``None``."""
        if self.variant.descriptor.bears_off:
            white, black = self.off
            if white != CHECKERS and black != CHECKERS:
                return None
        for side in (WHITE, BLACK):
            if self.finished(side):
                return self.result_for(side)
        return None

    def result_for(self, winner: Side) -> Outcome:
        """H15: the result if ``winner`` won now, judged by the loser's checkers.

        ``short_nardy``: mars when the loser has borne off none, koks when moreover
        a checker of its is on the bar or in the winner's home (its own 19..24);
        ``backgammon``: the same as gammon / backgammon; ``nard``: mars when the
        loser has no checker in its own home (1..6). Else single.
        """
        winner = check_side(winner)
        loser = other(winner)
        facts = self.variant.descriptor
        results = facts.results
        if not facts.bears_off:
            if self.own_on(loser, range(1, 7)):
                return Outcome(winner, 1, "single")
            return Outcome(winner, 2, results[1].name)
        if self.off[loser]:
            return Outcome(winner, 1, "single")
        if self.bar[loser] or self.own_on(loser, range(19, 25)):
            return Outcome(winner, 3, results[2].name)
        return Outcome(winner, 2, results[1].name)

    def resign_outcome(self, resigning_side: Side) -> Outcome:
        """H16: the opponent of ``resigning_side`` wins with what H15 gives the board
        now, as if it had just won (:meth:`result_for`)."""
        return self.result_for(other(check_side(resigning_side)))

    # -- IDs -----------------------------------------------------------------

    def to_id(self) -> str:
        """The position ID (docs/notation.md), ``<tag>P-`` + 14 base64url characters."""
        return (f"{self.variant.descriptor.tag}P-"
                + base64.urlsafe_b64encode(self._key((WHITE, BLACK), "big")).decode()[:14])

    @classmethod
    def from_id(cls, text: str) -> HitPosition:
        """Parse a position ID written by :meth:`to_id`. Raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"position ID must be a string, not {type(text).__name__}")
        variant = BY_TAG.get(text[:2])
        if variant is None or text[2:4] != "P-":
            raise NotationError(
                f"a hitting game's position ID starts with "
                f"{', '.join(tag + 'P-' for tag in BY_TAG)}: {text[:8]!r}")
        payload = text[4:]
        if not _B64URL.fullmatch(payload):
            raise NotationError("position ID: expected 14 base64url characters after the prefix")
        return cls._from_key(variant.descriptor.name, _b64(payload, base64.urlsafe_b64decode),
                             (WHITE, BLACK), "big", "position ID")

    def gnubg_id(self, on_roll: Side) -> str:
        """GNU Backgammon's position ID of this board with ``on_roll`` to play.

        The 80-bit key: for each player, its points 1..24 (its own numbering) and then
        its bar, each checker a 1 bit and each point closed by a 0 bit; packed low bit
        first into 10 bytes, written as 14 characters of standard base64 (gnubg manual,
        "A technical description of the Position ID"). The **opponent of the player on
        roll comes first**: that is what gnubg 1.07 reads (``set board``, then ``hint``
        lists the second player's moves) and writes; the manual's prose names the player
        on roll first, which disagrees with the program (tests/engine/hitting/test_gnubg.py).
        """
        on_roll = check_side(on_roll)
        key = self._key((other(on_roll), on_roll), "little")
        return base64.b64encode(key).decode()[:14]

    @classmethod
    def from_gnubg_id(cls, text: str, on_roll: Side, rules: str = "backgammon",
                      ) -> HitPosition:
        """Read GNU Backgammon's position ID (see :meth:`gnubg_id`) with ``on_roll``
        the player on roll. Raises :class:`NotationError`."""
        variant_of(rules)
        on_roll = check_side(on_roll)
        if not isinstance(text, str) or not _B64STD.fullmatch(text.strip()):
            raise NotationError(f"a gnubg position ID is 14 base64 characters, not {text!r}")
        return cls._from_key(rules, _b64(text.strip(), base64.b64decode),
                             (other(on_roll), on_roll), "little", "gnubg position ID")

    def _key(self, order: tuple[Side, Side], bit_order: str) -> bytes:
        bits: list[int] = []
        for side in order:
            for p in range(1, 26):
                n = self.bar[side] if p == BAR else max(self.count_at(side, p), 0)
                bits += [1] * n + [0]
        bits += [0] * (8 * _ID_BYTES - len(bits))
        out = bytearray()
        for i in range(0, len(bits), 8):
            byte = bits[i:i + 8]
            if bit_order == "little":
                byte = byte[::-1]
            out.append(int("".join(map(str, byte)), 2))
        return bytes(out)

    @classmethod
    def _from_key(cls, rules: str, data: bytes, order: tuple[Side, Side], bit_order: str,
                  what: str) -> HitPosition:
        bits = []
        for byte in data:
            row = [(byte >> (7 - i)) & 1 for i in range(8)]
            bits += row[::-1] if bit_order == "little" else row
        points = [0] * 24
        bar = [0, 0]
        pos = 0
        for side in order:
            total = 0
            for p in range(1, 26):
                n = 0
                while True:
                    if pos >= len(bits):
                        raise NotationError(f"{what}: bits end inside {side_name(side)}'s "
                                            f"point {p}")
                    bit = bits[pos]
                    pos += 1
                    if not bit:
                        break
                    n += 1
                total += n
                if total > CHECKERS:
                    raise NotationError(f"{what}: {side_name(side)} has more than 15 checkers")
                if p == BAR:
                    bar[side] = n
                elif n:
                    i = _INDEX[side][p]
                    if points[i]:
                        raise NotationError(f"{what}: both colours on {side_name(side)}'s "
                                            f"point {p}")
                    points[i] = n * _SIGN[side]
        if any(bits[pos:]):
            raise NotationError(f"{what}: trailing bits after the board are not zero")
        off = [CHECKERS - bar[s] - sum(max(v * _SIGN[s], 0) for v in points) for s in (0, 1)]
        try:
            return cls(rules, tuple(points), (bar[0], bar[1]), (off[0], off[1]))
        except InvalidPositionError as exc:
            raise NotationError(f"{what}: {exc}") from None

    def __str__(self) -> str:
        board = " ".join(f"{p}:{n}" for p, n in self.in_perspective(WHITE).items())
        return (f"{self.rules} {board} bar {self.bar[0]}/{self.bar[1]} "
                f"off {self.off[0]}/{self.off[1]}")


def _b64(text: str, decode: object) -> bytes:
    assert callable(decode)
    try:
        data: bytes = decode(text + "==")
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - alphabet checked
        raise NotationError(f"not base64: {exc}") from None
    return data


def _validate(position: HitPosition) -> None:
    rules, points, bar, off = position.rules, position.points, position.bar, position.off
    variant = VARIANTS.get(rules) if isinstance(rules, str) else None
    if variant is None:
        raise InvalidPositionError(f"no hitting game {rules!r}; known: {', '.join(VARIANTS)}")
    cap = variant.descriptor.cap
    if not isinstance(points, tuple) or len(points) != 24:
        raise InvalidPositionError("points must be a tuple of 24 signed counts")
    for name, pair in (("bar", bar), ("off", off)):
        if (not isinstance(pair, tuple) or len(pair) != 2
                or any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= CHECKERS
                       for n in pair)):
            raise InvalidPositionError(f"{name} must be a pair (white, black) of ints 0..15")
    on_board = [0, 0]
    for i, n in enumerate(points):
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidPositionError(f"count on White's point {i + 1} must be an int, not {n!r}")
        if cap and abs(n) > cap:
            raise InvalidPositionError(f"{abs(n)} checkers on White's point {i + 1}: "
                                       f"{rules} allows at most {cap} (H7)")
        if n > 0:
            on_board[WHITE] += n
        else:
            on_board[BLACK] -= n
    for side in (WHITE, BLACK):
        total = on_board[side] + bar[side] + off[side]
        if total != CHECKERS:
            raise InvalidPositionError(
                f"{side_name(side)} has {on_board[side]} on the board, {bar[side]} on the bar "
                f"and {off[side]} off: must total 15")
    if not variant.descriptor.bears_off and (off[0] or off[1]):
        raise InvalidPositionError(f"{rules} has no bearing off (H13): off must be 0")
    if position.finished(WHITE) and position.finished(BLACK):
        raise InvalidPositionError("both sides cannot have won (H14)")


def _initial(variant: Variant) -> HitPosition:
    points = [0] * 24
    for p, n in variant.descriptor.start.items():
        points[_INDEX[WHITE][p]] += n
        points[_INDEX[BLACK][p]] -= n
    return HitPosition(variant.descriptor.name, tuple(points))


_INITIAL: Final[dict[str, tuple[Variant, HitPosition]]] = {}
"""Each variant's start, built on first use (a variant added at run time too)."""
