"""Compact, URL-safe IDs for positions and turn states, and step text (docs/notation.md).

The codec works on plain tuples so that it depends on nothing else in the engine;
:class:`~nardy.position.Position` and :class:`~nardy.longnardy.TurnState`
wrap it in ``to_id()`` / ``from_id()``.

Position ID ``P1-`` + 14 base64url characters (10 bytes, 80 bits). For White (over
White's points 1..24) and then for Black (over Black's own points 1..24), each point
is written as one ``1`` bit per checker followed by a ``0`` bit; the unused low bits
are zero. Borne-off checkers are what is missing from 15.

Turn ID ``T1-`` + 16 base64url characters (12 bytes): the 10 position bytes, then
16 bits: side (1), first_turn (1), die 1 (3), die 2 (3), number of dice left (3),
"the one die left is die 2" (1), head_left (2), two zero bits.

>>> encode_position(initial_points())
'P1-AAAB__wAAAP_-A'
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from .errors import NotationError
from .types import BLACK, SIDE_NAMES, WHITE

POSITION_PREFIX: Final = "P1-"
TURN_PREFIX: Final = "T1-"
_POSITION_BYTES: Final = 10
_TURN_BYTES: Final = 12
_POSITION_BITS: Final = _POSITION_BYTES * 8
_B64URL: Final = re.compile(r"[A-Za-z0-9_-]*")

# Black's point b (index b - 1 in its own numbering) is White's index _BLACK_TO_WHITE[b - 1].
_BLACK_TO_WHITE: Final[tuple[int, ...]] = tuple((b + 12 if b <= 12 else b - 12) - 1
                                                for b in range(1, 25))

RawTurn = tuple[tuple[int, ...], int, tuple[int, int], tuple[int, ...], int, bool]
"""(white-numbered signed points, side, dice, dice_left, head_left, first_turn)."""


def initial_points() -> tuple[int, ...]:
    """White-numbered signed counts of the starting position (R3)."""
    points = [0] * 24
    points[23] = 15
    points[11] = -15
    return tuple(points)


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str, nbytes: int, what: str) -> bytes:
    want = len(_b64encode(bytes(nbytes)))
    if len(text) != want:
        raise NotationError(f"{what}: expected {want} characters after the prefix, got {len(text)}")
    if not _B64URL.fullmatch(text):
        bad = sorted({c for c in text if not re.fullmatch(r"[A-Za-z0-9_-]", c)})
        raise NotationError(f"{what}: characters outside the base64url alphabet: {''.join(bad)!r}")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - alphabet checked above
        raise NotationError(f"{what}: not base64url: {exc}") from None
    if _b64encode(data) != text:
        raise NotationError(f"{what}: non-canonical base64url (stray low bits)")
    return data


def _pack_points(points: tuple[int, ...]) -> int:
    bits = 0
    nbits = 0
    for side_sign, index_of in ((1, range(24)), (-1, _BLACK_TO_WHITE)):
        for i in index_of:
            n = points[i] * side_sign
            if n > 0:
                bits = (bits << (n + 1)) | (((1 << n) - 1) << 1)
                nbits += n + 1
            else:
                bits <<= 1
                nbits += 1
    return bits << (_POSITION_BITS - nbits)


def _unpack_points(value: int, what: str) -> tuple[int, ...]:
    points = [0] * 24
    pos = _POSITION_BITS - 1
    for side_sign, index_of, name in ((1, range(24), SIDE_NAMES[WHITE]),
                                      (-1, _BLACK_TO_WHITE, SIDE_NAMES[BLACK])):
        total = 0
        for point, i in enumerate(index_of, start=1):
            n = 0
            while True:
                if pos < 0:
                    raise NotationError(f"{what}: bit string ends inside {name}'s point {point}")
                bit = (value >> pos) & 1
                pos -= 1
                if not bit:
                    break
                n += 1
                if total + n > 15:
                    raise NotationError(f"{what}: {name} has more than 15 checkers on the board")
            if n:
                total += n
                if points[i]:
                    raise NotationError(f"{what}: both colours on {name}'s point {point}")
                points[i] = n * side_sign
    if pos >= 0 and value & ((1 << (pos + 1)) - 1):
        raise NotationError(f"{what}: trailing bits after the board are not zero")
    return tuple(points)


def encode_position(points: tuple[int, ...]) -> str:
    """The position ID of White-numbered signed ``points`` (24 ints)."""
    return POSITION_PREFIX + _b64encode(_pack_points(points).to_bytes(_POSITION_BYTES, "big"))


def decode_position(text: str) -> tuple[int, ...]:
    """White-numbered signed points from a position ID. Raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"position ID must be a string, not {type(text).__name__}")
    if not text.startswith(POSITION_PREFIX):
        raise NotationError(f"position ID must start with {POSITION_PREFIX!r}: {text[:8]!r}")
    data = _b64decode(text[len(POSITION_PREFIX):], _POSITION_BYTES, "position ID")
    return _unpack_points(int.from_bytes(data, "big"), "position ID")


