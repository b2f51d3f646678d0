"""The pairings' properties, by Hypothesis over whole simulated Swiss tournaments and
arenas: every player paired once a round, no rematch while one can be avoided, colours
balanced, byes fair; the knock-out's bracket and the arena's points."""

from __future__ import annotations

import itertools

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    ArenaPlayer,
    SwissPlayer,
    arena_pairs,
    arena_points,
    knockout_first_round,
    seed_order,
    swiss_round,
)


def avoidable(players: list[SwissPlayer], bye: int | None) -> bool:
    """Whether the players but ``bye`` can all be paired without a rematch."""
    rest = [p for p in players if p.id != bye]
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in rest)
    graph.add_edges_from((a.id, b.id) for a, b in itertools.combinations(rest, 2)
                         if b.id not in a.opponents)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(rest)


def play(players: list[SwissPlayer], rounds: int, results: list[bool]):
    """Run a Swiss of ``rounds``; ``results[k]``: whether White wins the k-th match."""
    outcomes = iter(results * 100)
    history = []
    for number in range(1, rounds + 1):
        made = swiss_round(players, number)
        history.append((list(players), made))
        by_id = {p.id: p for p in players}
        new = {}
        if made.bye is not None:
            p = by_id[made.bye]
            new[p.id] = SwissPlayer(p.id, p.score + 1, p.rating, p.colour, p.last_colour,
                                    p.byes + 1, p.opponents)
        for white, black in made.pairs:
            white_wins = next(outcomes)
            for me, other, colour in ((white, black, 1), (black, white, -1)):
                p = by_id[me]
                won = white_wins == (colour == 1)
                new[me] = SwissPlayer(me, p.score + won, p.rating, p.colour + colour, colour,
                                      p.byes, p.opponents | {other})
        players = [new[p.id] for p in players]
    return players, history


swiss_fields = st.tuples(
    st.lists(st.integers(1000, 2200), min_size=2, max_size=17),
    st.integers(1, 7),
    st.lists(st.booleans(), min_size=1, max_size=40))


@settings(max_examples=100, deadline=None)
@given(swiss_fields)
def test_swiss_pairs_everyone_once_without_avoidable_rematches(fields):
    ratings, rounds, results = fields
    players = [SwissPlayer(i, 0.0, float(r)) for i, r in enumerate(ratings)]
    _, history = play(players, min(rounds, len(players) - 1), results)
    for before, made in history:
        ids = [x for pair in made.pairs for x in pair] + (
            [made.bye] if made.bye is not None else [])
        assert sorted(ids) == sorted(p.id for p in before)  # each once
        assert (made.bye is not None) == (len(before) % 2 == 1)
        rematches = [pair for pair in made.pairs
                     if pair[1] in next(p.opponents for p in before if p.id == pair[0])]
        if rematches:
            # only when no perfect pairing of the others avoids one
            assert not avoidable(before, made.bye)


@settings(max_examples=100, deadline=None)
@given(swiss_fields)
def test_swiss_byes_are_fair_and_colours_balanced(fields):
    ratings, rounds, results = fields
    players = [SwissPlayer(i, 0.0, float(r)) for i, r in enumerate(ratings)]
    rounds = min(rounds, len(players) - 1)
    final, _ = play(players, rounds, results)
    byes = [p.byes for p in final]
    assert max(byes) - min(byes) <= 1  # no second bye while someone has had none
    for p in final:
        assert abs(p.colour) <= 2  # White and Black alternate: never more than 2 apart


@given(st.integers(2, 64))
def test_the_bracket_gives_the_byes_to_the_top_seeds(n):
    seeded = list(range(100, 100 + n))
    pairs = knockout_first_round(seeded)
    size = len(pairs) * 2
    assert n <= size < 2 * n
    assert sorted(x for pair in pairs for x in pair if x is not None) == seeded
    byes = sorted(a for a, b in pairs if b is None)
    assert byes == seeded[:size - n]
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert order[0] == 1 and (size < 2 or order[size // 2] == 2)  # 1 and 2 meet in the final


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1200, 2000)), min_size=2,
                max_size=16), st.data())
def test_arena_pairs_as_many_as_possible_and_not_the_last_opponent(rows, data):
    ids = list(range(len(rows)))
    last = {i: data.draw(st.sampled_from(ids)) for i in ids}
    players = [ArenaPlayer(i, float(score), float(rating),
                           (last[i],) if last[i] != i else ())
               for i, (score, rating) in enumerate(rows)]
    pairs = arena_pairs(players)
    flat = [x for pair in pairs for x in pair]
    assert len(flat) == len(set(flat)) == len(players) - len(players) % 2
    # never the opponent just played while a pairing of as many without one exists
    graph = nx.Graph()
    graph.add_edges_from((a, b) for a, b in itertools.combinations(ids, 2)
                         if last[a] != b and last[b] != a)
    if len(nx.max_weight_matching(graph, maxcardinality=True)) == len(pairs):
        assert not [(a, b) for a, b in pairs if last[a] == b or last[b] == a]


def test_arena_points():
    assert arena_points(won=False, worth=2, streak_before=5) == 0
    assert arena_points(won=True, worth=1, streak_before=0) == 2
    assert arena_points(won=True, worth=2, streak_before=1) == 3
    assert arena_points(won=True, worth=3, streak_before=0) == 4
    assert arena_points(won=True, worth=1, streak_before=2) == 4
