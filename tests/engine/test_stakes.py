"""The stake rules as pure functions (nardy.stakes, RULES-FAMILY S1-S7):
the one place the server, the server's computer and the reference bot client ask."""

from __future__ import annotations

import pytest

from nardy.stakes import (
    ARITHMETIC,
    CUBE,
    DAVE,
    GEOMETRIC,
    MAX_STAKE,
    NONE,
    START_STAKE,
    crawford_follows,
    game_points,
    holds_the_right,
    mars_counts,
    may_offer,
    next_stake,
    no_offer_reason,
    progression_allowed,
)


def test_S1_every_game_starts_at_stake_1() -> None:
    assert START_STAKE == 1


@pytest.mark.parametrize(("holder", "expected"), [
    ("", "both"),        # the start of a game: both may offer
    ("white", "white"),  # White accepted the last raise: only White may offer next
    ("black", "black"),
])
def test_S2_the_right_to_offer_goes_to_who_accepted(holder: str, expected: str) -> None:
    assert may_offer(CUBE, length=5, stake=2, holder=holder, crawford=False,
                     over=False) == expected


def test_S2_who_holds_the_right() -> None:
    assert holds_the_right("both", "white") and holds_the_right("both", "black")
    assert holds_the_right("white", "white") and not holds_the_right("white", "black")
    assert not holds_the_right("none", "white") and not holds_the_right("none", "black")


def test_S2_a_holder_is_a_colour() -> None:
    with pytest.raises(ValueError, match="holder"):
        may_offer(CUBE, length=5, stake=2, holder="green", crawford=False, over=False)


def test_S2_no_one_offers_in_a_game_that_is_over() -> None:
    assert may_offer(CUBE, length=5, stake=2, holder="white", crawford=False,
                     over=True) == "none"


@pytest.mark.parametrize(("progression", "stake", "raised"), [
    (GEOMETRIC, 1, 2), (GEOMETRIC, 2, 4), (GEOMETRIC, 16, 32),
    (ARITHMETIC, 1, 2), (ARITHMETIC, 2, 3), (ARITHMETIC, 7, 8),
])
def test_S4_the_next_stake_follows_the_progression(progression: str, stake: int,
                                                   raised: int) -> None:
    assert next_stake(progression, stake) == raised


def test_S4_arithmetic_is_for_dave_only() -> None:
    assert progression_allowed(DAVE, ARITHMETIC) and progression_allowed(DAVE, GEOMETRIC)
    assert progression_allowed(CUBE, GEOMETRIC) and not progression_allowed(CUBE, ARITHMETIC)
    assert progression_allowed(NONE, GEOMETRIC) and not progression_allowed(NONE, ARITHMETIC)


def test_S4_a_refused_offer_scores_the_stake_before_it_times_1() -> None:
    assert game_points(CUBE, stake=4, points=1, mars=False, refused=True) == (4, False)
    assert game_points(DAVE, stake=3, points=1, mars=False, refused=True) == (3, False)


def test_S5_the_stake_never_passes_64_and_at_64_no_one_offers() -> None:
    assert MAX_STAKE == 64
    assert next_stake(GEOMETRIC, 32) == 64 and next_stake(ARITHMETIC, 63) == 64
    assert next_stake(GEOMETRIC, 64) == 64 and next_stake(ARITHMETIC, 64) == 64
    assert no_offer_reason(CUBE, length=5, stake=64, crawford=False) == "cap"
    assert no_offer_reason(CUBE, length=5, stake=32, crawford=False) is None
    assert may_offer(DAVE, length=5, stake=64, holder="white", crawford=False,
                     over=False) == "none"


@pytest.mark.parametrize(("option", "points", "mars", "scored"), [
    (CUBE, 2, True, (8, True)),   # a mars at stake 4: 8 points, a mars
    (CUBE, 3, True, (12, True)),  # a koks / backgammon: 12
    (CUBE, 1, False, (4, False)),
    (NONE, 2, True, (8, True)),   # no stakes: the stake stays 1 in play; the rule alike
    (DAVE, 2, True, (4, False)),  # dave: the stake, no mars
    (DAVE, 3, True, (4, False)),
])
def test_S6_what_a_game_scores(option: str, points: int, mars: bool,
                               scored: tuple[int, bool]) -> None:
    assert game_points(option, stake=4, points=points, mars=mars, refused=False) == scored


def test_S6_mars_counts_unless_dave() -> None:
    assert mars_counts(CUBE) and mars_counts(NONE) and not mars_counts(DAVE)


def test_S7_no_offers_in_a_one_point_match_or_the_crawford_game() -> None:
    assert no_offer_reason(CUBE, length=1, stake=1, crawford=False) == "one_point_match"
    assert no_offer_reason(CUBE, length=5, stake=1, crawford=True) == "crawford"
    assert may_offer(CUBE, length=5, stake=1, holder="", crawford=True, over=False) == "none"
    assert no_offer_reason(NONE, length=5, stake=1, crawford=False) == "no_stakes"


@pytest.mark.parametrize(("option", "length", "score", "crawford_game", "follows"), [
    (CUBE, 5, (4, 0), None, True),    # White is first one short of 5
    (DAVE, 5, (1, 4), None, True),    # Black is
    (CUBE, 5, (3, 2), None, False),   # no one is one short
    (CUBE, 5, (4, 3), 4, False),      # once per match: game 4 was the Crawford game
    (CUBE, 1, (0, 0), None, False),   # a 1-point match has no offers at all
    (NONE, 5, (4, 0), None, False),   # no stakes: nothing to mark
    (CUBE, 3, (2, 2), None, True),
])
def test_S7_the_crawford_game_follows_once(option: str, length: int, score: tuple[int, int],
                                           crawford_game: int | None, follows: bool) -> None:
    assert crawford_follows(option, length=length, score=score,
                            crawford_game=crawford_game) is follows


def test_the_reasons_come_in_one_order() -> None:
    """No stakes before a 1-point match before the Crawford game before the cap."""
    assert no_offer_reason(NONE, length=1, stake=64, crawford=True) == "no_stakes"
    assert no_offer_reason(CUBE, length=1, stake=64, crawford=True) == "one_point_match"
    assert no_offer_reason(CUBE, length=3, stake=64, crawford=True) == "crawford"
