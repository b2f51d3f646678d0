"""Backgammon's levels and cube decisions through the field engine (computer.field,
computer.levels), and the fallback to the project's own network where the engine cannot
be imported."""

from __future__ import annotations

import random
import sys

import pytest

import computer
from computer import field
from computer.levels import (
    FIELD_SEARCH,
    FIELD_TEXTS,
    FIELD_VALUED,
    LEVELS,
    OWN_HEURISTIC,
    OWN_NETWORK,
    RANDOM,
    chooser,
    engine_of,
    engines_for,
    levels_for,
    through_field,
)
from computer.score import WINS_ONLY, Objective
from computer.stakes import Situation
from nardy import BACKGAMMON_RULES, BLACK, RULESETS, WHITE, HitPosition

from .util import sample_positions

needs_engine = pytest.mark.skipif(not field.available(),
                                  reason="the field engine is not installed")


@pytest.fixture
def no_field_engine(monkeypatch):
    """The field engine's import fails (as on a platform without its wheel)."""
    field._engine.cache_clear()
    monkeypatch.setitem(sys.modules, "bgsage", None)
    monkeypatch.setitem(sys.modules, "bgsage.analyzer", None)
    monkeypatch.setitem(sys.modules, "bgsage.weights", None)
    yield
    field._engine.cache_clear()


def _race(white: dict[int, int], black: dict[int, int], off=(0, 0)) -> HitPosition:
    """A position from each side's own points (counts positive)."""
    points = [0] * 24
    for p, n in white.items():
        points[p - 1] += n
    for q, n in black.items():
        points[24 - q] -= n  # Black's own point q is White's 25 - q (H1)
    return HitPosition("backgammon", tuple(points), (0, 0), off)


START = BACKGAMMON_RULES.initial()
# White to roll with 3 checkers left (6 pips), Black 3 (17 pips), 12 off each: White
# wins unless it fails to finish in two rolls and Black rolls a big double: a pass.
CLEAR_PASS = _race({1: 1, 2: 1, 3: 1}, {6: 2, 5: 1}, off=(12, 12))
# A race without contact, White to roll 99 pips against 109 (10 % ahead, 76 %): the
# text-book double and take.
CLEAR_TAKE = _race({6: 4, 5: 3, 4: 2, 8: 3, 9: 2, 10: 1}, {6: 3, 5: 3, 4: 2, 8: 3, 9: 2, 13: 2})
# The same race 99 to 103 (66 %): not yet a double for money.
SMALL_LEAD = _race({6: 4, 5: 3, 4: 2, 8: 3, 9: 2, 10: 1}, {6: 3, 5: 3, 4: 2, 8: 3, 9: 2, 10: 2})


# -- the levels -----------------------------------------------------------------------


@needs_engine
def test_backgammons_learned_levels_and_world_class_play_through_the_field_engine():
    assert list(levels_for("backgammon")) == ["random", "heuristic", "network", "strong",
                                              "expert", "world-class"]
    engines = engines_for("backgammon")
    label = field.engine_label()
    assert label is not None and label.startswith("Open Sage ")
    assert engines == {"random": RANDOM, "heuristic": OWN_HEURISTIC, "network": label,
                       "strong": label, "expert": label, "world-class": label}
    for level in FIELD_SEARCH:
        assert levels_for("backgammon")[level] == FIELD_TEXTS[level]
    # Deeper or wider with each level.
    searches = [FIELD_SEARCH[level] for level in ("network", "strong", "expert", "world-class")]
    assert [s.plies for s in searches] == [0, 1, 2, 2]
    assert searches[3].keep > searches[2].keep and searches[3].margin > searches[2].margin


@pytest.mark.parametrize("rules", [r for r in RULESETS if r != "backgammon"])
def test_the_other_rule_sets_have_no_world_class_nor_the_engines_search(rules):
    levels = levels_for(rules)
    assert "world-class" not in levels
    assert not any(through_field(rules, level) for level in LEVELS)


