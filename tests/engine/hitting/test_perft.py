"""Perft fixtures of the hitting games: positions x 21 rolls -> distinct legal results.

The data files are written by ``python -m tests.engine.hitting.make_perft`` (which
checks the counts against the brute-force reference before writing). Here the fast
generator is compared with the files on every entry, and the brute force with both,
results and first steps, on a sample.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from nardy import RULESETS, HitPosition, parse_side

from .bruteforce import reference_for_roll
from .make_perft import RULES, path_for


@cache
def fixture(rules: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path_for(rules).read_text())
    return data


def rolls(rules: str) -> list[tuple[int, int]]:
    return [(int(r[0]), int(r[2])) for r in fixture(rules)["rolls"]]


def entries(rules: str) -> list[tuple[HitPosition, int, list[int]]]:
    return [(HitPosition.from_id(e["id"]), parse_side(e["side"]), e["counts"])
            for e in fixture(rules)["positions"]]


@pytest.mark.parametrize("rules", RULES)
def test_fixture_shape(rules: str) -> None:
    data = fixture(rules)
    assert len(set(rolls(rules))) == 21
    assert 200 <= len(data["positions"]) <= 1000
    assert {e["side"] for e in data["positions"]} == {"white", "black"}
    kinds = {e["kind"] for e in data["positions"]}
    assert "bar" in kinds and (rules == "nard" or "bear_off" in kinds)
    assert all(HitPosition.from_id(e["id"]).rules == rules for e in data["positions"])


@pytest.mark.parametrize("rules", RULES)
def test_engine_matches_the_fixture(rules: str) -> None:
    ruleset = RULESETS[rules]
    mismatches = []
    for position, side, counts in entries(rules):
        for dice, expected in zip(rolls(rules), counts, strict=True):
            got = len(ruleset.legal_plays(position, side, dice, False))
            if got != expected:
                mismatches.append((position.to_id(), side, dice, expected, got))
    assert not mismatches, mismatches[:10]


def sample() -> list[tuple[str, int]]:
    return [(rules, i) for rules in RULES for i in range(0, len(entries(rules)), 23)]


@pytest.mark.parametrize(("rules", "index"), sample())
def test_brute_force_agrees_on_a_sample(rules: str, index: int) -> None:
    position, side, counts = entries(rules)[index]
    ruleset = RULESETS[rules]
    for dice, expected in zip(rolls(rules), counts, strict=True):
        if dice[0] == dice[1] and expected > 150:
            continue  # slow for the brute force; checked when the file was written
        reference = reference_for_roll(position, side, dice)
        assert len(reference.results) == expected
        assert {p.position for p in ruleset.legal_plays(position, side, dice, False)} == (
            reference.results)
        state = ruleset.start_turn(position, side, dice, False)
        assert {(s.src, s.dst, s.die) for s in state.legal_steps()} == reference.first_steps
