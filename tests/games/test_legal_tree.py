"""``state.legal_tree``, the rest of the turn as stops, so the page can
draft a whole turn before it sends it. Every path through the tree is a complete legal
play (forced-play rules included: R19-R24, H11) and every legal play's result is reached,
in every rule set."""

from __future__ import annotations

import random
from typing import Any

import pytest

import nardy
from games.selectors import legal_tree


def paths(tree: list[Any], stop: int = 0) -> list[list[Any]]:
    steps = tree[stop]["steps"]
    if not steps:
        return [[]]
    return [[step, *rest] for step in steps for rest in paths(tree, step["next"])]


@pytest.mark.parametrize("name", [d.name for d in nardy.descriptors()])
def test_every_path_is_a_legal_play_and_every_play_is_a_path(name: str) -> None:
    rules = nardy.ruleset(name)
    rng = random.Random(23)
    position, side = rules.initial(), nardy.WHITE
    for number in range(40):
        dice = (rng.randint(1, 6), rng.randint(1, 6)) if number % 4 else (rng.randint(1, 6),) * 2
        first = number < 2
        turn = rules.start_turn(position, side, dice, first)
        tree = legal_tree(turn)
        assert [(s["from"], s["to"], s["die"], s["hit"]) for s in tree[0]["steps"]] == [
            (s.src, s.dst, s.die, turn.hits(s)) for s in turn.legal_steps()]
        legal = {p.to_id() for p in rules.legal_positions(position, side, dice, first)}
        reached = set()
        for path in paths(tree):
            state = turn
            for step in path:   # each a legal step where it is played
                assert step["hit"] == state.hits(nardy.Step(step["from"], step["to"], step["die"]))
                state = state.apply(nardy.Step(step["from"], step["to"], step["die"]))
            assert state.is_turn_over()
            assert len(path) == turn.max_dice()
            reached.add(state.position.to_id())
        assert reached == legal or (not turn.legal_steps() and tree[0]["steps"] == [])
        plays = rules.legal_plays(position, side, dice, first)
        if plays and plays[0].steps:
            position = plays[rng.randrange(len(plays))].position
        if rules.outcome(position):
            break
        side = nardy.other(side)
