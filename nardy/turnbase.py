"""What every rule set's turn state shares: the dice, the step-by-step contract
(``apply``/``resolve`` checked in one order) and the forced-play diagnosis.

A turn state (Long Nardy's :class:`~nardy.longnardy.TurnState`, the hitting
games' :class:`~nardy.hitting.turn.HitTurn`) is a frozen dataclass with
``position``, ``side``, ``dice`` and ``dice_left`` that mixes in :class:`TurnBase` and
supplies the rule-set hooks: its forced-play search result, how it plays one step,
why a step is refused, and the few texts that name its own rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any, ClassVar, Protocol, Self

from .errors import IllegalMoveError
from .forced import Search
from .moves import AskedStep, Step, parse_play
from .outcome import Outcome


def check_dice(dice: object) -> tuple[int, int]:
    """``dice`` as a pair of ints 1..6. Raises ``ValueError``."""
    if (not isinstance(dice, tuple | list) or len(dice) != 2
            or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6
                   for d in dice)):
        raise ValueError(f"dice must be two ints 1..6, not {dice!r}")
    return (dice[0], dice[1])


def dice_to_play(dice: tuple[int, int]) -> tuple[int, ...]:
    """R9/H6: four of a double, else the two dice high to low."""
    a, b = dice
    return (a,) * 4 if a == b else ((a, b) if a > b else (b, a))


def check_dice_left(dice: object, dice_left: object) -> None:
    """``dice`` is a tuple roll and ``dice_left`` a high-to-low part of what it plays.
    Raises ``ValueError``."""
    if not isinstance(dice, tuple):
        raise ValueError(f"dice must be a tuple, not {dice!r}")
    allowed = dice_to_play(check_dice(dice))
    left = dice_left
    if (not isinstance(left, tuple) or list(left) != sorted(left, reverse=True)
            or any(left.count(d) > allowed.count(d) for d in left)):
        raise ValueError(f"dice_left {left!r} is not part of the roll {dice!r}")


def dice_text(dice: tuple[int, ...]) -> str:
    """``"6-5"``, ``"4-4-4"``; ``"none"`` when empty."""
    return "-".join(str(d) for d in dice) if dice else "none"


def err(reason: str, message: str) -> IllegalMoveError:
    return IllegalMoveError(reason, message)


class _Judged(Protocol):
    def outcome(self) -> Outcome | None: ...


class TurnBase:
    """The turn-state methods every rule set shares (mixed into a frozen dataclass)."""

    position: _Judged
    dice: tuple[int, int]
    dice_left: tuple[int, ...]

    GAME_OVER: ClassVar[str]
    """The refusal text once the game is over, naming the rule (R28, H14)."""
    FORCED_RULES: ClassVar[tuple[str, str, str]]
    """The rules named by the forced-play refusals: both dice, the larger, the most."""

    # -- hooks ---------------------------------------------------------------

    @property
    def _search_result(self) -> Search[Any]:
        """The forced-play search from this stop (a cached property in the rule set)."""
        raise NotImplementedError

    def _after(self, step: Step) -> Self:
        """The state after the legal ``step``."""
        raise NotImplementedError

    def _diagnose(self, step: Step) -> IllegalMoveError:
        """Why ``step`` is not among the legal steps (checked in a fixed order)."""
        raise NotImplementedError

    def _not_a_step(self, src: int, dst: int) -> IllegalMoveError | None:
        """``invalid_step`` when ``src``/``dst`` cannot be a step of this rule set."""
        raise NotImplementedError

    def _no_die_bears_off(self, src: int) -> IllegalMoveError:
        """The refusal of ``src``/off when no die left is big enough."""
        return err("no_such_die", f"no die left bears off from {src} "
                                  f"(dice left: {dice_text(self.dice_left)})")

    # -- queries -------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        return self.position.outcome()

    def legal_steps(self) -> tuple[Step, ...]:
        """R24 (H11): the first steps of the complete plays the forced-play rules
        allow from here, sorted by source (high first; the bar, 25, first of all),
        then die (high first). Empty when the turn is over."""
        return self._legal_steps

    @cached_property
    def _legal_steps(self) -> tuple[Step, ...]:
        return tuple(sorted(self._search_result.firsts, key=lambda s: (-s.src, -s.die)))

    def max_dice(self) -> int:
        """How many more dice the maximal plays use from here (R19-R21, H11)."""
        return self._search_result.max_dice

    def is_turn_over(self) -> bool:
        """No dice left, no legal step (R23) or the game is over (R28, H14)."""
        return not self.dice_left or not self.legal_steps()

    def pass_reason(self) -> str | None:
        """``"no legal move"`` when dice remain but none can be played (R23), else None."""
        if self.dice_left and self.position.outcome() is None and not self.legal_steps():
            return "no legal move"
        return None

    # -- moving --------------------------------------------------------------

    def apply(self, step: Step) -> Self:
        """Play one step; returns the next state.

        A step with ``die == 0`` (an unspecified bear-off die) is resolved first.
        Raises :class:`IllegalMoveError` (``.reason`` says why) unless the step is
        one of :meth:`legal_steps`.
        """
        if not isinstance(step, Step):
            raise TypeError(f"apply() takes a Step, not {type(step).__name__}")
        if step.die == 0:
            step = self.resolve(step.src, step.dst)
        elif step not in self.legal_steps():
            raise self._diagnose(step)
        return self._after(step)

    def apply_all(self, steps: Iterable[Step] | str) -> Self:
        """Apply steps in order (text is read with :func:`parse_play`)."""
        state = self
        for step in parse_play(steps) if isinstance(steps, str) else steps:
            state = state.apply(step)
        return state

    def take(self, asked: Step | AskedStep) -> Step:
        r"""The :class:`Step` that ``asked`` stands for: a :class:`Step` as it is (an
        unspecified bear-off die, ``die == 0``, is resolved by :meth:`apply`); an
        :class:`AskedStep` without a die is :meth:`resolve`\ d (R26/H12), one with a
        die becomes that step. Raises :class:`NotationError` when ``asked`` is no step
        (backwards, the wrong die) and :class:`IllegalMoveError` as :meth:`resolve`.
        """
        if isinstance(asked, Step):
            return asked
        if asked.die is None:
            return self.resolve(asked.src, asked.dst)
        return Step(asked.src, asked.dst, asked.die)

    def resolve(self, src: int, dst: int) -> Step:
        """The legal step from ``src`` (25: the bar) to ``dst`` (0: off), finding its die.

        Raises :class:`IllegalMoveError`: ``ambiguous_die`` when several dice bear
        off from ``src`` legally, else the reason the move is refused.
        """
        if self.position.outcome() is not None:
            raise err("game_over", self.GAME_OVER)
        for name, value in (("src", src), ("dst", dst)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise err("invalid_step", f"step {name} must be an int, not {value!r}")
        refused = self._not_a_step(src, dst)
        if refused is not None:
            raise refused
        matches = [s for s in self.legal_steps() if s.src == src and s.dst == dst]
        if len(matches) == 1:
            return matches[0]
        if matches:
            dice = " or ".join(str(s.die) for s in matches)
            raise err("ambiguous_die", f"{src}/off can be played with a {dice}: say which die")
        if dst:
            raise self._diagnose(Step(src, dst))
        fitting = sorted((d for d in set(self.dice_left) if d >= src), key=lambda d: d - src)
        if not fitting:
            if not self.dice_left:
                raise err("turn_over", "no dice left this turn")
            raise self._no_die_bears_off(src)
        raise self._diagnose(Step(src, 0, fitting[0]))

    def _not_started(self) -> IllegalMoveError | None:
        """The first checks of every diagnosis: the game is over, no dice are left."""
        if self.position.outcome() is not None:
            return err("game_over", self.GAME_OVER)
        if not self.dice_left:
            return err("turn_over", "no dice left this turn")
        return None

    def _forced_play_error(self, step: Step) -> IllegalMoveError:
        """The last check of every diagnosis: ``step`` is playable on its own but the
        forced-play rules (R19-R21, H11) refuse it."""
        both, larger, most = self.FORCED_RULES
        a, b = self.dice_left[0], self.dice_left[-1]
        if len(self.dice_left) == 2 and a != b:
            if self._search_result.both_possible:
                return err("must_play_both",
                           f"{both}: {step} leaves the other die unplayable; both must be "
                           "played")
            return err("must_play_larger",
                       f"{larger}: only one die can be played, so the larger ({a}) must be")
        return err("must_play_max",
                   f"{most}: {step} does not lead to a play of the most dice "
                   f"({self._search_result.max_dice}) possible")
