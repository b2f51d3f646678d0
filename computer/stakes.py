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

The server decides whether an offer is allowed at all (S2, S3, S5, S7).
"""

from __future__ import annotations

from collections.abc import Sequence

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
