"""``RuleSet.legal_positions`` is ``legal_plays``' positions, in the same order, and
``legal_positions_packed`` the same positions packed, for every rule set: on random
positions (hypothesis, with the brute-force references), along seeded random games, on
every perft fixture entry, and in the corner cases (no legal move, the game over, bad
arguments)."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given

from nardy import BLACK, RULESETS, WHITE, BoardPosition, HitPosition, Position, Side
from nardy.codec import PACKED_SIZE

from . import test_perft
from .bruteforce import reference_for_roll
from .hitting import test_perft as hitting_perft
from .hitting.bruteforce import reference_for_roll as hitting_reference
from .hitting.test_properties import PROFILE as HIT_PROFILE
from .hitting.test_properties import positions as hit_positions
from .test_properties import PROFILE, dice_strategy, sides
from .test_properties import positions as long_positions

RULES = sorted(RULESETS)
HITTING = ["short_nardy", "backgammon", "nard"]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def unpacked(raw: bytes) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    """``legal_positions_packed``' records as (points, (white bar, black bar))."""
    assert len(raw) % PACKED_SIZE == 0
    return [(record[:24], (record[24], record[25]))
            for record in struct.iter_unpack(f"{PACKED_SIZE}b", raw)]


def check(rules: str, position: BoardPosition, side: Side, dice: tuple[int, int],
          first_turn: bool) -> tuple[BoardPosition, ...]:
    """legal_positions() equals legal_plays()' positions, in order, and each is a
    position its validating constructor accepts unchanged; legal_positions_packed()
    packs the same positions."""
    rs = RULESETS[rules]
    got = rs.legal_positions(position, side, dice, first_turn)
    expected = [p.position for p in rs.legal_plays(position, side, dice, first_turn)]
    assert isinstance(got, tuple)
    assert list(got) == expected, (rules, position.to_id(), side, dice, first_turn)
    for found in got:
        if isinstance(found, HitPosition):
            assert HitPosition(found.rules, found.points, found.bar, found.off) == found
        else:
            assert isinstance(found, Position)
            assert Position(found.points, found.off) == found
    packed = unpacked(rs.legal_positions_packed(position, side, [dice], first_turn)[0])
    assert packed == [(p.points, (p.bar_of(WHITE), p.bar_of(BLACK))) for p in got]
    return tuple(got)


def check_all_rolls(rules: str, position: BoardPosition, side: Side, first_turn: bool) -> None:
    """All rolls asked at once (they share the one-die layers) pack what each roll
    asked alone does, in the order asked."""
    rs = RULESETS[rules]
    rolls = [*ROLLS, (1, 2), (6, 6), (5, 6)]
    together = rs.legal_positions_packed(position, side, rolls, first_turn)
    assert together == tuple(rs.legal_positions_packed(position, side, [dice], first_turn)[0]
                             for dice in rolls)
    for dice, raw in zip(rolls, together, strict=True):
        found = rs.legal_positions(position, side, dice, first_turn)
        assert unpacked(raw) == [(p.points, (p.bar_of(WHITE), p.bar_of(BLACK)))
                                 for p in found]


@PROFILE
@given(long_positions(), sides, dice_strategy, sides)
def test_long_nardy_random_positions(position: Position, side: Side, dice: tuple[int, int],
                                     first_turn: int) -> None:
    got = check("long_nardy", position, side, dice, bool(first_turn))
    if position.outcome() is None:
        assert set(got) == reference_for_roll(position, side, dice, bool(first_turn)).results


@pytest.mark.parametrize("rules", HITTING)
def test_hitting_random_positions(rules: str) -> None:
    @HIT_PROFILE
    @given(hit_positions(rules), sides, dice_strategy)
    def run(position: HitPosition, side: Side, dice: tuple[int, int]) -> None:
        got = check(rules, position, side, dice, False)
        if position.outcome() is None and (dice[0] != dice[1] or len(got) < 60):
            # (the brute force is slow on wide doubles; the perft fixtures cover those)
            assert set(got) == hitting_reference(position, side, dice).results

    run()


@pytest.mark.parametrize("rules", RULES)
def test_along_a_random_game(rules: str) -> None:
    """Every roll at every turn of a seeded game, and the finished position."""
    rs = RULESETS[rules]
    rng = random.Random(11)
    position, side, first = rs.initial(), rng.randrange(2), [True, True]
    while rs.outcome(position) is None:
        for dice in ROLLS:
            check(rules, position, side, dice, first[side])
        check_all_rolls(rules, position, side, first[side])
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        check(rules, position, side, dice[::-1], first[side])  # the dice in either order
        plays = rs.legal_plays(position, side, dice, first[side])
        first[side] = False
        position = rng.choice(plays).position
        side = 1 - side
    assert check(rules, position, side, (3, 1), False) == (position,)  # the game is over
    check_all_rolls(rules, position, side, False)


def test_long_nardy_perft_fixture() -> None:
    for position, side, first, counts in test_perft.entries():
        for dice, count in zip(test_perft.rolls(), counts, strict=True):
            assert len(check("long_nardy", position, side, dice, first)) == count


@pytest.mark.parametrize("rules", HITTING)
def test_hitting_perft_fixtures(rules: str) -> None:
    for position, side, counts in hitting_perft.entries(rules):
        for dice, count in zip(hitting_perft.rolls(rules), counts, strict=True):
            assert len(check(rules, position, side, dice, False)) == count


def test_no_legal_move_is_the_position_itself() -> None:
    rs = RULESETS["long_nardy"]
    blocked = rs.position_from_perspective(WHITE, {24: 15, 18: -7, 19: -8})
    assert check("long_nardy", blocked, WHITE, (6, 5), False) == (blocked,)


def test_long_nardy_first_turn_doubles_share_nothing_with_the_others() -> None:
    """R12: 6-6, 4-4 and 3-3 on a first turn let two leave the head; asked with the
    other rolls (whose root allows one) each still gets its own results."""
    rs = RULESETS["long_nardy"]
    for side in (WHITE, BLACK):
        check_all_rolls("long_nardy", rs.initial(), side, True)
        six = rs.legal_positions_packed(rs.initial(), side, [(6, 1), (6, 6)], True)[1]
        assert len(six) == PACKED_SIZE  # 24/18 24/18: both from the head


def test_bad_arguments_raise_like_legal_plays() -> None:
    for rules in RULES:
        rs = RULESETS[rules]
        for side, dice in ((2, (3, 1)), (WHITE, (0, 1))):
            with pytest.raises(ValueError):
                rs.legal_positions(rs.initial(), side, dice, False)
            with pytest.raises(ValueError):
                rs.legal_positions_packed(rs.initial(), side, [dice], False)
    with pytest.raises(TypeError):
        RULESETS["long_nardy"].legal_positions(HitPosition.initial("nard"), WHITE, (3, 1),
                                               False)
    with pytest.raises(TypeError):
        RULESETS["nard"].legal_positions(Position.initial(), WHITE, (3, 1), False)
