"""Refusals of the tournament services, each with its stable code (nard_site/api/errors.py
maps them to statuses)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from nard_site.domain import DomainError


class AlreadyJoined(DomainError):
    code = "already_joined"
    default_message = gettext_noop("You have joined this tournament already.")


class NotJoined(DomainError):
    code = "not_joined"
    default_message = gettext_noop("You are not playing in this tournament.")


class TournamentFull(DomainError):
    code = "tournament_full"
    default_message = gettext_noop("The tournament is full.")


class TournamentFinished(DomainError):
    code = "tournament_finished"
    default_message = gettext_noop("The tournament is over.")


class TournamentStarted(DomainError):
    """What only a tournament not yet started allows (joining a Swiss or knock-out
    after its start, starting it twice)."""

    code = "tournament_started"
    default_message = gettext_noop("The tournament has started.")


class RoundInProgress(DomainError):
    """Withdrawing from a Swiss or knock-out while one's match of the round is being
    played: finish (or resign) it first; withdrawing is between rounds."""

    code = "round_in_progress"
    default_message = gettext_noop("Your match of this round is being played: finish it "
                                   "first.")


class TooManyTournaments(DomainError):
    code = "too_many_tournaments"
    default_message = gettext_noop("You have created as many tournaments as allowed.")
