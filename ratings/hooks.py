"""The few calls games/ makes into ratings/ (issue 25), kept in one small module.

* :func:`rated_on_create` — ``games.services.match_create``: whether the new match is
  rated (the default, and the 400 ``validation_error`` with ``details.rated``).
* :func:`may_play_rated` — who may play rated (``match_join`` makes a seek casual when
  such a player takes the seat).
* :func:`statements_for` — ``games.transitions.Change.commit``: when a change finishes a
  rated match, the rating update's writes, sent in the same round trip as the match's
  final move (``games.store.save(extra=…)``), and the ``ratings`` of its ``match_over``
  event. A change that starts a rated match makes sure both rating rows exist, so that
  the update at the end can lock them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.exceptions import InvalidRequest

if TYPE_CHECKING:
    from games.transitions import Change
    from nard_site.rows import Statement


def may_play_rated(user: Any) -> bool:
    """An active person's account: not a bot (the computer's levels, flagged bots)."""
    return user is not None and bool(user.is_active) and not bool(getattr(user, "is_bot", False))


def rated_on_create(*, user: Any, invited: Any, hotseat: bool, computer: bool,
                    rated: bool | None) -> bool:
    """Rated by default between two people; never hotseat or against the computer."""
    if hotseat or computer:
        if rated:
            why = "hotseat" if hotseat else "against the computer"
            raise InvalidRequest(f"A match {why} is never rated.",
                                 details={"rated": [f"A match {why} is never rated."]})
        return False
    eligible = may_play_rated(user) and (invited is None or may_play_rated(invited))
    if rated and not eligible:
        raise InvalidRequest("A rated match needs two players in good standing (no bots).",
                             details={"rated": ["This player may not play rated."]})
    return eligible if rated is None else bool(rated)


def statements_for(change: Change) -> list[Statement]:
    match = change.match
    if not match.rated or match.hotseat or match.white_id is None or match.black_id is None:
        return []
    from ratings import services

    types = {event.type for event in change.events}
    if "match_over" in types:
        return services.settle(change)
    if "game_start" in types and any(e.type == "game_start" and e.data.get("game") == 1
                                     for e in change.events):
        return [services.ensure_statement(match.rules, [match.white_id, match.black_id])]
    return []
