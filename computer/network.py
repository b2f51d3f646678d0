"""The learned evaluation: a rule set's input encoding and a one-hidden-layer value network.

**Encodings.** Each rule set has its own :class:`Encoding` (:func:`encoding`), chosen by
its board codec's layout (:data:`ENCODINGS`) and built for its profile: a name, an input
size and a fingerprint (a hash of what it writes for a fixed batch of boards), which a
weights file records with its rule set (:meth:`Net.load` refuses weights trained for
another rule set or another encoding, and weights that do not say). A rule set whose
layout has no encoding is refused with ``UnreadableBoardError``.

**TD encoding** (:func:`encode`; the ``signed24`` layout, all four built-in games;
:data:`TD_INPUTS` = 208). A position is seen by the side that has just moved, with the
opponent to roll. Two blocks of 104 inputs, the mover's first, then the opponent's, each
in that side's own numbering:

- for each own point 1..24, four inputs (TD-Gammon's): ``n >= 1``, ``n >= 2``,
  ``n >= 3``, ``(n - 3) / 4`` when ``n > 3``;
- bar: ``bar >= 1`` and ``bar / 4``;
- borne off: ``off / 15``;
- pip count / 200;
- all checkers home (``1`` when every checker on the board is on own points 1..6 and
  none is on the bar: bearing off may start);
- the side's blocks (:func:`computer.heuristic.blocks`): own points the opponent still
  has to pass, those within six in front of its rearmost checker, and the longest run
  of them, each / 6.

**Contact encoding** (:func:`encode_contact`, ``contact-signed24``, :data:`CONTACT_INPUTS`
= 234): the TD encoding's 208 inputs followed by :data:`computer.features.EXTRA` contact
features a side (shots, pips lost, blots, escapes, closed points, anchors, back checkers,
mobility per die; :mod:`computer.features`).

**Shape encoding** (:func:`encode_shape`, ``shape-signed24``, :data:`SHAPE_INPUTS` = 250):
the contact encoding's 234 inputs followed by :data:`computer.features.SHAPE` inputs a
side (the head, the starting quarter, checkers not home, bear-in pips, the rearmost
checker, the last three checkers' pips, the spare checkers' pips, the opponent's
checkers trapped behind the longest block; :func:`computer.features.shape`). A layout's
encodings are listed by name in :data:`ENCODINGS` (the last is the current one); a
network is read by the one its meta names (:func:`net_encoding`).

**Network**: the encoding's inputs → ``hidden`` tanh units → :data:`N_OUTPUTS` sigmoid outputs,
the mover's probabilities of: winning, winning 2+ points (mars/gammon), winning 3
(koks/backgammon), losing 2+, losing 3. Trained by TD(λ) self-play
(:mod:`computer.lab.train`) with a cross-entropy loss on each output.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from nardy.codec import SIGNED24

from . import features
from .board import (
    CHECKERS,
    POINTS,
    Boards,
    FloatArray,
    IntArray,
    Profile,
    UnreadableBoardError,
    profile,
    ruleset,
)

__all__ = ["CONTACT_INPUTS", "ENCODINGS", "N_OUTPUTS", "OUTPUTS", "SHAPE_INPUTS", "TD_INPUTS",
           "Encoding", "FloatArray", "Inputs", "Net", "WeightsMismatchError", "encode",
           "encode_contact", "encode_shape", "encoding", "equity", "flip", "net_encoding",
           "outcome_vector"]

Inputs = npt.NDArray[np.floating[Any]]

TD_INPUTS = 2 * (4 * POINTS + 8)
"""The TD encoding's input size (208)."""
CONTACT_INPUTS = TD_INPUTS + 2 * features.EXTRA
"""The contact encoding's input size (234)."""
SHAPE_INPUTS = CONTACT_INPUTS + 2 * features.SHAPE
"""The shape encoding's input size (250)."""
N_OUTPUTS = 5
OUTPUTS = ("win", "win_2", "win_3", "lose_2", "lose_3")

# Seen by the other side: win <-> lose, win_k <-> lose_k.
_FLIP_FROM = np.array([0, 3, 4, 1, 2])


def flip(probs: FloatArray) -> FloatArray:
    """The same estimates (rows of :data:`OUTPUTS`) from the opponent's side."""
    out = probs[..., _FLIP_FROM].copy()
    out[..., 0] = 1.0 - probs[..., 0]
    return out


