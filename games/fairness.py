"""Dice anyone can verify: commit–reveal per game, every die by HMAC-SHA-256.

Standard library only, and nothing from Django or the rest of the project, so that
the server and a player's own copy of this one file compute the same dice::

    python -m games.fairness verify match-42.json     # or: python fairness.py verify …

The scheme (``nard-dice-v1``) is specified in docs/fairness.md, with test vectors;
in short:

- when a game starts the server draws a 32-byte secret seed and publishes only its
  commitment ``"nard-dice-v1:" + hex(SHA-256("nard-dice-v1:" ‖ seed))``;
- each player may add a seed of their own (text, 1 to 128 characters) before the
  game's first die;
- a roll's dice are read from ``HMAC-SHA-256(seed, message)`` byte by byte, a byte
  below 252 giving the die ``byte % 6 + 1`` and larger ones skipped (no modulo bias);
  the message names the scheme, the match, the game, the roll and both players' seeds;
- when the game ends the seed is revealed, and anyone can recompute every die.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

SCHEME: Final = "nard-dice-v1"
"""The version tag: in the commitment, the message of every roll and the records."""
SEED_BYTES: Final = 32
MAX_PLAYER_SEED: Final = 128
"""A player's seed is text of 1 to 128 characters (no control characters)."""
ROLL_OFF: Final = "roll-off"
TURN: Final = "turn"
ACCEPT_BELOW: Final = 252
"""The largest multiple of 6 not above 256: bytes from it on are skipped."""
SIDES: Final = ("white", "black")
RECORD_FORMAT: Final = "nardy-match/1"


# --- the derivation ---------------------------------------------------------------------------


def new_seed() -> bytes:
    """A fresh secret server seed (``secrets.token_bytes``)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published commitment to ``seed``: the tag, a colon and a SHA-256 in hex."""
    return f"{SCHEME}:{hashlib.sha256(SCHEME.encode() + b':' + seed).hexdigest()}"


def player_seed_problem(value: object) -> str | None:
    """Why ``value`` cannot be a player's seed (a stable reason), or ``None``."""
    if not isinstance(value, str):
        return "not_text"
    if not value:
        return "empty"
    if len(value) > MAX_PLAYER_SEED:
        return "too_long"
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        return "not_text"
    return None


def seed_digest(player_seed: str | None) -> str:
    """A player's seed as it enters the message: the SHA-256 of its UTF-8 in hex, or
    the empty string when the player gave none."""
    if not player_seed:
        return ""
    return hashlib.sha256(player_seed.encode("utf-8")).hexdigest()


def message(match_id: int, game: int, kind: str, index: int, white_seed: str | None,
            black_seed: str | None, block: int) -> bytes:
    """The HMAC message of one block of a roll (ASCII, fields joined by ``|``)."""
    return "|".join((SCHEME, str(match_id), str(game), kind, str(index),
                     seed_digest(white_seed), seed_digest(black_seed), str(block))).encode()


def derive(seed: bytes, match_id: int, game: int, kind: str, index: int, count: int,
           white_seed: str | None = None, black_seed: str | None = None) -> tuple[int, ...]:
    """The ``count`` dice of one roll: roll-off ``index`` (``2 × round + side``, one
    die) or turn ``index`` (the turn's number, two dice)."""
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        mac = hmac.new(seed, message(match_id, game, kind, index, white_seed, black_seed,
                                     block), hashlib.sha256).digest()
        for byte in mac:
            if byte < ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    break
        block += 1
    return tuple(dice)


def roll_off_index(round_: int, side: int) -> int:
    """Roll-off round ``round_`` (0 for the first, 1 after a tie …), side 0 White, 1 Black."""
    return 2 * round_ + side


@dataclass(frozen=True)
class GameDice:
    """What derives one game's dice: the server seed, the ids and the players' seeds."""

    seed: bytes
    match_id: int
    game: int
    white_seed: str | None = None
    black_seed: str | None = None

    def roll_off(self, round_: int, side: int) -> int:
        return derive(self.seed, self.match_id, self.game, ROLL_OFF,
                      roll_off_index(round_, side), 1, self.white_seed, self.black_seed)[0]

    def turn(self, number: int) -> tuple[int, int]:
        first, second = derive(self.seed, self.match_id, self.game, TURN, number, 2,
                               self.white_seed, self.black_seed)
        return first, second


# --- dice statistics ---------------------------------------------------------------------------

EXPECTED_PIPS: Final = 294 / 36
"""The average pips of a roll, a double counting four times: 8.1667."""


def chi_square(faces: Sequence[int]) -> float:
    """Pearson's statistic of six face counts against 1/6 each (0.0 without dice)."""
    total = sum(faces)
    if not total:
        return 0.0
    expected = total / 6
    return sum((count - expected) ** 2 / expected for count in faces)


