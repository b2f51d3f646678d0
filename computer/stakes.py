"""When the computer offers a raise of the stake and when it accepts one (S1-S7).

The rule is cubeless: it looks only at the current game, from the computer's own
estimates (:data:`~computer.network.OUTPUTS`: win, win 2+, win 3, lose 2+, lose 3) of
the position with the side to roll about to roll. ``E`` is the expected points per
unit of the current stake (:func:`~computer.network.equity`; with ``dave`` stakes
every win scores 1, S6, so ``E = 2 P(win) - 1``), and ``k = next_stake / stake`` (2
for a geometric progression or the cube).

- **Accept** an offer iff ``k * E >= -1``: playing on at the higher stake loses less
  than refusing, which loses the current stake at once (S4). Without marses and
  with ``k = 2`` that is the classic take point ``P(win) >= 25 %``.
- **Offer** iff ``OFFER_MIN <= E < 1``. Below ``OFFER_MIN`` the gain is not worth
  handing the right to raise to the opponent (S2); from ``E >= 1`` on the game is
  worth more played on for a mars than the single stake a refusal would bring (too
  good to offer). ``OFFER_MIN = 0.36`` is ``P(win) = 68 %`` without marses.

The match score comes first (:class:`Situation`, used through
:func:`computer.match_stake_decision` by both the server's computer and the reference
bot client, so the two decide alike):

- **Never offer a dead cube**: when a single win at the current stake already takes
  the match, a raise cannot gain anything and only gives the opponent more to win.
- **Accept when refusing loses the match**: a refusal scores the current stake for
  the offerer (S4); when that reaches the match length, playing on can only be better.

The server decides whether an offer is allowed at all (S2, S3, S5, S7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nardy import Side
from nardy import stakes as rules

from .score import Objective, match_objective

OFFER_MIN = 0.36
"""The least equity at which the computer offers a raise."""


def game_equity(estimate: Sequence[float], mars: bool = True) -> float:
    """``E`` from an estimate ``(win, win_2, win_3, lose_2, lose_3)``."""
    win, win2, win3, lose2, lose3 = estimate
    base = 2.0 * win - 1.0
    return base + win2 + win3 - lose2 - lose3 if mars else base


def should_offer(estimate: Sequence[float], stake: int, next_stake: int,
                 mars: bool = True) -> bool:
    """Offer the raise ``stake`` → ``next_stake`` with ``estimate`` (own, on roll)."""
    del stake, next_stake  # the rule does not depend on the ratio (module docstring)
    e = game_equity(estimate, mars)
    return OFFER_MIN <= e < 1.0


def should_accept(estimate: Sequence[float], stake: int, next_stake: int,
                  mars: bool = True) -> bool:
    """Accept the raise ``stake`` → ``next_stake`` with ``estimate`` (own, not on roll)."""
    if stake <= 0 or next_stake <= stake:
        raise ValueError(f"a raise goes up: {stake} -> {next_stake}")
    return next_stake / stake * game_equity(estimate, mars) >= -1.0


def should_accept_resignation(estimate: Sequence[float], worth: float,
                              mars: bool = True) -> bool:
    """Accept a resignation worth ``worth`` units of the current stake (1 a single, 2 a
    gammon or mars, 3 a backgammon or koks) with ``estimate`` (own, the offerer on
    roll): iff playing on is not expected to bring more, ``worth >= E``.

    >>> should_accept_resignation([0.9, 0.8, 0.1, 0.0, 0.0], worth=1)
    False
    >>> should_accept_resignation([0.9, 0.8, 0.1, 0.0, 0.0], worth=2)
    True
    """
    return worth >= game_equity(estimate, mars)


@dataclass(frozen=True, slots=True)
class Situation:
    """What the stake decisions read of a match, as the side deciding sees it.

    >>> s = Situation(stakes="cube", progression="geometric", length=7, own=6, opponent=2,
    ...               stake=1)
    >>> s.a_win_takes_the_match, s.refusal_loses_the_match, s.next_stake, s.mars
    (True, False, 2, True)
    """

    stakes: str
    """The match's option (``cube`` or ``dave``; S6: with ``dave`` no mars counts)."""
    progression: str
    """``geometric`` or ``arithmetic`` (S4)."""
    length: int
    own: int
    """The deciding side's score."""
    opponent: int
    stake: int
    """The game's stake now (before any raise)."""
    offered: int | None = None
    """The stake a waiting offer raises to (the answer's question); ``None`` before one."""
    after_crawford: bool = False
    """This game is the match's Crawford game or a later one (S7)."""

    @property
    def mars(self) -> bool:
        """Whether a win can score more than the stake (S6)."""
        return rules.mars_counts(self.stakes)

    @property
    def next_stake(self) -> int:
        """The stake a raise goes to: the waiting offer's, else the next value (S4, S5)."""
        return self.offered if self.offered is not None else rules.next_stake(
            self.progression, self.stake)

    @property
    def a_win_takes_the_match(self) -> bool:
        """A single win at the current stake already gives the deciding side the match:
        the cube is dead for it (never offered)."""
        return self.stake >= self.length - self.own

    @property
    def refusal_loses_the_match(self) -> bool:
        """Refusing (S4: the offerer scores the current stake) would end the match
        against the deciding side (so it accepts)."""
        return self.stake >= self.length - self.opponent

    def objective(self, rule_set: str, side: Side) -> Objective | None:
        """What the deciding side, ``side``, plays for in its checker play: the
        match-winning chance at this score (:func:`computer.score.match_objective`; S7's
        Crawford game where the match has stakes)."""
        return match_objective(rule_set, side, length=self.length, own=self.own,
                               opponent=self.opponent, stake=self.stake, mars=self.mars,
                               crawford=self.stakes != rules.NONE,
                               after_crawford=self.after_crawford)

    @classmethod
    def of_api_match(cls, match: Mapping[str, Any], colour: str) -> Situation:
        """The situation of ``colour`` (``white``/``black``) in a match as the public API
        shows it (``GET matches/{id}/``: ``stakes``, ``progression``, ``length``,
        ``score``, ``state.stake``, ``state.offer``; ``crawford_game`` and
        ``state.game`` for S7)."""
        state = match["state"]
        score = match["score"]
        offer = state.get("offer")
        crawford, game = match.get("crawford_game"), state.get("game")
        return cls(stakes=match["stakes"], progression=match["progression"],
                   length=match["length"], own=score[colour],
                   opponent=score["black" if colour == "white" else "white"],
                   stake=state.get("stake") or rules.START_STAKE,
                   offered=offer["stake"] if offer else None,
                   after_crawford=crawford is not None and game is not None
                   and int(game) >= int(crawford))
