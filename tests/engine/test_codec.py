"""The board codec belongs to the rule set (``RULESETS[name].codec``).

For the four built-in games the codec writes exactly the API board the server wrote
before it existed (a reference copy of that code is below), reads it back, refuses
impossible boards with the rule set's own reasons, draws each point's checkers, and
packs positions exactly as ``legal_positions_packed`` does.
"""

from __future__ import annotations

import json
import random
import struct

import pytest

from nardy import (
    BLACK,
    RULESETS,
    WHITE,
    InvalidPositionError,
    SignedCounts,
    other,
    ruleset,
    side_name,
)
from nardy.codec import SIGNED24

RULES = sorted(RULESETS)


def reference_board(position, perspective):
    """``games.selectors.board_json`` as it was before the codec (commit 76b12ec)."""
    counts = position.in_perspective(perspective)
    them = other(perspective)
    return {
        "perspective": side_name(perspective),
        "points": {str(p): counts[p] for p in sorted(counts, reverse=True)},
        "off": {"mine": position.off_of(perspective), "theirs": position.off_of(them)},
        "bar": {"mine": position.bar_of(perspective), "theirs": position.bar_of(them)},
    }


def game_positions(rules, games=4, seed=11):
    """Every position of seeded random games, finished ones included."""
    rs = ruleset(rules)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        position, side, first = rs.initial(), rng.randrange(2), [True, True]
        found.append(position)
        while rs.outcome(position) is None:
            plays = rs.legal_plays(position, side, (rng.randint(1, 6), rng.randint(1, 6)),
                                   first[side])
            first[side] = False
            position = rng.choice(plays).position
            found.append(position)
            side = 1 - side
    return found


@pytest.mark.parametrize("rules", RULES)
def test_the_api_board_is_the_one_written_before_byte_for_byte(rules):
    codec = ruleset(rules).codec
    for position in game_positions(rules):
        assert position.rules == rules
        for side in (WHITE, BLACK):
            got = codec.board(position, side)
            assert json.dumps(got) == json.dumps(reference_board(position, side))


@pytest.mark.parametrize("rules", RULES)
def test_the_api_board_reads_back_as_its_position(rules):
    codec = ruleset(rules).codec
    for position in game_positions(rules, games=2):
        for side in (WHITE, BLACK):
            board = codec.board(position, side)
            assert codec.position(board) == (side, position)
            # As the server's input validation leaves it: int keys, bar may be omitted.
            validated = {**board, "points": {int(p): n for p, n in board["points"].items()}}
            if not any(board["bar"].values()):
                del validated["bar"]
            assert codec.position(validated) == (side, position)


@pytest.mark.parametrize(("rules", "board", "message"), [
    ("long_nardy", {"perspective": "white", "points": {24: 15, 12: -15},
                    "off": {"mine": 0, "theirs": 0}, "bar": {"mine": 1, "theirs": 0}},
     "Long Nardy has no bar"),
    ("long_nardy", {"perspective": "white", "points": {24: 14, 12: -15},
                    "off": {"mine": 0, "theirs": 0}}, "15"),
    ("backgammon", {"perspective": "black", "points": {6: 15},
                    "off": {"mine": 0, "theirs": 0}}, "15"),
    ("nard", {"perspective": "white", "points": {24: 7, 23: 8, 1: -15},
              "off": {"mine": 0, "theirs": 0}}, "6"),
    ("backgammon", {"perspective": "green", "points": {}, "off": {"mine": 0, "theirs": 0}},
     "side must be"),
    ("backgammon", {"perspective": 1, "points": {}, "off": {"mine": 0, "theirs": 0}},
     "perspective must be"),
    ("backgammon", {"perspective": "white", "points": {"x": 1},
                    "off": {"mine": 0, "theirs": 0}}, "not a point"),
    ("backgammon", {"perspective": "white", "points": {"6": 5, 6: 10, 19: -15},
                    "off": {"mine": 0, "theirs": 0}}, "listed twice"),
    ("backgammon", {"perspective": "white", "points": [], "off": {"mine": 0, "theirs": 0}},
     "points must map"),
    ("backgammon", {"perspective": "white", "points": {}, "off": {"mine": 15}}, "off needs"),
    ("backgammon", {"perspective": "white", "points": {}}, "off must be"),
    ("backgammon", {"perspective": "white", "points": {}, "off": {"mine": 15, "theirs": 15},
                    "pinned": {}}, "unknown board field 'pinned'"),
])
def test_impossible_boards_are_refused_saying_why(rules, board, message):
    with pytest.raises((InvalidPositionError, ValueError), match=message):
        ruleset(rules).codec.position(board)


@pytest.mark.parametrize("rules", RULES)
def test_stacks_are_each_points_checkers_in_whites_numbering(rules):
    codec = ruleset(rules).codec
    for position in game_positions(rules, games=1):
        stacks = codec.stacks(position)
        counts = position.in_perspective(WHITE)
        assert set(stacks) == set(counts)
        for point, stack in stacks.items():
            side = WHITE if counts[point] > 0 else BLACK
            assert stack == (side,) * abs(counts[point])


@pytest.mark.parametrize("rules", RULES)
def test_pack_is_what_legal_positions_packed_writes(rules):
    rs = ruleset(rules)
    codec = rs.codec
    assert isinstance(codec, SignedCounts)
    assert (codec.layout, codec.packed_size, dict(codec.fields)) == (SIGNED24, 26, {})
    rng = random.Random(4)
    for i, position in enumerate(game_positions(rules, games=1)[:-1:3]):
        side, dice = i % 2, (rng.randint(1, 6), rng.randint(1, 6))
        found = rs.legal_positions(position, side, dice, False)
        packed = codec.pack(found)
        assert packed == rs.legal_positions_packed(position, side, [dice], False)[0]
        assert len(packed) == codec.packed_size * len(found)
        # The signed24 layout: White's 24 points, then the bars (zeros without one).
        for record, p in zip(struct.iter_unpack("26b", packed), found, strict=True):
            white = p.in_perspective(WHITE)
            assert record == (*(white.get(q, 0) for q in range(1, 25)),
                              p.bar_of(WHITE), p.bar_of(BLACK))


def test_every_rule_set_carries_its_descriptor():
    for name, rs in RULESETS.items():
        assert rs.descriptor.name == name == rs.initial().rules
