"""The pairings of the three systems and the arena's points: pure functions over plain
values (no Django), so that the tests' properties and bench/tournaments.py call them as
the services do. docs/tournaments.md says what they do and why.

The matchings are networkx's ``max_weight_matching`` (the blossom algorithm, BSD):
each candidate pair's weight states the rules as magnitudes, so that the best
matching breaks a lesser rule before a greater one — a rematch before anything else,
then the distance in score, then the colours, then the Dutch order within a score
group (Swiss); a recent opponent, then the distance in score and rating (arena).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import networkx as nx

T = TypeVar("T")

# --- Swiss -------------------------------------------------------------------------------

REMATCH = 10**12
"""A rematch costs more than every other rule together: avoided whenever possible."""
SCORE_GAP = 10**7
"""The squared distance in half-points between the two scores (a float down or up)."""
ABSOLUTE_COLOUR = 10**10
"""Both already have two more of one colour than of the other: one would reach three
(FIDE's absolute colour rule) — after a rematch, before any distance in score."""
COLOUR_CLASH = 10**4
"""Both want the same colour (their balance, else their last colour, leans the same
way)."""
DUTCH_ORDER = 1
"""The distance from the Dutch partner (top half against bottom half of a score group)."""
BASE = 10**14
BLOCK = 32
"""The players matched at once: a score group is cut into blocks of this many, the k-th
slice of its top half with the k-th of its bottom half (so each keeps its Dutch
partner); whoever a block leaves unpaired floats down into the next. The matching's
time grows as the cube of a block, not of the field: a 1,000-player round is ~31
small matchings (bench/tournaments.py); up to 32 players it is the one best matching."""


def _match_blocks(blocks: Iterable[list[T]],
                  weight: Callable[[T, T], int]) -> list[tuple[T, T]]:
    """Each block's maximum-weight matching of the most pairs (networkx's blossom), the
    unpaired carried into the next block; the last block's odd one out stays unpaired."""
    pairs: list[tuple[T, T]] = []
    carried: list[T] = []
    for block in blocks:
        members = carried + block
        if len(members) < 2:
            carried = members
            continue
        graph = nx.Graph()
        graph.add_nodes_from(range(len(members)))
        for i in range(len(members)):
            for j in range(i + 1, len(members)):
                graph.add_edge(i, j, weight=weight(members[i], members[j]))
        matched: set[int] = set()
        for i, j in nx.max_weight_matching(graph, maxcardinality=True):
            i, j = min(i, j), max(i, j)
            pairs.append((members[i], members[j]))
            matched.update((i, j))
        carried = [m for i, m in enumerate(members) if i not in matched]
    return pairs


@dataclass(frozen=True)
class SwissPlayer:
    id: int
    score: float
    rating: float
    colour: int = 0
    """Matches as White minus matches as Black."""
    last_colour: int = 0
    """+1: White last time, -1: Black, 0: not yet played."""
    byes: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class SwissRound:
    pairs: list[tuple[int, int]]
    """``(white, black)`` ids."""
    bye: int | None


def ranked(players: Iterable[SwissPlayer]) -> list[SwissPlayer]:
    """By score, then rating (the seed), then id: the order of the standings' pairing."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


def bye_for(order: Sequence[SwissPlayer]) -> SwissPlayer:
    """The bye of an odd round: the lowest-ranked of those with the fewest byes (so no one
    has a second before everyone has had one)."""
    fewest = min(p.byes for p in order)
    return next(p for p in reversed(order) if p.byes == fewest)


def _wants(p: SwissPlayer) -> int:
    """+1: wants White, -1: wants Black, 0: either."""
    if p.colour:
        return -1 if p.colour > 0 else 1
    return -p.last_colour


def _weight(a: SwissPlayer, b: SwissPlayer, dutch_gap: int) -> int:
    weight = BASE
    if b.id in a.opponents:
        weight -= REMATCH
    gap = round(abs(a.score - b.score) * 2)
    weight -= SCORE_GAP * gap * gap
    if _wants(a) and _wants(a) == _wants(b):
        weight -= COLOUR_CLASH * (abs(a.colour) + abs(b.colour) + 1)
        if min(abs(a.colour), abs(b.colour)) >= 2:
            weight -= ABSOLUTE_COLOUR
    return weight - DUTCH_ORDER * min(dutch_gap, COLOUR_CLASH - 1)


def colours(a: SwissPlayer, b: SwissPlayer, higher_first: bool) -> tuple[int, int]:
    """White and Black of a pair: the one whose balance (then last colour) asks for White;
    otherwise the higher-ranked ``a`` takes White when ``higher_first``."""
    if _wants(a) != _wants(b):
        return (a.id, b.id) if _wants(a) > _wants(b) else (b.id, a.id)
    if _wants(a) and abs(a.colour) != abs(b.colour):  # the stronger need is met
        stronger = a if abs(a.colour) > abs(b.colour) else b
        weaker = b if stronger is a else a
        return (stronger.id, weaker.id) if _wants(a) > 0 else (weaker.id, stronger.id)
    if _wants(a):
        return (a.id, b.id) if _wants(a) > 0 else (b.id, a.id)  # the higher-ranked's wish
    return (a.id, b.id) if higher_first else (b.id, a.id)


BYE_TRIES = 5
"""How many of those who may have the bye (the fewest byes, lowest first) are tried
before a rematch is accepted: the bye goes to the lowest of them whose absence lets
the rest be paired without one."""


def swiss_round(players: Sequence[SwissPlayer], round_number: int) -> SwissRound:
    """A round of the Dutch-like system of docs/tournaments.md: a bye for an odd number
    (:func:`bye_for`, the next one up when that avoids a rematch), then the
    maximum-weight perfect matching of the rest."""
    order = ranked(players)
    if not len(order) % 2:
        return _pair_round(order, None, round_number)
    fewest = bye_for(order).byes
    eligible = [p for p in reversed(order) if p.byes == fewest][:BYE_TRIES]
    first = None
    for bye in eligible:
        made = _pair_round(order, bye, round_number)
        first = first or made
        if not any(b in known for w, b in made.pairs
                   for known in [next(p.opponents for p in order if p.id == w)]):
            return made
    assert first is not None
    return first


def _pair_round(order: list[SwissPlayer], bye: SwissPlayer | None,
                round_number: int) -> SwissRound:
    if bye is not None:
        order = [p for p in order if p.id != bye.id]
    index = {p.id: i for i, p in enumerate(order)}
    # Each player's place in its score group and the group's size: the Dutch partner of
    # the k-th of the top half is the k-th of the bottom half.
    groups: dict[float, list[SwissPlayer]] = {}
    for p in order:
        groups.setdefault(p.score, []).append(p)
    place = {p.id: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}

    def dutch_gap(a: SwissPlayer, b: SwissPlayer) -> int:
        if a.score != b.score:
            return 0
        (i, size), (j, _) = place[a.id], place[b.id]
        half = size // 2
        return abs(abs(i - j) - half)

    pieces: list[list[SwissPlayer]] = []
    for group in groups.values():
        half, m = len(group) // 2, BLOCK // 2
        top, bottom = group[:half], group[half:]
        if not half:
            pieces.append(group)
        for k in range(0, half, m):
            last = k + m >= half  # the bottom half's odd one joins the last slice
            pieces.append(top[k:k + m] + (bottom[k:] if last else bottom[k:k + m]))
    blocks: list[list[SwissPlayer]] = []  # small score groups together, up to BLOCK
    for piece in pieces:
        if blocks and len(blocks[-1]) + len(piece) <= BLOCK:
            blocks[-1] = blocks[-1] + piece
        else:
            blocks.append(piece)
    pairs = []
    for a, b in _match_blocks(blocks, lambda a, b: _weight(a, b, dutch_gap(a, b))):
        if index[a.id] > index[b.id]:
            a, b = b, a
        pairs.append(colours(a, b, higher_first=(round_number + index[a.id]) % 2 == 1))
    pairs.sort(key=lambda pair: min(index[pair[0]], index[pair[1]]))
    return SwissRound(pairs, bye.id if bye is not None else None)


def buchholz(opponents: Sequence[int], scores: Mapping[int, float]) -> float:
    """The sum of the opponents' scores (each match once; a bye adds nothing)."""
    return sum(scores.get(o, 0.0) for o in opponents)


def sonneborn_berger(beaten: Sequence[int], scores: Mapping[int, float]) -> float:
    """The sum of the scores of the opponents beaten (a match has no draw)."""
    return sum(scores.get(o, 0.0) for o in beaten)


# --- arena -------------------------------------------------------------------------------

LAST_OPPONENT = 10**9
"""Never the opponent just played, while anyone else waits."""
RECENT_OPPONENT = 10**6
"""Nor one of the last :data:`RECENT` opponents."""
RECENT = 3
RANK_GAP = 10**3
"""Per place apart in the standings…"""
RATING_GAP = 1
"""…then per rating point apart."""
ARENA_BLOCK = 16
"""The waiting players matched at once (in standings order; see :data:`BLOCK`)."""


@dataclass(frozen=True)
class ArenaPlayer:
    id: int
    score: float
    rating: float
    recent: tuple[int, ...] = ()
    """The last opponents, most recent first."""


def arena_pairs(waiting: Sequence[ArenaPlayer]) -> list[tuple[int, int]]:
    """Pair as many of the waiting players as possible (an odd one waits for the next
    match to end): close in the standings and in rating, never the last opponent while
    another is there. White: the first of the pair as the matching gives it; the
    services alternate colours by the players' balance."""
    if len(waiting) < 2:
        return []
    order = sorted(waiting, key=lambda p: (-p.score, -p.rating, p.id))
    place = {p.id: i for i, p in enumerate(order)}

    def weight(a: ArenaPlayer, b: ArenaPlayer) -> int:
        value = (BASE - RANK_GAP * abs(place[a.id] - place[b.id])
                 - RATING_GAP * round(abs(a.rating - b.rating)))
        if a.recent[:1] == (b.id,) or b.recent[:1] == (a.id,):
            value -= LAST_OPPONENT
        elif b.id in a.recent[:RECENT] or a.id in b.recent[:RECENT]:
            value -= RECENT_OPPONENT
        return value

    blocks = [order[i:i + ARENA_BLOCK] for i in range(0, len(order), ARENA_BLOCK)]
    return sorted((min(a.id, b.id), max(a.id, b.id))
                  for a, b in _match_blocks(blocks, weight))


WIN = 2
"""Points for a match won (a loss: 0)…"""
STREAK_AFTER = 2
"""…doubled once a player has won this many in a row before it (the arena's streak)."""


def arena_points(*, won: bool, worth: int, streak_before: int) -> int:
    """An arena match's points, as PlayStrategy scores its backgammon arenas: a win 2, a
    win whose deciding game was a mars or gammon (worth 2) 3, a backgammon (worth 3) 4;
    doubled on a streak (:data:`STREAK_AFTER` wins in a row before it)."""
    if not won:
        return 0
    points = WIN + max(worth, 1) - 1
    return points * 2 if streak_before >= STREAK_AFTER else points


# --- knock-out ---------------------------------------------------------------------------


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return max(size, 2)


def seed_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order: 1 meets ``size``, 2 meets ``size - 1``, and
    the top seeds meet as late as possible (1 and 2 only in the final)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def knockout_first_round(seeded: Sequence[int]) -> list[tuple[int, int | None]]:
    """The first round of a bracket of ``seeded`` ids (best first): each slot's pair in
    bracket order, ``None`` a bye — the byes go to the top seeds."""
    order = seed_order(bracket_size(len(seeded)))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in order]
    pairs: list[tuple[int, int | None]] = []
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        assert a is not None or b is not None
        pairs.append((a, b) if a is not None else (b, a))  # type: ignore[arg-type]
    return pairs
