"""The registry (``nardy.register``/``unregister``), the only writer of the tables that
know the rule sets, and the descriptors as the one source of the rule sets' facts."""

from __future__ import annotations

import dataclasses

import pytest

import nardy
from nardy import descriptor as d
from nardy.hitting import HittingGame
from nardy.hitting.variants import BY_TAG, VARIANTS, Variant
from nardy.record import parse_record, title


def test_every_rule_set_reads_its_descriptor() -> None:
    assert nardy.descriptors() == (d.LONG_NARDY, d.SHORT_NARDY, d.BACKGAMMON, d.NARD)
    for name, rules in nardy.RULESETS.items():
        facts = rules.descriptor
        assert facts.name == name and nardy.descriptor_of(name) is facts
        assert (rules.name, rules.title, rules.results, rules.opening, rules.later_games) == (
            facts.name, facts.title, facts.result_names, facts.opening, facts.later_games)
        for kind in facts.results:
            assert nardy.RESULT_POINTS[kind.name] == kind.points
    assert nardy.RULESETS["short_nardy"].title == "Short Nardy"
    assert nardy.DEFAULT_RULES == "long_nardy"
    assert nardy.RULESETS[nardy.DEFAULT_RULES].descriptor.head


def test_a_rule_set_cannot_disagree_with_its_descriptor() -> None:
    """Name, title, results, opening and later games are read from the descriptor, not
    stated again: they follow it and cannot be set apart from it."""
    for rules in nardy.RULESETS.values():
        assert isinstance(rules, nardy.DescribedRuleSet)
        with pytest.raises(AttributeError):
            rules.title = "Another title"  # type: ignore[misc]
    toy = _toy(name="toy", tag="TY")
    assert (toy.name, toy.title, toy.results, toy.opening) == (
        "toy", "Toy", ("single",), d.BACKGAMMON.opening)


def test_record_titles_are_the_descriptors_and_old_spellings_still_read() -> None:
    assert title("short_nardy") == "Short Nardy match record"
    old = parse_record("Short nardy match record\nWhite: a\nBlack: b\nLength: 1\n")
    assert old.header("length") is not None


def _toy(name: str = "toy", tag: str = "TY", results: tuple[d.ResultKind, ...] = (d.SINGLE,),
         ) -> HittingGame:
    facts = dataclasses.replace(d.BACKGAMMON, name=name, title=name.title(), tag=tag,
                                results=results)
    return HittingGame(Variant(facts, no_hit_and_hide=False))


def test_register_and_unregister_a_rule_set_at_run_time() -> None:
    toy = _toy(results=(d.SINGLE, d.ResultKind("whitewash", 2, "Whitewash", "…")))
    # Building a rule set writes no table: registering it does.
    assert "toy" not in VARIANTS and "TY" not in BY_TAG and "whitewash" not in nardy.RESULT_POINTS
    with pytest.raises(ValueError, match="no hitting game 'toy'"):
        toy.initial()
    try:
        assert nardy.register(toy) is toy and nardy.ruleset("toy") is toy
        assert nardy.register(toy) is toy  # again: a no-op
        assert VARIANTS["toy"] is toy.variant and BY_TAG["TY"] is toy.variant
        assert nardy.RESULT_POINTS["whitewash"] == 2
        start = toy.initial()
        assert start.to_id().startswith("TYP-") and toy.position_from_id(start.to_id()) == start
        assert nardy.Outcome(0, 2, "whitewash").mars
    finally:
        nardy.unregister("toy")
    assert "toy" not in nardy.RULESETS and "toy" not in VARIANTS and "TY" not in BY_TAG
    assert "whitewash" not in nardy.RESULT_POINTS and "single" in nardy.RESULT_POINTS
    with pytest.raises(KeyError, match="no rule set 'toy'"):
        nardy.unregister("toy")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "backgammon", "tag": "XX"}, "already"),
    ({"tag": "BG"}, "the tag 'BG' is backgammon's"),
    ({"results": (d.SINGLE, d.ResultKind("mars", 3, "Mars", "…"))}, "worth 2 elsewhere"),
])
def test_register_refuses_a_clash(kwargs: dict[str, object], message: str) -> None:
    toy = _toy(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        nardy.register(toy)
    assert set(nardy.RULESETS) == {"long_nardy", "short_nardy", "backgammon", "nard"}
    assert set(VARIANTS) == {"short_nardy", "backgammon", "nard"}
    assert set(BY_TAG) == {"SN", "BG", "NR"}
    assert BY_TAG["BG"] is VARIANTS["backgammon"] is nardy.BACKGAMMON_RULES.variant


def test_a_hitting_game_tag_is_two_letters() -> None:
    with pytest.raises(ValueError, match="two letters"):
        _toy(tag="T")
