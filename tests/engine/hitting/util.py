"""Helpers to write hitting-game positions the way the rules speak of them."""

from __future__ import annotations

from collections.abc import Mapping

from nardy import RULESETS, HitPosition, HitTurn, Side, Step


def board(rules: str, side: Side, mine: Mapping[int, int],
          theirs: Mapping[int, int] | None = None, bar_mine: int = 0, bar_theirs: int = 0,
          ) -> HitPosition:
    """A position for ``side`` to move: ``mine`` maps ``side``'s own points to counts,
    ``theirs`` maps the OPPONENT's own points to its counts (H1: its ``q`` is our
    ``25 - q``); what is missing from 15 (board + bar) is borne off."""
    theirs = theirs or {}
    counts = dict(mine)
    for q, n in theirs.items():
        p = 25 - q
        assert p not in counts, f"point {p} given for both sides"
        counts[p] = -n
    off_mine = 15 - sum(mine.values()) - bar_mine
    off_theirs = 15 - sum(theirs.values()) - bar_theirs
    return HitPosition.from_perspective(rules, side, counts, off_mine, off_theirs, bar_mine,
                                        bar_theirs)


def turn(position: HitPosition, side: Side, dice: tuple[int, int]) -> HitTurn:
    state = RULESETS[position.rules].start_turn(position, side, dice, False)
    assert isinstance(state, HitTurn)
    return state


def texts(state: HitTurn) -> list[str]:
    return [str(s) for s in state.legal_steps()]


def plays(position: HitPosition, side: Side, dice: tuple[int, int]) -> list[str]:
    """The legal plays as sorted text, hit marks included."""
    return sorted(str(p) for p in RULESETS[position.rules].legal_plays(position, side, dice,
                                                                        False))


def step(text: str) -> Step:
    return Step.parse(text)