def encode_turn(raw: RawTurn) -> str:
    """The turn ID of a raw turn tuple (see :data:`RawTurn`)."""
    points, side, dice, dice_left, head_left, first_turn = raw
    tail = ((((side << 1 | int(first_turn)) << 10 | pack_dice(dice, dice_left)) << 2)
            | head_left) << 2
    data = _pack_points(points).to_bytes(_POSITION_BYTES, "big") + tail.to_bytes(2, "big")
    return TURN_PREFIX + _b64encode(data)


def decode_turn(text: str) -> RawTurn:
    """A raw turn tuple from a turn ID. Raises :class:`NotationError` saying what is wrong.

    ``dice_left`` comes back sorted high to low (a double repeats its die).
    """
    what = "turn ID"
    if not isinstance(text, str):
        raise NotationError(f"turn ID must be a string, not {type(text).__name__}")
    if not text.startswith(TURN_PREFIX):
        raise NotationError(f"turn ID must start with {TURN_PREFIX!r}: {text[:8]!r}")
    data = _b64decode(text[len(TURN_PREFIX):], _TURN_BYTES, what)
    points = _unpack_points(int.from_bytes(data[:_POSITION_BYTES], "big"), what)
    tail = int.from_bytes(data[_POSITION_BYTES:], "big")
    if tail & 0b11:
        raise NotationError(f"{what}: reserved bits are not zero")
    head_left = (tail >> 2) & 0b11
    first_turn = bool((tail >> 14) & 1)
    side = (tail >> 15) & 1
    dice, dice_left = unpack_dice(tail >> 4, what)
    if head_left > 2:
        raise NotationError(f"{what}: head allowance {head_left} is more than 2")
    return points, side, dice, dice_left, head_left, first_turn


def pack_dice(dice: tuple[int, int], dice_left: tuple[int, ...]) -> int:
    """The 10 bits every turn ID writes for its dice: die 1 (3), die 2 (3), the number
    of dice left (3), "the one die left is die 2" (1)."""
    n_left = len(dice_left)
    last_is_die2 = int(dice[0] != dice[1] and n_left == 1 and dice_left[0] == dice[1])
    return ((dice[0] << 3 | dice[1]) << 3 | n_left) << 1 | last_is_die2


def unpack_dice(bits: int, what: str) -> tuple[tuple[int, int], tuple[int, ...]]:
    """The roll and the dice left (high to low) from the low 10 of ``bits`` written by
    :func:`pack_dice`. Raises :class:`NotationError` saying what is wrong."""
    last_is_die2 = bits & 1
    n_left = (bits >> 1) & 0b111
    die2 = (bits >> 4) & 0b111
    die1 = (bits >> 7) & 0b111
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise NotationError(f"{what}: dice must be 1..6, got {die1} and {die2}")
    double = die1 == die2
    if n_left > (4 if double else 2):
        raise NotationError(f"{what}: {n_left} dice left of a {die1}-{die2} roll")
    if last_is_die2 and (double or n_left != 1):
        raise NotationError(f"{what}: 'last die' flag set without exactly one die of two left")
    dice_left: tuple[int, ...]
    if double:
        dice_left = (die1,) * n_left
    elif n_left == 2:
        dice_left = (max(die1, die2), min(die1, die2))
    elif n_left == 1:
        dice_left = (die2 if last_is_die2 else die1,)
    else:
        dice_left = ()
    return (die1, die2), dice_left


_STEP_TEXT: Final = re.compile(
    r"\s*(\d{1,2}|bar)\s*/\s*(\d{1,2}|off)\s*(?:\(\s*(\d)\s*\))?\s*(\*?)\s*", re.IGNORECASE)
BAR_POINT: Final = 25
"""A checker on the bar stands on the mover's point 25 (RULES-FAMILY H2)."""


def parse_step_parts(text: str) -> tuple[int, int, int, bool]:
    """``"24/18"`` → ``(24, 18, 0, False)``; ``"bar/22*"`` → ``(25, 22, 0, True)``;
    ``"3/off(5)"`` → ``(3, 0, 5, False)``: source, destination (0 = off), the die
    when written (else 0) and whether the step is marked as a hit (``*``).

    Only the shape is checked here; ranges are checked by ``Step``. Raises
    :class:`NotationError`.
    """
    if not isinstance(text, str):
        raise NotationError(f"step must be a string, not {type(text).__name__}")
    m = _STEP_TEXT.fullmatch(text)
    if not m:
        raise NotationError(
            f"step must look like '24/18', 'bar/22', '13/7*' or '3/off', not {text!r}")
    src_text, dst_text = m.group(1).lower(), m.group(2).lower()
    src = BAR_POINT if src_text == "bar" else int(src_text)
    dst = 0 if dst_text == "off" else int(dst_text)
    return src, dst, int(m.group(3) or 0), bool(m.group(4))
