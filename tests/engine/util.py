"""Small helpers to write engine positions the way the rules speak of them."""

from __future__ import annotations

from collections.abc import Mapping

from nardy import Position, Side, TurnState, opp


def board(side: Side, mine: Mapping[int, int], theirs: Mapping[int, int] | None = None,
          ) -> Position:
    """A position for ``side`` to move: ``mine`` maps ``side``'s point numbers to counts,
    ``theirs`` maps the OPPONENT's own point numbers to its counts (so ``{24: 15}`` is
    the opponent's head); whatever is missing from 15 is borne off."""
    theirs = theirs or {}
    counts = dict(mine)
    for q, n in theirs.items():
        p = opp(q)
        assert p not in counts, f"point {p} given for both sides"
        counts[p] = -n
    return Position.from_perspective(side, counts, 15 - sum(mine.values()),
                                     15 - sum(theirs.values()))


def turn(position: Position, side: Side, dice: tuple[int, int],
         first_turn: bool = False) -> TurnState:
    return TurnState.start(position, side, dice, first_turn)


def texts(state: TurnState) -> list[str]:
    return [str(s) for s in state.legal_steps()]


__all__ = ["board", "texts", "turn"]
