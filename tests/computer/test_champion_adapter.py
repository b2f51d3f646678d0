"""The champion adapter (:mod:`computer.lab.champion`): our translation of positions and
moves to and from MetinGames' Long Narde bot, the arena's errors when the bot is absent,
and — only where the bot is cloned (``$NARD_CHAMPION_DIR`` or /work/ext/long-narde) and
Node.js is installed — its plays and rules against ours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from computer.board import ruleset
from computer.lab import champion
from computer.lab.arena import ArenaError, Setup, check_player, make_player, play
from computer.lab.champion import (
    OFF,
    ChampionError,
    ChampionPlayer,
    apply_moves,
    from_slots,
    missing,
    moves_text,
    point_of,
    request,
    slot_of,
    to_slots,
    to_steps,
)
from nardy import BLACK, WHITE, Position, Side, Step

from .util import sample_positions

RULES = ruleset("long_nardy")


def test_slots_and_points_are_inverse_and_follow_r2() -> None:
    """Slot s is White's point 25 - s; Black's point of it is opp of that (R2)."""
    for side in (WHITE, BLACK):
        assert sorted(slot_of(side, p) for p in range(1, 25)) == list(range(1, 25))
        for point in range(1, 25):
            assert point_of(side, slot_of(side, point)) == point
    # Each head: White's 24 is the bot's slot 1, Black's 24 its slot 13.
    assert (slot_of(WHITE, 24), slot_of(BLACK, 24)) == (1, 13)
    # Each home end: White's 1 is slot 24, Black's 1 slot 12 (Black wraps 24 -> 1).
    assert (slot_of(WHITE, 1), slot_of(BLACK, 1)) == (24, 12)
    # The same slot seen by both sides: White's 12 is Black's 24 (R2).
    assert point_of(WHITE, 13) == 12 and point_of(BLACK, 13) == 24
    with pytest.raises(ValueError):
        point_of(WHITE, 25)
    with pytest.raises(ValueError):
        slot_of(BLACK, 0)


def test_the_start_on_the_bots_board() -> None:
    """R3: 15 White on slot 1 (its player 1's head), 15 Black on slot 13."""
    slots = to_slots(Position.initial())
    assert slots[0] == 15 and slots[12] == -15 and sum(map(abs, slots)) == 30
    assert from_slots(slots, (0, 0)) == Position.initial()


def test_a_concrete_position_on_the_bots_board() -> None:
    """White 3 on its 24, 2 on its 1 and 10 off; Black 15 on its 7 (White's 19, R2)."""
    position = Position.from_perspective(WHITE, {24: 3, 1: 2, 19: -15}, off_mine=10)
    slots = to_slots(position)
    assert slots[slot_of(WHITE, 24) - 1] == 3
    assert slots[slot_of(WHITE, 1) - 1] == 2
    assert slot_of(BLACK, 7) == 6 and slots[5] == -15
    assert from_slots(slots, (10, 0)) == position
    line = json.loads(request(position, BLACK, (6, 5), False))
    assert line == {"slots": list(slots), "off": [10, 0], "player": 2, "dice": [6, 5],
                    "first": False}


def test_boards_round_trip_on_sampled_positions() -> None:
    for position, _, _, _ in sample_positions("long_nardy", 60, seed=3):
        assert isinstance(position, Position)
        assert from_slots(to_slots(position), (position.off_of(WHITE),
                                               position.off_of(BLACK))) == position


@pytest.mark.parametrize(("side", "moves", "text"), [
    (WHITE, [(1, 6, 7), (1, 6, 7)], "24/18 24/18"),
    (BLACK, [(13, 6, 19), (19, 5, 24)], "24/18 18/13"),
    (BLACK, [(24, 1, 1)], "13/12"),          # Black crosses from slot 24 to slot 1
    (WHITE, [(22, 6, OFF)], "3/off(6)"),     # bearing off with a larger die (R26)
    (BLACK, [(12, 1, OFF), (7, 6, OFF)], "1/off 6/off"),
    (WHITE, [], "-"),
])
def test_moves_read_as_our_steps(side: Side, moves: list[tuple[int, int, int]],
                                 text: str) -> None:
    assert moves_text(side, moves) == text


def test_steps_keep_the_die_and_refuse_a_wrong_distance() -> None:
    assert to_steps(WHITE, [(22, 6, OFF)]) == (Step(3, 0, 6),)
    with pytest.raises(ValueError):
        to_steps(WHITE, [(1, 5, 7)])


def test_applied_moves_reach_the_engines_plays() -> None:
    """The opening 3-1 for each side, and the first-turn 6-6 (R12), as the bot writes
    them, land on the engine's plays."""
    start = Position.initial()
    cases = [
        (WHITE, (3, 1), False, [(1, 3, 4), (4, 1, 5)], "24/21 21/20"),
        (BLACK, (3, 1), False, [(13, 3, 16), (16, 1, 17)], "24/21 21/20"),
        (WHITE, (6, 6), True, [(1, 6, 7), (1, 6, 7)], "24/18 24/18"),
    ]
    for side, dice, first, moves, text in cases:
        reached = apply_moves(start, side, moves)
        plays = {str(p): p.position for p in RULES.legal_plays(start, side, dice, first)}
        assert plays[text] == reached


def test_applied_moves_bear_off_and_count_it() -> None:
    position = Position.from_perspective(BLACK, {1: 1, 6: 14, 20: -15})
    reached = apply_moves(position, BLACK, [(12, 1, OFF), (7, 6, OFF)])
    assert reached.off_of(BLACK) == 2 and reached.count_at(BLACK, 6) == 13
    with pytest.raises(ValueError):
        apply_moves(position, BLACK, [(11, 2, OFF)])  # no Black checker on its 2


def test_a_missing_bot_is_a_clear_arena_error(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(champion.ENV_DIR, str(tmp_path / "nowhere"))
    why = missing()
    assert why is not None
    if champion.find_node() is not None:
        assert "nowhere" in why and champion.ENV_DIR in why and "git clone" in why
    with pytest.raises(ArenaError, match="champion"):
        check_player("long_nardy", "champion")
    with pytest.raises(ArenaError, match="champion"):
        make_player("long_nardy", "champion-botrules")
    with pytest.raises(ChampionError):
        ChampionPlayer()


def test_the_champion_plays_long_nardy_only() -> None:
    for rules in ("short_nardy", "backgammon"):
        with pytest.raises(ArenaError, match="long_nardy only"):
            check_player(rules, "champion")


def test_a_clone_without_the_bot_is_refused(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "package.json").write_text("{}")
    why = missing(tmp_path)
    assert why is not None
    if champion.find_node() is not None:
        assert "engine/bot.js" in why


# -- with the bot -----------------------------------------------------------------------

needs_bot = pytest.mark.skipif(missing() is not None, reason="MetinGames' Long Narde bot "
                               "is not cloned (NARD_CHAMPION_DIR) or node is missing")

SEAM = Position.from_perspective(
    WHITE, {11: 1, 12: 1, 13: 1, 14: 1, 15: 1, 17: 1, 9: 1, 24: 8, 22: -15})
"""White to play 1-2 can fill its 11..16 with 17/16 (and play 9/7): a prime across its
12 and 13, which R18 never allows and the bot's own rule allows (a Black checker, on
White's 22, between the prime's two ends in the bot's reckoning)."""


@needs_bot
def test_the_bot_answers_a_legal_play_for_each_side() -> None:
    with ChampionPlayer() as bot:
        for side in (WHITE, BLACK):
            for dice in ((6, 6), (3, 1), (5, 2)):
                plays = RULES.legal_plays(Position.initial(), side, dice, True)
                assert 0 <= bot.choose(Position.initial(), side, dice, True, plays) < len(plays)


@needs_bot
def test_its_rules_are_ours_on_sampled_positions() -> None:
    """Under our prime rule the bot's game allows exactly our plays (R4-R27)."""
    with ChampionPlayer() as bot:
        for position, side, dice, first in sample_positions("long_nardy", 150, seed=11):
            assert bot.legal_positions(position, side, dice, first) == set(
                RULES.legal_positions(position, side, dice, first))


@needs_bot
def test_its_own_prime_rule_allows_a_prime_across_the_seam() -> None:
    """The one rules difference found: its own rule allows the seam prime (R18)."""
    ours = set(RULES.legal_positions(SEAM, WHITE, (1, 2), False))
    with ChampionPlayer(rules="own") as bot:
        theirs = bot.legal_positions(SEAM, WHITE, (1, 2), False)
    extra = theirs - ours
    assert extra and all(p.count_at(WHITE, 16) > 0 for p in extra)
    with ChampionPlayer(rules="ours") as bot:
        assert bot.legal_positions(SEAM, WHITE, (1, 2), False) == ours


@needs_bot
def test_a_game_in_the_arena() -> None:
    a = make_player("long_nardy", "champion")
    b = make_player("long_nardy", "random")
    try:
        game, times = play("long_nardy", a, b, seed=5, index=0)
    finally:
        a.close()
        b.close()
    assert game.winner in (WHITE, BLACK) and times[0]


def test_a_records_header_names_the_bots_commit(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A record of another clone of the bot is another setup: its header says which."""
    monkeypatch.setenv(champion.ENV_DIR, str(tmp_path))
    header = Setup("long_nardy", "expert", "champion", 1).header()
    assert header["b_champion"] == "unknown" and "a_champion" not in header
