"""Steps (one die) and plays (a whole turn), with their text notation.

Points are in the MOVER's numbering; ``dst == 0`` is bearing off and ``src == 25``
enters from the bar (hitting games, RULES-FAMILY H2). This is the one step notation
of the project: the API's step text, the match record and the docs use it.

>>> Step.parse("24/18")
Step(src=24, dst=18, die=6)
>>> str(Step(3, 0, 5)), str(Step(3, 0, 3)), Step.parse("3/off").die
('3/off(5)', '3/off', 0)
>>> Step.parse("bar/22"), str(Step(25, 20))
(Step(src=25, dst=22, die=3), 'bar/20')
>>> parse_play("24/18 18/13")
(Step(src=24, dst=18, die=6), Step(src=18, dst=13, die=5))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .errors import NotationError
from .notation import BAR_POINT, parse_step_parts
from .position import Position

PASS_TEXT: Final = "-"
"""How a play of no steps (a pass, R23) is written; ``"pass"`` is also read."""


@dataclass(frozen=True, slots=True)
class Step:
    """One die moving one checker from ``src`` to ``dst`` (0 = off), in the mover's numbering.

    ``die`` is the die used. For an ordinary step it is ``src - dst`` and is filled in
    when given as 0. For bearing off it may exceed ``src`` (R26); ``die == 0`` then
    means "unspecified" and :meth:`TurnState.resolve` picks it.
    Raises :class:`NotationError` for impossible combinations.
    """

    src: int
    dst: int
    die: int = 0

    def __post_init__(self) -> None:
        src, dst, die = self.src, self.dst, self.die
        for name, value in (("src", src), ("dst", dst), ("die", die)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise NotationError(f"step {name} must be an int, not {value!r}")
        if not 1 <= src <= BAR_POINT:
            raise NotationError(f"step source must be a point 1..24 or 25 (the bar), not {src}")
        if not 0 <= dst < src:
            raise NotationError(
                f"step {src}/{dst}: the destination must be below the source (R4) or 0 for off")
        if not 0 <= die <= 6:
            raise NotationError(f"die must be 1..6 (or 0 for unspecified), not {die}")
        if dst > 0:
            if die == 0:
                object.__setattr__(self, "die", src - dst)
            elif die != src - dst:
                raise NotationError(f"step {src}/{dst} moves {src - dst} points, not {die}")
            if src - dst > 6:
                raise NotationError(f"step {src}/{dst} moves {src - dst} points: one die is 1..6")
        elif die and die < src:
            raise NotationError(f"a {die} cannot bear off from point {src}")

    @classmethod
    def parse(cls, text: str, die: int | None = None) -> Step:
        """Read ``"24/18"``, ``"bar/22"``, ``"13/7*"`` (the hit mark is accepted and
        not kept: whether a step hits is the position's business), ``"3/off"`` or
        ``"3/off(5)"``. ``die`` may be given; a bear-off without a written die keeps
        ``die == 0`` (unspecified). Raises :class:`NotationError`."""
        src, dst, written, _ = parse_step_parts(text)
        if die and written and die != written:
            raise NotationError(f"{text!r} says die {written}, not {die}")
        return cls(src, dst, die or written)

    def text(self, hit: bool = False) -> str:
        """The step's notation, with ``*`` when it hits (``"13/7*"``)."""
        return f"{self}*" if hit else str(self)

    @property
    def bears_off(self) -> bool:
        return self.dst == 0

    def __str__(self) -> str:
        src = "bar" if self.src == BAR_POINT else str(self.src)
        if self.dst:
            return f"{src}/{self.dst}"
        return f"{src}/off" if self.die in (0, self.src) else f"{src}/off({self.die})"


@dataclass(frozen=True, slots=True)
class AskedStep:
    """A step as a player asked for it — ``src``, ``dst`` and the die if said — before
    the rules have looked at it. Unlike a :class:`Step` it may be no step at all
    (backwards, longer than a die, the wrong die): a turn state's
    :meth:`~nardy.turnbase.TurnBase.take` answers it with the :class:`Step` it stands
    for, or the reason the rules refuse it. This is what a request or a record asks
    for; a program that has the engine's own steps passes those.

    >>> AskedStep(18, 24)
    AskedStep(src=18, dst=24, die=None)
    """

    src: int
    dst: int
    die: int | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """A complete play: its ``steps`` in order and the resulting ``position``.

    A pass (no legal move, R23) has no steps and formats as ``"-"``.
    """

    steps: tuple[Step, ...]
    position: Position

    def __str__(self) -> str:
        return format_play(self.steps)


def format_play(steps: tuple[Step, ...] | list[Step],
                hits: tuple[bool, ...] | list[bool] | None = None) -> str:
    """``"24/18 18/13"`` (``hits``, one flag per step, adds ``*``: ``"13/7*"``); an
    empty play is ``"-"``."""
    if not steps:
        return PASS_TEXT
    flags = hits if hits is not None else [False] * len(steps)
    return " ".join(s.text(h) for s, h in zip(steps, flags, strict=True))


def parse_play(text: str) -> tuple[Step, ...]:
    """Read space-separated steps; ``"-"``, ``"pass"`` or ``""`` is the empty play.

    Bear-off steps come back with ``die == 0`` (unspecified). Raises
    :class:`NotationError` naming the bad step.
    """
    if not isinstance(text, str):
        raise NotationError(f"play must be a string, not {type(text).__name__}")
    words = text.replace(",", " ").split()
    if not words or (len(words) == 1 and words[0].lower() in (PASS_TEXT, "pass")):
        return ()
    steps = []
    for i, word in enumerate(words, start=1):
        try:
            steps.append(Step.parse(word))
        except NotationError as exc:
            raise NotationError(f"step {i} of the play: {exc}") from None
    return tuple(steps)
