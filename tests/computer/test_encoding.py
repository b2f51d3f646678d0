"""The rule set's descriptor in the computer: its profile is the rule set's descriptor, its
boards are read through the rule set's codec, its network encoding is the rule set's
own, and weights files say which rule set and encoding they were trained for.

The decisions must be bit-for-bit those of the code before (commit 76b12ec): a copy of
its board reading and encoder is kept below (``old_boards``, ``old_encode``: the
per-name profile table, the layout found by trying both numberings, the encoder's
numbering chosen by "does it hit"), and the inputs, values and choices are compared
exactly on sampled positions of all four rule sets.
"""

from __future__ import annotations

import random
import re
import struct
from dataclasses import dataclass, replace

import numpy as np
import pytest

import computer.lab
from computer import board as board_module
from computer import network
from computer.board import Boards, UnreadableBoardError, boards, profile, ruleset
from computer.lab import previous_network
from computer.lab.train import train
from computer.levels import levels_for, picker
from computer.network import WeightsMismatchError, encoding
from computer.search import Evaluator
from computer.weights_io import UnknownLevelError, load_net, weights_path
from nardy import RULESETS, BoardPosition, SignedCounts

from .util import sample_positions

RULES = sorted(RULESETS)

# --- the code before, kept as the reference --------------------------------------------


@dataclass(frozen=True)
class OldProfile:
    name: str
    hitting: bool
    bears_off: bool
    head: bool
    triple: bool


OLD_PROFILES = {
    "long_nardy": OldProfile("long_nardy", hitting=False, bears_off=True, head=True,
                             triple=False),
    "short_nardy": OldProfile("short_nardy", hitting=True, bears_off=True, head=False,
                              triple=True),
    "backgammon": OldProfile("backgammon", hitting=True, bears_off=True, head=False,
                             triple=True),
    "nard": OldProfile("nard", hitting=True, bears_off=False, head=False, triple=False),
}
_OLD_BLACK_INDEX = {
    "r2": np.array([(q + 12 if q <= 12 else q - 12) - 1 for q in range(1, 25)]),
    "h1": np.array([24 - q for q in range(1, 25)]),
}
_OLD_LAYOUT = {"long_nardy": "r2", "short_nardy": "h1", "backgammon": "h1", "nard": "h1"}


def old_boards(rules: str, positions: list[BoardPosition], me: int) -> Boards:
    """computer.board.boards before: the positions' ``points`` (and ``bar``) packed with
    struct, read with the numbering found for the rule set."""
    if OLD_PROFILES[rules].hitting:
        pack = struct.Struct("24b2b").pack
        data = b"".join([pack(*p.points, *p.bar) for p in positions])
    else:
        pack = struct.Struct("24b2x").pack
        data = b"".join([pack(*p.points) for p in positions])
    rows = np.frombuffer(data, dtype=np.int8).reshape(-1, 26)
    points = rows[:, :24]
    bar = rows[:, 24:].astype(np.int64)
    white = np.maximum(points, 0).astype(np.int64)
    black = np.maximum(-points, 0).astype(np.int64)[:, _OLD_BLACK_INDEX[_OLD_LAYOUT[rules]]]
    off = 15 - bar
    off[:, 0] -= white.sum(axis=1)
    off[:, 1] -= black.sum(axis=1)
    if me == 0:
        return Boards(white, black, bar, off)
    return Boards(black, white, bar[:, ::-1].copy(), off[:, ::-1].copy())


_UNITS = np.array([[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 4.0] for n in range(16)],
                  dtype=np.float32)
_OLD_TO_MINE = {False: np.array([(r + 12 if r <= 12 else r - 12) - 1 for r in range(1, 25)]),
                True: np.array([24 - r for r in range(1, 25)])}
_BITS = (2.0 ** np.arange(24)).astype(np.float32)


def old_encode(b: Boards, prof: OldProfile) -> np.ndarray:
    """computer.network.encode before (its block tables are network's, unchanged)."""
    n = len(b)
    x = np.empty((n, 2, 104), dtype=np.float32)
    counts = np.stack((b.mine, b.theirs), axis=1)
    x[:, :, :96] = np.take(_UNITS, counts, axis=0).reshape(n, 2, 96)
    bar, off = b.bar, b.off
    need = 2 if prof.hitting else 1
    blocked = ((counts[:, :, _OLD_TO_MINE[prof.hitting]] >= need) @ _BITS).astype(np.int64)
    occupied = ((counts[:, ::-1] > 0) @ _BITS).astype(np.int64)
    rear = np.frexp(occupied.astype(np.float64))[1].astype(np.int64)
    rear = np.where(bar[:, ::-1] > 0, 25, rear)
    ahead = (np.int64(1) << np.maximum(rear - 1, 0)) - 1
    near = ahead & ~((np.int64(1) << np.maximum(rear - 7, 0)) - 1)
    relevant = blocked & ahead
    low, high = relevant & 0xFFF, relevant >> 12
    longest = np.maximum(np.maximum(network._RUN_LONGEST[low], network._RUN_LONGEST[high]),
                         network._RUN_DOWN[low] + network._RUN_UP[high])
    x[:, :, 96] = bar >= 1
    x[:, :, 97] = bar / 4.0
    x[:, :, 98] = off / 15.0
    x[:, :, 99] = (counts @ np.arange(1, 25) + 25 * bar) / 200.0
    x[:, :, 100] = (counts[:, :, 6:].sum(axis=2) == 0) & (bar == 0)
    x[:, :, 101] = np.bitwise_count(relevant) / 6.0
    x[:, :, 102] = np.bitwise_count(blocked & near) / 6.0
    x[:, :, 103] = longest / 6.0
    return x.reshape(n, 208)