def equity(probs: FloatArray, mars: bool = True) -> FloatArray:
    """Expected points per unit stake: ``2 win - 1 + win_2 + win_3 - lose_2 - lose_3``;
    with ``mars=False`` (``dave`` stakes, S6) every win is 1: ``2 win - 1``."""
    base: FloatArray = 2.0 * probs[..., 0] - 1.0
    if mars:
        base = base + probs[..., 1] + probs[..., 2] - probs[..., 3] - probs[..., 4]
    return base


def outcome_vector(points: int) -> FloatArray:
    """The exact :data:`OUTPUTS` of a game the side won by ``points`` (1..3)."""
    return np.array([1.0, float(points >= 2), float(points >= 3), 0.0, 0.0])


# _UNITS[n]: the four inputs of a point holding n checkers.
_UNITS = np.array([[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 4.0] for n in range(16)],
                  dtype=np.float32)
_BLOCK = 4 * POINTS + 8
_DISTANCE = np.arange(1, POINTS + 1)
_BITS = (2.0 ** np.arange(POINTS)).astype(np.float32)
"""Bit ``r - 1`` for point ``r``: a boolean row times this is its mask (exact in
float32: sums of distinct powers of two below 2**24)."""
# Point r in the opponent's numbering is own point _TO_MINE[...][r - 1] + 1: Long Nardy
# (R2, r +- 12), the hitting games (H1, 25 - r); as in computer.heuristic.blocks.
_TO_MINE = {"rotated": np.array([(r + 12 if r <= 12 else r - 12) - 1 for r in range(1, 25)]),
            "mirrored": np.array([24 - r for r in range(1, 25)])}


def _run_tables() -> tuple[IntArray, IntArray, IntArray]:
    """For each 12-bit mask: its longest run of ones, its run up from bit 0 and its run
    down from bit 11."""
    longest, up, down = (np.zeros(4096, dtype=np.int64) for _ in range(3))
    for m in range(4096):
        bits = [m >> i & 1 for i in range(12)]
        run = best = 0
        for bit in bits:
            run = run + 1 if bit else 0
            best = max(best, run)
        longest[m] = best
        up[m] = next((i for i, bit in enumerate(bits) if not bit), 12)
        down[m] = next((i for i, bit in enumerate(bits[::-1]) if not bit), 12)
    return longest, up, down


_RUN_LONGEST, _RUN_UP, _RUN_DOWN = _run_tables()


def _blocks(counts: IntArray, bar: IntArray, prof: Profile,
            ) -> tuple[IntArray, IntArray, IntArray]:
    """:func:`computer.heuristic.blocks` of both sides at once, on bit masks:
    ``counts`` is ``(n, 2, 24)`` (each side's own points), ``bar`` ``(n, 2)``; each
    result is ``(n, 2)``, column ``k`` the blocks of side ``k`` against the other."""
    need = 2 if prof.hits else 1
    blocked = ((counts[:, :, _TO_MINE[prof.numbering]] >= need) @ _BITS).astype(np.int64)
    occupied = ((counts[:, ::-1] > 0) @ _BITS).astype(np.int64)  # the other side's
    # The other side's rearmost checker: 25 from the bar, else its highest point, else 0.
    rear = np.frexp(occupied.astype(np.float64))[1].astype(np.int64)
    rear = np.where(bar[:, ::-1] > 0, 25, rear)
    ahead = (np.int64(1) << np.maximum(rear - 1, 0)) - 1            # points 1 .. rear - 1
    near = ahead & ~((np.int64(1) << np.maximum(rear - 7, 0)) - 1)  # rear - 6 .. rear - 1
    relevant = blocked & ahead
    low, high = relevant & 0xFFF, relevant >> 12
    longest = np.maximum(np.maximum(_RUN_LONGEST[low], _RUN_LONGEST[high]),
                         _RUN_DOWN[low] + _RUN_UP[high])
    return np.bitwise_count(relevant), np.bitwise_count(blocked & near), longest


def encode(b: Boards, prof: Profile) -> npt.NDArray[np.float32]:
    """The network inputs of each row of ``b`` (seen by the side that just moved)."""
    n = len(b)
    x = np.empty((n, 2, _BLOCK), dtype=np.float32)
    _encode_into(x, b, prof)
    return x.reshape(n, TD_INPUTS)


