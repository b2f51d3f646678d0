"""Property tests (hypothesis) over random positions, rolls and games."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import (
    BLACK,
    WHITE,
    IllegalMoveError,
    Outcome,
    Play,
    Position,
    TurnState,
    legal_plays,
    opp,
)

from .bruteforce import reference

PROFILE = settings(max_examples=120, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow])

dice_strategy = st.tuples(st.integers(1, 6), st.integers(1, 6))
sides = st.sampled_from([WHITE, BLACK])


@st.composite
def positions(draw: st.DrawFn, max_points: int = 24) -> Position:
    """Any legal board: each side 0..15 checkers on the board (often all 15), the rest off,
    never both colours on one point; mover-side biases toward home boards sometimes."""
    def how_many() -> int:
        return draw(st.one_of(st.just(15), st.integers(0, 15)))

    white_n, black_n = how_many(), how_many()
    if white_n == 0 and black_n == 0:
        white_n = 1
    home_only = draw(st.booleans())
    white_range = range(1, 7) if home_only and white_n else range(1, 25)
    white_points = draw(st.lists(st.sampled_from(list(white_range)), min_size=1,
                                 max_size=min(max_points, 8), unique=True))
    white = Counter(draw(st.sampled_from(white_points)) for _ in range(white_n))
    free = [p for p in range(1, 25) if p not in white]
    black_points = draw(st.lists(st.sampled_from(free), min_size=1,
                                 max_size=min(max_points, 8), unique=True))
    black = Counter(draw(st.sampled_from(black_points)) for _ in range(black_n))
    counts = dict(white)
    for p, n in black.items():
        counts[p] = -n
    return Position.from_perspective(WHITE, counts, 15 - white_n, 15 - black_n)


def dice_used(play: Play, total: int) -> int:
    """R19-R21: the dice a play uses; one that ends the game (R28) uses what it played."""
    return len(play.steps)


@PROFILE
@given(positions(), sides)
def test_perspective_round_trip_and_one_colour_per_point(position: Position, side: int,
                                                        ) -> None:
    """R2/R33: a board read in either numbering rebuilds the same position; a point
    never holds both colours; 15 a side."""
    view = position.in_perspective(side)
    again = Position.from_perspective(side, view, position.off_of(side),
                                      position.off_of(1 - side))
    assert again == position
    other_view = position.in_perspective(1 - side)
    for p, n in view.items():
        assert other_view[opp(p)] == -n
    for s in (WHITE, BLACK):
        mine = position.in_perspective(s)
        assert sum(n for n in mine.values() if n > 0) + position.off_of(s) == 15
    assert Position.from_id(position.to_id()) == position


@PROFILE
@given(positions(), sides, dice_strategy, st.booleans())
def test_plays_are_consistent(position: Position, side: int, dice: tuple[int, int],
                              first_turn: bool) -> None:
    """15 checkers a side after every play; steps move forward; one play per result;
    all plays use the same (maximal) number of dice; each replays through apply()."""
    plays = legal_plays(position, side, dice, first_turn)
    assert plays
    total = 4 if dice[0] == dice[1] else 2
    if position.outcome() is not None:
        assert plays == [Play((), position)]
        return
    assert len({p.position for p in plays}) == len(plays)
    assert len({dice_used(p, total) for p in plays}) == 1
    start = TurnState.start(position, side, dice, first_turn)
    assert dice_used(plays[0], total) == (start.max_dice() if plays[0].steps else 0)
    for play in plays:
        Position(play.position.points, play.position.off)  # validates: 15 a side
        for step in play.steps:
            assert 0 <= step.dst < step.src
            assert step.dst == step.src - step.die or (step.dst == 0 and step.die > step.src)
        state = start
        for step in play.steps:
            assert step in state.legal_steps()
            state = state.apply(step)
        assert state.position == play.position
        assert state.is_turn_over()
    if plays[0].steps:
        assert {p.steps[0] for p in plays} <= set(start.legal_steps())
    else:
        assert start.legal_steps() == () and start.pass_reason() == "no legal move"


@PROFILE
@given(positions(), sides, dice_strategy, st.booleans(), st.randoms(use_true_random=False))
def test_turn_state_walk(position: Position, side: int, dice: tuple[int, int],
                         first_turn: bool, rng: random.Random) -> None:
    """Walk a turn step by step: every offered step applies, refused ones raise with a
    reason, the head counter never goes up, the ID round-trips, and the walk ends in
    one of the legal plays' positions."""
    state = TurnState.start(position, side, dice, first_turn)
    results = {p.position for p in legal_plays(position, side, dice, first_turn)}
    while True:
        assert TurnState.from_id(state.to_id()) == state
        steps = state.legal_steps()
        assert state.head_may_leave() in (0, state.head_left)
        if not steps:
            break
        for src in range(1, 25):
            for die in set(state.dice_left):
                try:
                    candidate = state.resolve(src, max(src - die, 0))
                except IllegalMoveError as exc:
                    assert exc.reason and str(exc)
                    continue
                assert candidate in steps
        step = rng.choice(steps)
        after = state.apply(step)
        assert after.head_left == state.head_left - (step.src == 24)
        assert len(after.dice_left) == len(state.dice_left) - 1
        state = after
    assert state.is_turn_over()
    assert state.position in results


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_points=5), sides, dice_strategy, st.booleans())
def test_brute_force_agrees(position: Position, side: int, dice: tuple[int, int],
                            first_turn: bool) -> None:
    """The engine and the naive reference agree on results and first steps (R24)."""
    state = TurnState.start(position, side, dice, first_turn)
    if position.outcome() is not None:
        return
    ref = reference(position, side, state.dice_left, state.head_left)
    assert {p.position for p in legal_plays(position, side, dice, first_turn)} == ref.results
    assert {(s.src, s.dst, s.die) for s in state.legal_steps()} == ref.first_steps


@settings(max_examples=25, deadline=None, database=None)
@given(st.integers(0, 2**32 - 1))
def test_random_self_play_ends_with_a_valid_outcome(seed: int) -> None:
    """Random games (a random legal play each turn) always end, with a valid R29 result."""
    rng = random.Random(seed)
    position = Position.initial()
    side = rng.choice((WHITE, BLACK))
    first = [True, True]
    for _ in range(3000):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, side, dice, first[side])
        first[side] = False
        position = rng.choice(plays).position
        outcome = position.outcome()
        if outcome is not None:
            assert outcome.winner == side
            loser_off = position.off_of(1 - side)
            expected = Outcome(side, 1, "single") if loser_off else Outcome(side, 2, "mars")
            assert outcome == expected
            assert position.off_of(side) == 15
            return
        side = 1 - side
    raise AssertionError("a random game did not end in 3000 turns")