@pytest.mark.parametrize("rules", [r for r in RULESETS if r not in ("backgammon", *FIELD_VALUED)])
def test_the_other_rule_sets_keep_their_own_engines_and_have_no_world_class(rules):
    levels = levels_for(rules)
    assert "world-class" not in levels
    assert all(engine_of(rules, level) in (OWN_NETWORK, OWN_HEURISTIC, RANDOM)
               for level in levels)
    assert not any(through_field(rules, level) for level in LEVELS)


@needs_engine
@pytest.mark.parametrize("level", ["network", "strong", "world-class"])
def test_the_field_levels_play_legal_turns(level):
    for position, side, dice, first in sample_positions("backgammon", 6, seed=21):
        steps = computer.choose_play("backgammon", level, position, side, dice, first)
        turn = BACKGAMMON_RULES.start_turn(position, side, dice, first).apply_all(steps)
        assert turn.is_turn_over()


@needs_engine
def test_the_field_level_chooses_the_field_engines_best_play():
    position, side, dice, first = sample_positions("backgammon", 3, seed=5)[2]
    plays = BACKGAMMON_RULES.legal_plays(position, side, dice, first)
    search = FIELD_SEARCH["expert"]
    best = field.best_play(position, side, plays, search.plies, keep=search.keep,
                           margin=search.margin)
    assert chooser("backgammon", "expert")(position, plays, side) == best
    assert computer.choose_play("backgammon", "expert", position, side, dice,
                                first) == plays[best].steps


@needs_engine
def test_a_turn_in_progress_is_finished_by_the_field_engine():
    turn = BACKGAMMON_RULES.start_turn(START, WHITE, (3, 1), True).apply_all("8/5")
    steps = computer.choose_for_turn("backgammon", "strong", turn)
    assert turn.apply_all(steps).is_turn_over()


# -- the fallback ---------------------------------------------------------------------


def test_without_the_field_engine_the_own_network_plays_and_the_list_says_so(
        no_field_engine):
    assert not field.available()
    assert field.engine_label() is None
    levels = levels_for("backgammon")
    assert list(levels) == ["random", "heuristic", "network", "strong", "expert",
                            "world-class"]
    assert levels["expert"] == LEVELS["expert"]
    assert "not installed" in levels["world-class"]
    assert engines_for("backgammon") == {
        "random": RANDOM, "heuristic": OWN_HEURISTIC, "network": OWN_NETWORK,
        "strong": OWN_NETWORK, "expert": OWN_NETWORK, "world-class": OWN_NETWORK}
    with pytest.raises(field.FieldEngineMissingError):
        field.post_move_probabilities(START, WHITE)
    # The levels still play, with the own network (world-class as expert).
    position, side, dice, first = sample_positions("backgammon", 2, seed=9)[1]
    for level in ("network", "world-class"):
        steps = computer.choose_play("backgammon", level, position, side, dice, first,
                                     random.Random(1))
        turn = BACKGAMMON_RULES.start_turn(position, side, dice, first).apply_all(steps)
        assert turn.is_turn_over()
    assert computer.stake_decision("backgammon", "network", CLEAR_PASS, WHITE,
                                   question="offer", stake=1, next_stake=2) in (True, False)


def test_the_fallback_is_undone_with_the_import(no_field_engine):
    """The fixture's failing import is the only thing that made it unavailable."""
    assert not field.available()
    del sys.modules["bgsage"], sys.modules["bgsage.analyzer"], sys.modules["bgsage.weights"]
    field._engine.cache_clear()
    assert field.available() == (_importable("bgsage"))


def _importable(name: str) -> bool:
    import importlib.util  # only to ask whether the package is installed at all

    return importlib.util.find_spec(name) is not None


# -- the cube -------------------------------------------------------------------------


def _offer(position, level="expert", **kwargs):
    return computer.stake_decision("backgammon", level, position, WHITE, question="offer",
                                   stake=1, next_stake=2, **kwargs)


def _accept(position, level="expert"):
    # Black answers White's offer (White about to roll).
    return computer.stake_decision("backgammon", level, position, BLACK, question="accept",
                                   stake=1, next_stake=2)


