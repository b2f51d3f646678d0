"""Small helpers to write engine positions the way the rules speak of them."""

from __future__ import annotations

from collections.abc import Mapping

from games.engine import Position, Side, TurnState, opp, other


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


def results(plays: list) -> set[tuple[tuple[int, int], ...]]:  # type: ignore[type-arg]
    """The set of resulting boards of plays, as sorted (point, count) items from White."""
    return {tuple(sorted(p.position.in_perspective(0).items())) for p in plays}


def view(position: Position, side: Side) -> dict[int, int]:
    return position.in_perspective(side)


__all__ = ["board", "other", "results", "texts", "turn", "view"]
