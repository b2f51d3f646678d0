"""Issue 21 item 1: the registry (``nardy.register``/``unregister``) and the descriptors
as the one source of the rule sets' facts."""

from __future__ import annotations

import dataclasses

import pytest

import nardy
from nardy import descriptor as d
from nardy.hitting import HittingGame
from nardy.hitting.variants import BY_TAG, VARIANTS, Variant, remove_variant
from nardy.record import parse_record, title


def test_every_rule_set_reads_its_descriptor() -> None:
    for name, rules in nardy.RULESETS.items():
        facts = rules.descriptor
        assert facts is d.DESCRIPTORS[name] and nardy.descriptor_of(name) is facts
        assert (rules.name, rules.title, rules.results, rules.opening, rules.later_games) == (
            facts.name, facts.title, facts.result_names, facts.opening, facts.later_games)
        for kind in facts.results:
            assert nardy.RESULT_POINTS[kind.name] == kind.points
    assert nardy.RULESETS["short_nardy"].title == "Short Nardy"
    assert nardy.DEFAULT_RULES == "long_nardy"
    assert nardy.RULESETS[nardy.DEFAULT_RULES].descriptor.head


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
    try:
        assert nardy.register(toy) is toy and nardy.ruleset("toy") is toy
        assert nardy.register(toy) is toy  # again: a no-op
        assert nardy.RESULT_POINTS["whitewash"] == 2
        start = toy.initial()
        assert start.to_id().startswith("TYP-") and toy.position_from_id(start.to_id()) == start
        assert nardy.Outcome(0, 2, "whitewash").mars
    finally:
        nardy.unregister("toy")
    assert "toy" not in nardy.RULESETS and "toy" not in VARIANTS
    assert "whitewash" not in nardy.RESULT_POINTS and "single" in nardy.RESULT_POINTS
    with pytest.raises(KeyError, match="no rule set 'toy'"):
        nardy.unregister("toy")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "backgammon", "tag": "XX"}, "already"),
    ({"tag": "BG"}, "already uses 'BG'"),
    ({"results": (d.SINGLE, d.ResultKind("mars", 3, "Mars", "…"))}, "worth 2 elsewhere"),
])
def test_register_refuses_a_clash(kwargs: dict[str, object], message: str) -> None:
    built: list[HittingGame] = []
    with pytest.raises(ValueError, match=message):
        built.append(_toy(**kwargs))  # type: ignore[arg-type]
        nardy.register(built[0])
    assert set(nardy.RULESETS) == {"long_nardy", "short_nardy", "backgammon", "nard"}
    for game in built:
        remove_variant(game.variant)
    assert "toy" not in VARIANTS and set(BY_TAG) == {"SN", "BG", "NR"}