def result_positions(rules: str, count: int, seed: int) -> list[tuple[list, int]]:
    """For sampled queries: every legal resulting position and the side that moved."""
    rs = ruleset(rules)
    return [(list(rs.legal_positions(p, s, d, f)), s)
            for p, s, d, f in sample_positions(rules, count, seed)]


# --- the profile ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_the_profile_is_the_descriptors_and_what_the_old_table_said(rules):
    prof, old, d = profile(rules), OLD_PROFILES[rules], ruleset(rules).descriptor
    assert (prof.name, prof.hits, prof.bears_off, prof.head, prof.triple) == (
        old.name, old.hitting, old.bears_off, old.head, old.triple)
    assert (prof.hits, prof.bears_off, prof.head, prof.triple, prof.numbering) == (
        d.hits, d.bears_off, d.head, d.triple, d.numbering)


def test_an_unknown_rule_set_has_no_profile():
    with pytest.raises(KeyError, match="no rule set 'plakoto'"):
        profile("plakoto")


# --- bit for bit ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_inputs_are_the_old_encodings_bit_for_bit(rules):
    enc = encoding(rules, "td-signed24")
    assert (enc.name, enc.n_inputs) == ("td-signed24", 208)
    for positions, side in result_positions(rules, 40, seed=31):
        for me in (side, 1 - side):
            new, old = boards(rules, positions, me), old_boards(rules, positions, me)
            for a, b in ((new.mine, old.mine), (new.theirs, old.theirs), (new.bar, old.bar),
                         (new.off, old.off)):
                assert np.array_equal(a, b)
            x = enc.encode(new)
            assert x.dtype == np.float32
            assert np.array_equal(x, old_encode(old, OLD_PROFILES[rules]))


@pytest.mark.parametrize("rules", RULES)
def test_values_and_choices_of_the_committed_weights_are_the_old_ones(rules):
    """The 0-ply values the search computes are the committed network on the old
    inputs, exactly, and the network level picks the old encoding's best play (without
    the race networks, which came later: tests/computer/test_race.py)."""
    net = load_net(rules)
    if net.meta["encoding"] != "td-signed24":  # retrained since: the td network it replaced
        net = network.Net.load(previous_network(rules, "td-signed24"), rules)
    pick = picker(rules, "network", net=net, race=False)
    rs = ruleset(rules)
    checked = 0
    for position, side, dice, first in sample_positions(rules, 40, seed=32):
        plays = rs.legal_plays(position, side, dice, first)
        if len(plays) < 2:
            continue
        positions = [p.position for p in plays]
        values = Evaluator(rules, net, race=False).static(positions, side)
        old = net.forward(old_encode(old_boards(rules, positions, side), OLD_PROFILES[rules]))
        for i, p in enumerate(positions):  # finished games: their exact result, as before
            if rs.outcome(p) is not None:
                old[i] = values[i]
        assert np.array_equal(values, old)
        assert pick(plays, side) == int(np.argmax(network.equity(old)))
        checked += 1
    assert checked >= 20


# --- weights say what they were trained for ------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_committed_weights_carry_their_rule_set_and_encoding(rules):
    with np.load(weights_path(rules), allow_pickle=False) as data:
        meta = dict(str(item).split("=", 1) for item in data["meta"])
    enc = encoding(rules, meta["encoding"])  # one of the layout's encodings
    assert (meta["rules"], meta["encoding"], meta["encoding_fingerprint"]) == (
        rules, enc.name, enc.fingerprint)
    assert load_net(rules).n_inputs == enc.n_inputs


def _copy_with_meta(tmp_path, rules, change):
    """The committed weights of ``rules`` with their meta changed by ``change``."""
    with np.load(weights_path(rules), allow_pickle=False) as data:
        arrays = {k: data[k] for k in ("w1", "b1", "w2", "b2")}
        meta = dict(str(item).split("=", 1) for item in data["meta"])
    change(meta)
    path = tmp_path / f"{rules}.npz"
    np.savez_compressed(path, **arrays, meta=np.array([f"{k}={v}" for k, v in meta.items()]))
    return path