def chi_square_p(statistic: float, dof: int = 5) -> float:
    """The upper tail ``P(X >= statistic)`` of a chi-square law with an odd number of
    degrees of freedom, in closed form (no SciPy)::

        Q = erfc(sqrt(x/2)) + sqrt(2/pi) e^(-x/2) * sum_{j=1..(k-1)/2} x^(j-1/2) / (2j-1)!!
    """
    if dof < 1 or dof % 2 == 0:
        raise ValueError("an odd number of degrees of freedom")
    x = max(statistic, 0.0)
    tail = math.erfc(math.sqrt(x / 2))
    term, total = math.sqrt(x), 0.0
    for j in range(1, (dof - 1) // 2 + 1):
        if j > 1:
            term *= x / (2 * j - 1)
        total += term
    tail += math.sqrt(2 / math.pi) * math.exp(-x / 2) * total
    return min(max(tail, 0.0), 1.0)


@dataclass
class DiceTally:
    """Turn rolls counted: each face over both dice, doubles, pips (a double × 4)."""

    rolls: int = 0
    faces: list[int] = field(default_factory=lambda: [0] * 6)
    doubles: int = 0
    pips: int = 0

    def add(self, first: int, second: int) -> None:
        self.rolls += 1
        self.faces[first - 1] += 1
        self.faces[second - 1] += 1
        if first == second:
            self.doubles += 1
            self.pips += 4 * first
        else:
            self.pips += first + second

    def summary(self) -> dict[str, Any]:
        statistic = chi_square(self.faces)
        return {
            "rolls": self.rolls,
            "faces": list(self.faces),
            "faces_expected": round(2 * self.rolls / 6, 4),
            "doubles": self.doubles,
            "doubles_expected": round(self.rolls / 6, 4),
            "pips": self.pips,
            "average_pips": round(self.pips / self.rolls, 4) if self.rolls else None,
            "expected_average_pips": round(EXPECTED_PIPS, 4),
            "chi_square": round(statistic, 4),
            "p_value": round(chi_square_p(statistic), 6) if self.rolls else None,
        }


# --- the verifier ----------------------------------------------------------------------------


class NotARecord(Exception):
    """The file is not a JSON match record this verifier reads (exit status 2)."""


@dataclass
class GameReport:
    number: int
    status: str
    """``verified``, ``mismatch``, ``not committed`` or ``not revealed``."""
    detail: str = ""
    dice: int = 0


@dataclass
class Report:
    match_id: int
    games: list[GameReport] = field(default_factory=list)

    @property
    def mismatch(self) -> GameReport | None:
        return next((g for g in self.games if g.status == "mismatch"), None)

    @property
    def verified(self) -> int:
        return sum(1 for g in self.games if g.status == "verified")


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _is_int(value: object) -> bool:
    return type(value) is int


def _check_shape(record: object) -> Mapping[str, Any]:
    if not isinstance(record, dict):
        raise NotARecord("not a match record: the JSON is not an object")
    if record.get("format") != RECORD_FORMAT:
        raise NotARecord(f"not a match record of format {RECORD_FORMAT!r} "
                         f"(format: {str(record.get('format'))[:40]!r})")
    if not _is_int(record.get("id")) or not isinstance(record.get("games"), list):
        raise NotARecord("not a match record: no match id or no list of games")
    for game in record["games"]:
        if (not isinstance(game, dict) or not _is_int(game.get("number"))
                or not isinstance(game.get("turns"), list)
                or not isinstance(game.get("roll_off", []), list)):
            raise NotARecord("not a match record: a game without a number or turns")
        for turn in game["turns"]:
            if (not isinstance(turn, dict) or not _is_int(turn.get("number"))
                    or not isinstance(turn.get("dice"), list)
                    or not all(_is_int(d) for d in turn["dice"])):
                raise NotARecord("not a match record: a turn without a number or dice")
        for pair in game.get("roll_off", []):
            if (not isinstance(pair, dict)
                    or not all(_is_int(pair.get(side)) for side in SIDES)):
                raise NotARecord("not a match record: a roll-off without both dice")
        block = game.get("fairness")
        if block is not None and not isinstance(block, dict):
            raise NotARecord("not a match record: a game's fairness block is not an object")
    return record


def verify_game(match_id: int, game: Mapping[str, Any]) -> GameReport:
    """Check one game of a record: its commitment and every die."""
    number = game["number"]
    block = game.get("fairness")
    if not block or not block.get("commitment"):
        return GameReport(number, "not committed",
                          "no commitment (imported, or played before commitments)")
    if block.get("scheme") != SCHEME:
        return GameReport(number, "mismatch",
                          f"unknown scheme {str(block.get('scheme'))[:40]!r}")
    promised = block["commitment"]
    revealed = block.get("server_seed")
    if not revealed:
        return GameReport(number, "not revealed", "the game is not over: no seed yet")
    try:
        seed = bytes.fromhex(revealed)
    except (TypeError, ValueError):
        return GameReport(number, "mismatch", "the revealed seed is not hexadecimal")
    if len(seed) != SEED_BYTES:
        return GameReport(number, "mismatch", f"the revealed seed is not {SEED_BYTES} bytes")
    if commitment(seed) != promised:
        return GameReport(number, "mismatch",
                          "the revealed seed does not match the commitment")
    seeds = block.get("player_seeds") or {}
    white_seed, black_seed = seeds.get("white"), seeds.get("black")
    for given in (white_seed, black_seed):
        if given is not None and player_seed_problem(given) is not None:
            return GameReport(number, "mismatch", "a player's seed is not valid text")
    dice = GameDice(seed, match_id, number, white_seed, black_seed)
    checked = 0
    pairs = game.get("roll_off", [])
    for round_, pair in enumerate(pairs):
        for side, name in enumerate(SIDES):
            expected = dice.roll_off(round_, side)
            if pair[name] != expected:
                return GameReport(number, "mismatch",
                                  f"roll-off {round_ + 1}, {name}: the record says "
                                  f"{pair[name]}, the seeds give {expected}", checked)
            checked += 1
    played = block.get("opening") == "roll_off_played"
    for turn in game["turns"]:
        recorded = list(turn["dice"])
        if turn["number"] == 1 and played and pairs:
            last = pairs[-1]
            starter = "white" if last["white"] > last["black"] else "black"
            other = "black" if starter == "white" else "white"
            expected_dice: tuple[int, ...] = (last[starter], last[other])
            what = "the roll-off's dice"
        else:
            expected_dice = dice.turn(turn["number"])
            what = "the seeds give"
        if tuple(recorded) != expected_dice:
            return GameReport(number, "mismatch",
                              f"turn {turn['number']}: the record says {_dice_text(recorded)}, "
                              f"{what} {_dice_text(expected_dice)}", checked)
        checked += len(recorded)
    return GameReport(number, "verified", dice=checked)


def verify_record(record: object) -> Report:
    """Check every game of a match record (its JSON form); :class:`NotARecord` for
    anything else."""
    checked = _check_shape(record)
    report = Report(checked["id"])
    for game in checked["games"]:
        report.games.append(verify_game(checked["id"], game))
    return report


def load(path: str) -> object:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(64 * 1024 * 1024 + 1)
    except OSError as exc:
        raise NotARecord(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > 64 * 1024 * 1024:
        raise NotARecord("not a match record: larger than 64 MB")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        start = raw.lstrip()[:60].decode("utf-8", "replace").lower()
        if "match record" in start:
            raise NotARecord("a text record: export the match as JSON "
                             "(export/?format=json) to verify it") from None
        raise NotARecord("not a match record: not JSON") from None


def main(argv: Sequence[str] | None = None, out: Any = None) -> int:
    """``verify FILE``: 0 when every committed game verifies, 1 at the first mismatch,
    2 for a file that is not a record (or bad arguments), 3 when nothing was verified
    (no game committed or revealed)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = out or sys.stdout
    if len(args) != 2 or args[0] != "verify":
        print("usage: python -m games.fairness verify FILE", file=sys.stderr)
        return 2
    try:
        report = verify_record(load(args[1]))
    except NotARecord as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a hostile file gets one line, never a traceback
        print(f"error: not a match record ({type(exc).__name__})", file=sys.stderr)
        return 2
    print(f"match {report.match_id}: {_games(len(report.games))}, scheme {SCHEME}", file=out)
    for game in report.games:
        if game.status == "mismatch":
            print(f"game {game.number}: MISMATCH: {game.detail}", file=out)
            return 1
        if game.status == "verified":
            print(f"game {game.number}: verified ({game.dice} dice)", file=out)
        else:
            print(f"game {game.number}: {game.status}: {game.detail}", file=out)
    if report.verified == 0:
        print("nothing to check: no game is both committed and revealed", file=out)
        return 3
    unverified = len(report.games) - report.verified
    print(f"verified: {_games(report.verified)}"
          + (f"; {unverified} not verified (see above)" if unverified else ""), file=out)
    return 0


def _games(n: int) -> str:
    """"1 game", "2 games"."""
    return f"{n} game" if n == 1 else f"{n} games"


if __name__ == "__main__":
    sys.exit(main())
