"""Perft-style fixtures: positions x 21 rolls -> number of distinct legal results.

The data file is written by ``python -m tests.engine.make_perft`` (which checks every
count against the brute-force reference before writing). Here the fast generator is
compared with the file on every entry, and the brute force with both on a sample.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from nardy import Position, TurnState, legal_plays, parse_side

from .bruteforce import reference_for_roll

DATA = Path(__file__).with_name("data") / "perft.json"


@cache
def fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def rolls() -> list[tuple[int, int]]:
    return [(int(r[0]), int(r[2])) for r in fixture()["rolls"]]


def entries() -> list[tuple[Position, int, bool, list[int]]]:
    return [(Position.from_id(e["id"]), parse_side(e["side"]), e["first_turn"], e["counts"])
            for e in fixture()["positions"]]


def test_fixture_shape() -> None:
    data = fixture()
    assert len(rolls()) == 21 and len(set(rolls())) == 21
    assert 250 <= len(data["positions"]) <= 1000
    assert DATA.stat().st_size < 1_000_000
    assert any(e["first_turn"] for e in data["positions"])
    assert {e["side"] for e in data["positions"]} == {"white", "black"}
    assert {e["source"] for e in data["positions"]} == {"game", "spread"}


def test_engine_matches_the_fixture() -> None:
    """Every (position, roll) count in the file equals the fast generator's."""
    mismatches = []
    for position, side, first, counts in entries():
        for dice, expected in zip(rolls(), counts, strict=True):
            got = len(legal_plays(position, side, dice, first))
            if got != expected:
                mismatches.append((position.to_id(), side, first, dice, expected, got))
    assert not mismatches, mismatches[:10]


def sample() -> list[int]:
    """Every 9th position from games, and one of the (slow to brute-force) spread ones."""
    sources = [e["source"] for e in fixture()["positions"]]
    games = [i for i, s in enumerate(sources) if s == "game"]
    return games[::9] + [i for i, s in enumerate(sources) if s == "spread"][-1:]


@pytest.mark.parametrize("index", sample())
def test_brute_force_agrees_on_a_sample(index: int) -> None:
    """The simple reference finds the same results and the same legal first steps (R24)."""
    position, side, first, counts = entries()[index]
    for dice, expected in zip(rolls(), counts, strict=True):
        reference = reference_for_roll(position, side, dice, first)
        plays = legal_plays(position, side, dice, first)
        assert len(reference.results) == expected
        assert {p.position for p in plays} == reference.results
        state = TurnState.start(position, side, dice, first)
        steps = {(s.src, s.dst, s.die) for s in state.legal_steps()}
        assert steps == reference.first_steps, (position.to_id(), dice)
