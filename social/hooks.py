"""What social hears of the games: an invitation made (a challenge) becomes a notice to
the invited player (``accounts.services.notice_create``), which its account stream
carries as a ``notice`` item beside the ``invitation`` one; once the invitation is
accepted, declined or withdrawn, that notice is marked read (it asks nothing more).
``games.notify`` listeners: called after the match's commit, so the notice is never of a
match that rolled back."""

from __future__ import annotations

from collections.abc import Sequence

from accounts import notices
from accounts.services import notice_create, notices_settle
from games.models import Event, Match, color_of
from nardy import BLACK, WHITE


def challenge_notices(match: Match, events: Sequence[Event]) -> None:
    """A ``challenge`` notice to the invited player of a match just made by invitation
    (a rematch too); none to a bot."""
    if match.invited_id is None or not any(e.type == "match_created" for e in events):
        return
    invited = match.invited
    if invited is None or invited.is_bot:
        return
    colour = next((color_of(side) for side in (WHITE, BLACK)
                   if match.player_id(side) == invited.pk), None)
    notice_create(recipient=invited, kind=notices.CHALLENGE, data={
        "match": match.pk, "by": match.created_by.username, "rules": match.rules,
        "length": match.length, "stakes": match.stakes, "turn_seconds": match.turn_seconds,
        "rated": match.rated, "color": colour, "rematch_of": match.rematch_of_id})


def challenge_answered(match: Match, events: Sequence[Event]) -> None:
    """The invited player's ``challenge`` notice of ``match`` is read once the invitation
    is joined or aborted (declined, withdrawn)."""
    if match.invited_id is not None and any(e.type in ("joined", "aborted") for e in events):
        notices_settle(recipient_id=match.invited_id, kind=notices.CHALLENGE,
                       about={"match": match.pk})