def _encode_into(x: npt.NDArray[np.float32], b: Boards, prof: Profile) -> None:
    """:func:`encode`'s inputs written into ``x``, ``(n, 2, 104)`` (a view may do)."""
    n = len(b)
    counts = np.stack((b.mine, b.theirs), axis=1)  # (n, 2, 24)
    x[:, :, : 4 * POINTS] = np.take(_UNITS, counts, axis=0).reshape(n, 2, 4 * POINTS)
    bar, off = b.bar, b.off
    relevant, near, longest = _blocks(counts, bar, prof)
    x[:, :, 96] = bar >= 1
    x[:, :, 97] = bar / 4.0
    x[:, :, 98] = off / 15.0
    x[:, :, 99] = (counts @ _DISTANCE + 25 * bar) / 200.0  # pip counts (computer.board.pips)
    x[:, :, 100] = (counts[:, :, 6:].sum(axis=2) == 0) & (bar == 0)
    x[:, :, 101] = relevant / 6.0
    x[:, :, 102] = near / 6.0
    x[:, :, 103] = longest / 6.0


class WeightsMismatchError(ValueError):
    """Weights that were not trained for this rule set and its encoding (or do not say)."""


@dataclass(frozen=True)
class Encoding:
    """A rule set's network inputs: ``encode`` writes ``n_inputs`` per row of a
    :class:`~computer.board.Boards` (seen by the side that just moved)."""

    name: str
    """The encoding's name, e.g. ``"td-signed24"``."""
    n_inputs: int
    profile: Profile
    write: Callable[[Boards, Profile], npt.NDArray[np.float32]]

    def encode(self, b: Boards) -> npt.NDArray[np.float32]:
        return self.write(b, self.profile)

    @cached_property
    def fingerprint(self) -> str:
        """16 hex digits of a SHA-256 of the name, the size and the inputs written for a
        fixed batch of boards (:func:`fingerprint_boards`): any change to what the
        encoding writes for this rule set changes it."""
        x = self.encode(fingerprint_boards(self.profile))
        if x.shape != (len(x), self.n_inputs):
            raise ValueError(f"{self.name} writes {x.shape[1]} inputs, not {self.n_inputs}")
        digest = hashlib.sha256(f"{self.name}:{self.n_inputs}:".encode())
        digest.update(np.ascontiguousarray(x, dtype="<f4").tobytes())
        return digest.hexdigest()[:16]

    @property
    def meta(self) -> dict[str, str]:
        """What a weights file trained with it records (with ``rules``)."""
        return {"rules": self.profile.name, "encoding": self.name,
                "encoding_fingerprint": self.fingerprint}

    def check(self, meta: dict[str, str], source: object) -> None:
        """Raise :class:`WeightsMismatchError` unless ``meta`` (a weights file's, from
        ``source``) says it was trained for this rule set and this encoding."""
        missing = [key for key in ("rules", "encoding", "encoding_fingerprint")
                   if key not in meta]
        if missing:
            raise WeightsMismatchError(
                f"{source}: the weights do not say which rule set and encoding they were "
                f"trained for (no {', '.join(missing)} in their meta); retrain them "
                f"(python -m computer.lab.train --rules {self.profile.name})")
        if meta["rules"] != self.profile.name:
            raise WeightsMismatchError(f"{source}: the weights were trained for "
                                       f"{meta['rules']!r}, not {self.profile.name!r}")
        if (meta["encoding"], meta["encoding_fingerprint"]) != (self.name, self.fingerprint):
            raise WeightsMismatchError(
                f"{source}: the weights were trained for the encoding {meta['encoding']} "
                f"({meta['encoding_fingerprint']}); {self.profile.name} now encodes "
                f"{self.name} ({self.fingerprint}): retrain them")


def fingerprint_boards(prof: Profile, rows: int = 64) -> Boards:
    """A fixed batch of legal-looking boards (15 checkers a side on the points, the bar
    and off; the bar only where ``prof.hits``), drawn from a seeded standard-library
    generator so that it is the same everywhere."""
    rng = random.Random(20261201)
    counts = np.zeros((rows, 2, POINTS), dtype=np.int64)
    bar, off = np.zeros((rows, 2), np.int64), np.zeros((rows, 2), np.int64)
    for i in range(rows):
        for side in (0, 1):
            on_bar = rng.randint(0, 2) if prof.hits else 0
            borne = rng.randint(0, CHECKERS - on_bar) if rng.random() < 0.3 else 0
            bar[i, side], off[i, side] = on_bar, borne
            for _ in range(CHECKERS - on_bar - borne):
                counts[i, side, rng.randrange(POINTS)] += 1
    return Boards(counts[:, 0].copy(), counts[:, 1].copy(), bar, off)


