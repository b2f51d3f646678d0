"""Refusals of the game services, each with its error code (the API maps codes to statuses)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from nard_site.domain import DomainError


class NotFound(DomainError):
    code = "not_found"
    default_message = gettext_noop("No such match.")


class PermissionDenied(DomainError):
    code = "permission_denied"
    default_message = gettext_noop("Only the players of this match may do that.")


class InvalidRequest(DomainError):
    code = "validation_error"
    default_message = gettext_noop("The request has invalid fields.")


class NotYourTurn(DomainError):
    code = "not_your_turn"
    default_message = gettext_noop("It is not your turn.")


class WrongPhase(DomainError):
    code = "wrong_phase"
    default_message = gettext_noop("That is not possible in the match's current phase.")


class VersionConflict(DomainError):
    code = "version_conflict"
    default_message = gettext_noop("The match has changed since the version you sent.")


class IllegalMove(DomainError):
    code = "illegal_move"
    default_message = gettext_noop("The rules do not allow that move.")


class TooManyComputerMatches(DomainError):
    """``COMPUTER_MATCHES_PER_ACCOUNT`` unfinished matches against the
    built-in computer already (409; ``details.limit``)."""

    code = "too_many_computer_matches"
    default_message = gettext_noop(
        "You have as many unfinished matches against the computer as allowed.")


class TooManyInvitations(DomainError):
    """As many open invitations as allowed, in all or to this player
    (409; ``details.reason``: ``open`` or ``open_to_player``; ``details.limit``). The
    hourly rate is refused as 429 ``throttled`` (:class:`InvitationsThrottled`)."""

    code = "too_many_invitations"
    default_message = gettext_noop("You have as many open invitations as allowed.")


class ChallengesClosed(DomainError):
    """The invited player accepts no challenges from this account: its setting is
    ``nobody``, or ``following`` and it does not follow the challenger (403;
    ``details.challenges``: the setting)."""

    code = "challenges_closed"
    default_message = gettext_noop("This player does not accept challenges from you.")


class InvitationsThrottled(DomainError):
    code = "throttled"
    default_message = gettext_noop("Too many invitations in the last hour.")


class Blocked(DomainError):
    """One of the two accounts blocked the other: no invitation, seek or pairing between
    them (403)."""

    code = "blocked"
    default_message = gettext_noop("You cannot play this player: one of you blocked the other.")


class ResignOfferTooHigh(DomainError):
    """A resignation offered with a result worth as much as a resignation concedes now
    (R30/H16), or more: ``details.conceded`` names what resigning concedes,
    ``details.most`` the most that may be offered (``None``: nothing)."""

    code = "resign_offer_too_high"


class ResignOfferRepeated(DomainError):
    """A resignation offered again, for the same or a cheaper result than one the
    opponent refused in this turn, before the opponent has played a turn."""

    code = "resign_offer_repeated"
