"""What ratings adds to a change of a match (registered with ``games.notify`` in
``RatingsConfig.ready``): when a change finishes a rated match, the rating update's
writes, sent in the same round trip as the match's final move, and the ``ratings`` of
its ``match_over`` event (none, and the match unrated, when too few turns were played);
a change that starts a rated match makes it casual beyond the pair's daily limit, or makes
sure both rating rows exist, so that the update at the end can lock them."""

from __future__ import annotations

from games.notify import Pending
from nard_site.rows import Statement
from ratings import services


def statements_for(change: Pending) -> list[Statement]:
    match = change.match
    if not match.rated or match.hotseat or match.white_id is None or match.black_id is None:
        return []
    if any(e.type == "match_over" for e in change.events):
        return services.settle(change)
    if any(e.type == "game_start" and e.data.get("game") == 1 for e in change.events):
        services.unrate_beyond_the_pair_limit(change)
        if not match.rated:
            return []
        return [services.ensure_statement(match.rules, [match.white_id, match.black_id])]
    return []