def test_loading_weights_of_another_rule_set_is_refused():
    with pytest.raises(WeightsMismatchError, match="trained for 'long_nardy', not 'backgammon'"):
        network.Net.load(weights_path("long_nardy"), "backgammon")
    # The hitting games share the encoding: the rule set alone tells them apart.
    with pytest.raises(WeightsMismatchError, match="trained for 'nard', not 'short_nardy'"):
        network.Net.load(weights_path("nard"), "short_nardy")


def test_loading_weights_of_another_encoding_is_refused(tmp_path):
    path = _copy_with_meta(tmp_path, "backgammon",
                           lambda meta: meta.update(encoding_fingerprint="0123456789abcdef"))
    with pytest.raises(WeightsMismatchError, match=re.escape(
            "encoding contact-signed24 (0123456789abcdef); backgammon now encodes "
            "contact-signed24")):
        network.Net.load(path, "backgammon")
    path = _copy_with_meta(tmp_path, "backgammon", lambda meta: meta.update(encoding="td-v0"))
    with pytest.raises(WeightsMismatchError, match="encoding td-v0"):
        network.Net.load(path, "backgammon")


def test_loading_weights_that_do_not_say_is_refused(tmp_path):
    def strip(meta):
        for key in ("rules", "encoding", "encoding_fingerprint"):
            del meta[key]

    path = _copy_with_meta(tmp_path, "long_nardy", strip)
    with pytest.raises(WeightsMismatchError, match="do not say which rule set and encoding "
                                                   "they were trained for"):
        network.Net.load(path, "long_nardy")


def test_the_fingerprint_follows_what_the_encoding_writes():
    """A change to what the encoder writes (here one input scaled) changes the
    fingerprint, so the weights trained before are refused."""
    enc = encoding("long_nardy", "td-signed24")

    def changed(b, prof):
        x = network.encode(b, prof)
        x[:, 99] *= 2
        return x

    other = replace(enc, write=changed)
    assert other.fingerprint != enc.fingerprint
    assert replace(enc, profile=replace(enc.profile, hits=True)).fingerprint != enc.fingerprint
    assert replace(enc).fingerprint == enc.fingerprint


def test_the_previous_network_of_an_encoding(tmp_path, monkeypatch):
    """``previous_network``: the replaced network, or the older one of the encoding asked
    for beside it, and a clear error when there is none."""
    td_network = previous_network("nard", "td-signed24").read_bytes()
    monkeypatch.setattr(computer.lab, "PREVIOUS_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="no previous nard network"):
        previous_network("nard")
    train("nard", 1, seed=3, hidden=4, report=1, eval_games=0).save(tmp_path / "nard.npz")
    assert previous_network("nard") == tmp_path / "nard.npz"
    assert previous_network("nard", "shape-signed24") == tmp_path / "nard.npz"
    with pytest.raises(FileNotFoundError, match="no previous nard network of td-signed24"):
        previous_network("nard", "td-signed24")
    (tmp_path / "nard-td-signed24.npz").write_bytes(td_network)
    assert previous_network("nard", "td-signed24") == tmp_path / "nard-td-signed24.npz"


def test_training_records_the_encoding(tmp_path):
    net = train("nard", 2, seed=3, hidden=4, report=2, eval_games=0)
    assert {k: net.meta[k] for k in encoding("nard").meta} == encoding("nard").meta
    path = tmp_path / "nard.npz"
    net.save(path)
    assert network.Net.load(path, "nard").n_inputs == network.SHAPE_INPUTS


# --- a rule set the computer cannot read ---------------------------------------------


class _OtherLayout(SignedCounts):
    layout = "pinned24"


@pytest.fixture
def unreadable(monkeypatch):
    """``toy``: backgammon under another name whose codec has a layout the computer
    has no reader or encoding for."""

    class Toy:
        def __init__(self, base):
            self._base = base
            self.codec = _OtherLayout(base.position_from_perspective, bar=True)
            self.descriptor = replace(base.descriptor, name="toy_layout")

        def __getattr__(self, name):
            return getattr(self._base, name)

    monkeypatch.setitem(RULESETS, "toy_layout", Toy(RULESETS["backgammon"]))
    yield "toy_layout"
    for cached in (board_module.profile, board_module.reader, board_module._view,
                   network.encoding):
        cached.cache_clear()


def test_a_layout_without_reader_or_encoding_is_a_clear_error(unreadable):
    rs = ruleset(unreadable)
    with pytest.raises(UnreadableBoardError, match="layout 'pinned24' has no reader"):
        boards(unreadable, [rs.initial()], 0)
    with pytest.raises(UnreadableBoardError, match="layout 'pinned24' has none"):
        encoding(unreadable)
    assert levels_for(unreadable) == {"random": levels_for("backgammon")["random"]}
    with pytest.raises(UnknownLevelError, match="no level 'heuristic' in 'toy_layout'"):
        picker(unreadable, "heuristic")
    plays = rs.legal_plays(rs.initial(), 0, (3, 1))
    assert 0 <= picker(unreadable, "random", random.Random(1))(plays, 0) < len(plays)