def encode_contact(b: Boards, prof: Profile) -> npt.NDArray[np.float32]:
    """The ``contact-signed24`` inputs: :func:`encode`'s, then each side's
    :func:`computer.features.contact` (the mover's :data:`~computer.features.EXTRA`, then
    the opponent's)."""
    x = np.empty((len(b), CONTACT_INPUTS), dtype=np.float32)
    _contact_into(x, b, prof)
    return x


def _contact_into(x: npt.NDArray[np.float32], b: Boards, prof: Profile) -> IntArray:
    """:func:`encode_contact`'s inputs written into the first :data:`CONTACT_INPUTS`
    columns of ``x``; returns the two sides' counts, ``(n, 2, 24)``, for more features."""
    n = len(b)
    td = x[:, :TD_INPUTS].reshape(n, 2, _BLOCK)
    assert n == 0 or np.shares_memory(td, x)  # written in place, not into a copy
    _encode_into(td, b, prof)
    counts = np.stack((b.mine, b.theirs), axis=1)
    x[:, TD_INPUTS:CONTACT_INPUTS] = features.contact(counts, b.bar, prof).reshape(
        n, 2 * features.EXTRA)
    return counts


def encode_shape(b: Boards, prof: Profile) -> npt.NDArray[np.float32]:
    """The ``shape-signed24`` inputs: :func:`encode_contact`'s, then each side's
    :func:`computer.features.shape` (the mover's :data:`~computer.features.SHAPE`, then
    the opponent's)."""
    n = len(b)
    x = np.empty((n, SHAPE_INPUTS), dtype=np.float32)
    counts = _contact_into(x, b, prof)
    x[:, CONTACT_INPUTS:] = features.shape(counts, b.bar, prof).reshape(n, 2 * features.SHAPE)
    return x


ENCODINGS: dict[str, dict[str, Callable[[Profile], Encoding]]] = {
    SIGNED24: {
        "td-signed24": lambda prof: Encoding("td-signed24", TD_INPUTS, prof, encode),
        "contact-signed24": lambda prof: Encoding("contact-signed24", CONTACT_INPUTS, prof,
                                                  encode_contact),
        "shape-signed24": lambda prof: Encoding("shape-signed24", SHAPE_INPUTS, prof,
                                                encode_shape),
    },
}
"""The network encodings of each packed layout (``codec.layout``) by name, built for a
profile; the last is the layout's current one (what a new network is trained with), the
others read the weights trained with them."""


@cache
def encoding(rules: str, name: str | None = None) -> Encoding:
    """The network encoding ``name`` of ``rules`` (None: its current one, the last of
    its layout's :data:`ENCODINGS`). Raises :class:`UnreadableBoardError` when its
    codec's layout has none (``KeyError`` for an unknown rule set or encoding name)."""
    layout = ruleset(rules).codec.layout
    try:
        known = ENCODINGS[layout]
    except KeyError:
        raise UnreadableBoardError(
            f"no network encoding for {rules!r}: its codec's layout {layout!r} has none in "
            f"computer.network (known: {', '.join(ENCODINGS)})") from None
    if name is None:
        name = list(known)[-1]
    if name not in known:
        raise KeyError(f"no encoding {name!r} for {rules!r}'s layout {layout!r} (known: "
                       f"{', '.join(known)})")
    return known[name](profile(rules))


def net_encoding(rules: str, net: Net) -> Encoding:
    """The encoding ``net`` reads: the one its meta names, else (a network made in a test
    without meta) the first of the layout's with its input size."""
    name = net.meta.get("encoding")
    if name is not None:
        return encoding(rules, name)
    layout = ruleset(rules).codec.layout
    for candidate in ENCODINGS.get(layout, {}):
        enc = encoding(rules, candidate)
        if enc.n_inputs == net.n_inputs:
            return enc
    raise ValueError(f"a network of {net.n_inputs} inputs cannot read any of {rules}'s "
                     f"encodings")


