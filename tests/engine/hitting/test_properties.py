"""Property tests (hypothesis) per hitting game: random boards, rolls and games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nardy import BLACK, RULESETS, WHITE, HitPosition, HitTurn, IllegalMoveError

from .bruteforce import reference_for_roll

PROFILE = settings(max_examples=40, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow,
                                          HealthCheck.large_base_example])
RULES = ["short_nardy", "backgammon", "nard"]
dice_strategy = st.tuples(st.integers(1, 6), st.integers(1, 6))
sides = st.sampled_from([WHITE, BLACK])


@st.composite
def positions(draw: st.DrawFn, rules: str) -> HitPosition:
    """Any legal board of ``rules``: each side's 15 split between board, bar and off
    (nard: nothing off, at most 6 a point); often all home, often some on the bar."""
    cap = 6 if rules == "nard" else 15
    counts: dict[int, int] = {}
    bar = [0, 0]
    off = [0, 0]
    for side, sign in ((WHITE, 1), (BLACK, -1)):
        home_only = draw(st.booleans())
        bar[side] = draw(st.sampled_from([0, 0, 0, 1, 2]))
        off[side] = 0 if rules == "nard" else draw(st.sampled_from([0, 0, 3, 10, 14]))
        if home_only:
            bar[side] = 0
        left = 15 - bar[side] - off[side]
        if left < 0:
            bar[side], left = 0, 15 - off[side]
        own_points = list(range(1, 7)) if home_only else list(range(1, 25))
        # White's own point p is White's p; Black's own point q is White's 25 - q.
        free = [p for p in own_points if (p if side == WHITE else 25 - p) not in counts]
        while left:
            if not free:  # the own points wanted are all the opponent's: any free point
                free = [q for q in range(1, 25)
                        if (q if side == WHITE else 25 - q) not in counts
                        or counts[q if side == WHITE else 25 - q] * sign > 0]
                assume(bool(free))
            p = draw(st.sampled_from(free))
            w = p if side == WHITE else 25 - p
            if abs(counts.get(w, 0)) < cap:
                counts[w] = counts.get(w, 0) + sign
                left -= 1
            elif all(abs(counts.get(q if side == WHITE else 25 - q, 0)) >= cap for q in free):
                free = [q for q in range(1, 25)
                        if (q if side == WHITE else 25 - q) not in counts]
    try:
        return HitPosition.from_perspective(rules, WHITE, counts, off[0], off[1], bar[0],
                                            bar[1])
    except ValueError:  # e.g. both sides all home in nard
        return HitPosition.initial(rules)


def check_invariants(position: HitPosition) -> None:
    for side in (WHITE, BLACK):
        on_board = sum(n for n in position.in_perspective(side).values() if n > 0)
        assert on_board + position.bar_of(side) + position.off_of(side) == 15
    assert len(position.points) == 24  # one signed count per point: never two colours
    if position.rules == "nard":
        assert position.off == (0, 0) and all(abs(n) <= 6 for n in position.points)
    assert HitPosition.from_id(position.to_id()) == position


@pytest.mark.parametrize("rules", RULES)
def test_plays_keep_the_invariants_and_use_the_same_maximal_dice(rules: str) -> None:
    @PROFILE
    @given(positions(rules), sides, dice_strategy)
    def check(position: HitPosition, side: int, dice: tuple[int, int]) -> None:
        check_invariants(position)
        ruleset = RULESETS[rules]
        plays = ruleset.legal_plays(position, side, dice, False)
        assert plays
        state = ruleset.start_turn(position, side, dice, False)
        assert isinstance(state, HitTurn)
        lengths = {len(p.steps) for p in plays}
        assert len(lengths) == 1
        assert lengths == {state.max_dice()}
        results = [p.position for p in plays]
        assert len(set(results)) == len(results)  # one play per distinct result
        for play in plays:
            check_invariants(play.position)
            replay = state
            for s in play.steps:
                assert s.src > s.dst  # every step forward (H2)
                assert s in replay.legal_steps()
                replay = replay.apply(s)
            assert replay.position == play.position
            assert replay.is_turn_over()
        if position.outcome() is None and (dice[0] != dice[1] or len(plays) < 60):
            # (the brute force is slow on wide doubles; the perft fixtures cover those)
            reference = reference_for_roll(position, side, dice)
            assert set(results) == reference.results
            assert {(s.src, s.dst, s.die) for s in state.legal_steps()} == reference.first_steps

    check()


@pytest.mark.parametrize("rules", RULES)
def test_illegal_steps_are_refused_with_a_reason(rules: str) -> None:
    @PROFILE
    @given(positions(rules), sides, dice_strategy, st.integers(1, 25), st.integers(0, 24))
    def check(position: HitPosition, side: int, dice: tuple[int, int], src: int,
              dst: int) -> None:
        state = RULESETS[rules].start_turn(position, side, dice, False)
        if dst >= src or (dst and src - dst > 6):
            return
        legal = [s for s in state.legal_steps() if (s.src, s.dst) == (src, dst)]
        try:
            step = state.resolve(src, dst)
        except IllegalMoveError as exc:
            assert exc.reason
            assert not legal or exc.reason == "ambiguous_die"
        else:
            assert step in legal

    check()


@pytest.mark.parametrize("rules", RULES)
def test_random_self_play_ends_with_a_valid_result(rules: str) -> None:
    ruleset = RULESETS[rules]
    rng = random.Random(f"self-play {rules}")
    for _ in range(4):
        position = ruleset.initial()
        side = rng.choice((WHITE, BLACK))
        for _turn in range(2000):
            assert isinstance(position, HitPosition)
            check_invariants(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            state = ruleset.start_turn(position, side, dice, False)
            while not state.is_turn_over():  # one step at a time, as the server plays
                state = state.apply(rng.choice(state.legal_steps()))
            position = state.position
            if ruleset.outcome(position) is not None:
                break
            side = 1 - side
        outcome = ruleset.outcome(position)
        assert outcome is not None and outcome.winner == side
        assert outcome.result in ruleset.results
        assert ruleset.turn_from_id(state.to_id()) == state