@needs_engine
@pytest.mark.parametrize("level", ["network", "strong", "expert", "world-class"])
def test_a_clear_pass_a_clear_take_and_a_clear_no_double(level):
    assert _offer(CLEAR_PASS, level) and not _accept(CLEAR_PASS, level)
    assert _offer(CLEAR_TAKE, level) and _accept(CLEAR_TAKE, level)
    assert not _offer(START, level)
    action = field.cube_action(CLEAR_TAKE, WHITE, plies=FIELD_SEARCH[level].plies)
    assert action.double and action.take
    assert action.no_double < action.double_take < action.double_pass == pytest.approx(1.0)


@needs_engine
def test_the_cube_decision_reads_the_match_score():
    assert not _offer(SMALL_LEAD)  # money: too early
    assert _offer(CLEAR_TAKE)  # money: a double
    # White 2 points from winning a 5-point match, Black 4: doubling would hand Black a
    # cube to win the match with; White plays on (the match equity table decides).
    leading = Situation(stakes="cube", progression="geometric", length=5, own=3,
                        opponent=1, stake=1)
    assert not computer.match_stake_decision("backgammon", "expert", CLEAR_TAKE, WHITE,
                                             leading, question="offer")
    # The same score the other way round and the race equal: the 5-away trailer doubles
    # at once after the Crawford game (the leader needs 1: the cube costs it nothing).
    post_crawford = Situation(stakes="cube", progression="geometric", length=5, own=0,
                              opponent=4, stake=1, after_crawford=True)
    assert not _offer(SMALL_LEAD)
    assert computer.match_stake_decision("backgammon", "expert", SMALL_LEAD, WHITE,
                                         post_crawford, question="offer")
    answer = Situation(stakes="cube", progression="geometric", length=5, own=4,
                       opponent=0, stake=1, offered=2, after_crawford=True)
    assert computer.match_stake_decision("backgammon", "expert", SMALL_LEAD, BLACK,
                                         answer, question="accept")
    # A 1-point match: a win takes the match, the cube is dead — never offered.
    one = Situation(stakes="cube", progression="geometric", length=1, own=0, opponent=0,
                    stake=1)
    assert not computer.match_stake_decision("backgammon", "expert", CLEAR_PASS, WHITE,
                                             one, question="offer")


@needs_engine
def test_the_cube_holder_and_a_raise_other_than_the_cubes():
    # Redoubling 2 -> 4 (White holds the cube): still a pass for Black.
    assert computer.stake_decision("backgammon", "expert", CLEAR_PASS, WHITE,
                                   question="offer", stake=2, next_stake=4)
    assert not computer.stake_decision("backgammon", "expert", CLEAR_PASS, BLACK,
                                       question="accept", stake=2, next_stake=4)
    # dave stakes (no marses, S6), arithmetic 1 -> 2 -> 3: the project's rule over the
    # field engine's estimates.
    assert computer.stake_decision("backgammon", "expert", CLEAR_PASS, WHITE,
                                   question="offer", stake=2, next_stake=3, mars=False)
    assert not computer.stake_decision("backgammon", "expert", START, WHITE,
                                       question="offer", stake=1, next_stake=2, mars=False)


@needs_engine
def test_choose_play_plays_to_the_situation_through_the_field_engine():
    one_point = Situation(stakes="none", progression="geometric", length=1, own=0,
                          opponent=0, stake=1)
    alone = chooser("backgammon", "network", objective=Objective.for_side(WHITE, WINS_ONLY))
    money = chooser("backgammon", "network")
    for position, side, dice, first in sample_positions("backgammon", 400, seed=3):
        plays = BACKGAMMON_RULES.legal_plays(position, side, dice, first)
        if side != WHITE or len(plays) < 2:
            continue
        if alone(position, plays, side) != money(position, plays, side):
            break
    else:
        raise AssertionError("no decision where the win alone and money differ")
    assert computer.choose_play("backgammon", "network", position, side, dice, first,
                                situation=one_point) == plays[alone(position, plays, side)].steps
    assert computer.choose_play("backgammon", "network", position, side, dice,
                                first) == plays[money(position, plays, side)].steps