def _sigmoid(z: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
    return out


def weights_digest(path: Path) -> str:
    """The first 16 hex digits of the SHA-256 of a weights file: how a training log or an
    arena record names the network it played."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


class Net:
    """``n_inputs`` (its encoding's) → ``hidden`` (tanh) → ``N_OUTPUTS`` (sigmoid)."""

    def __init__(self, w1: FloatArray, b1: FloatArray, w2: FloatArray, b2: FloatArray,
                 meta: dict[str, str] | None = None) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.meta = dict(meta or {})
        self._fast: tuple[Any, Any, Any, Any] | None = None

    @classmethod
    def create(cls, hidden: int, rng: np.random.Generator, n_inputs: int = TD_INPUTS,
               meta: dict[str, str] | None = None) -> Net:
        """Small random weights (uniform, scaled by fan-in); output biases start at
        the log-odds of plausible priors (even game, few marses). ``meta``: e.g. the
        encoding's (:attr:`Encoding.meta`)."""
        w1 = rng.uniform(-1.0, 1.0, (hidden, n_inputs)) / np.sqrt(n_inputs)
        w2 = rng.uniform(-1.0, 1.0, (N_OUTPUTS, hidden)) / np.sqrt(hidden)
        b2 = np.array([0.0, -2.0, -4.0, -2.0, -4.0])
        return cls(w1, np.zeros(hidden), w2, b2, meta)

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[0])

    @property
    def n_inputs(self) -> int:
        return int(self.w1.shape[1])

    def forward(self, x: Inputs) -> FloatArray:
        """Probabilities, ``(n, N_OUTPUTS)``, for inputs ``x`` of shape ``(n, n_inputs)``.

        Computed in float32 (twice as fast on big batches; far below the estimates'
        precision), returned as float64."""
        if self._fast is None:
            self._fast = (np.ascontiguousarray(self.w1.T, dtype=np.float32),
                          self.b1.astype(np.float32),
                          np.ascontiguousarray(self.w2.T, dtype=np.float32),
                          self.b2.astype(np.float32))
        w1t, b1, w2t, b2 = self._fast
        h = np.tanh(x.astype(np.float32, copy=False) @ w1t + b1)
        return _sigmoid((h @ w2t + b2).astype(np.float64))

    def train_step(self, x: Inputs, target: FloatArray, rate: float) -> float:
        """One gradient step of the summed cross-entropy of ``forward(x)`` against
        ``target`` (same shape); returns the loss before the step."""
        h = np.tanh(x @ self.w1.T + self.b1)
        p = _sigmoid(h @ self.w2.T + self.b2)
        eps = 1e-12
        loss = float(-(target * np.log(p + eps) + (1 - target) * np.log(1 - p + eps)).sum())
        self._fast = None
        g_out = p - target                       # d loss / d logits
        g_hidden = (g_out @ self.w2) * (1.0 - h * h)
        self.w2 -= rate * (g_out.T @ h)
        self.b2 -= rate * g_out.sum(axis=0)
        self.w1 -= rate * (g_hidden.T @ x)
        self.b1 -= rate * g_hidden.sum(axis=0)
        return loss

    def save(self, path: Path) -> None:
        meta = np.array(sorted(f"{k}={v}" for k, v in self.meta.items()))
        np.savez_compressed(path, w1=self.w1.astype(np.float32), b1=self.b1.astype(np.float32),
                            w2=self.w2.astype(np.float32), b2=self.b2.astype(np.float32),
                            meta=meta)

    @classmethod
    def load(cls, path: Path, rules: str) -> Net:
        """Read weights written by :meth:`save` for playing ``rules``: their meta must
        name ``rules`` and its encoding (:meth:`Encoding.check`). Raises ``OSError``,
        :class:`WeightsMismatchError` or ``ValueError``."""
        with np.load(path, allow_pickle=False) as data:
            arrays = [data[k].astype(np.float64) for k in ("w1", "b1", "w2", "b2")]
            meta = dict(str(item).split("=", 1) for item in data["meta"])
        named = meta.get("encoding")
        try:
            enc = encoding(rules, named)
        except KeyError:  # an encoding this layout no longer (or never) had
            enc = encoding(rules)
        enc.check(meta, path)
        w1, b1, w2, b2 = arrays
        if w1.shape[1] != enc.n_inputs or w2.shape != (N_OUTPUTS, w1.shape[0]):
            raise WeightsMismatchError(f"{path}: weights of shape {w1.shape}/{w2.shape} do "
                                       f"not fit {enc.n_inputs} inputs and {N_OUTPUTS} outputs")
        return cls(w1, b1, w2, b2, meta)
