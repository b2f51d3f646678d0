"""Refusals of the game services, each with its error code (the API maps codes to statuses)."""

from __future__ import annotations

from nard_site.domain import DomainError


class NotFound(DomainError):
    code = "not_found"
    default_message = "No such match."


class PermissionDenied(DomainError):
    code = "permission_denied"
    default_message = "Only the players of this match may do that."


class InvalidRequest(DomainError):
    code = "validation_error"
    default_message = "The request has invalid fields."


class NotYourTurn(DomainError):
    code = "not_your_turn"
    default_message = "It is not your turn."


class WrongPhase(DomainError):
    code = "wrong_phase"
    default_message = "That is not possible in the match's current phase."


class VersionConflict(DomainError):
    code = "version_conflict"
    default_message = "The match has changed since the version you sent."


class IllegalMove(DomainError):
    code = "illegal_move"
    default_message = "The rules do not allow that move."
