"""Refusals of the game services, each with its API error code."""

from __future__ import annotations

from rest_framework import status

from nard_site.api.errors import DomainError


class NotFound(DomainError):
    code = "not_found"
    status_code = status.HTTP_404_NOT_FOUND
    default_message = "No such match."


class PermissionDenied(DomainError):
    code = "permission_denied"
    status_code = status.HTTP_403_FORBIDDEN
    default_message = "Only the players of this match may do that."


class InvalidRequest(DomainError):
    code = "validation_error"
    status_code = status.HTTP_400_BAD_REQUEST
    default_message = "The request has invalid fields."


class NotYourTurn(DomainError):
    code = "not_your_turn"
    status_code = status.HTTP_409_CONFLICT
    default_message = "It is not your turn."


class WrongPhase(DomainError):
    code = "wrong_phase"
    status_code = status.HTTP_409_CONFLICT
    default_message = "That is not possible in the match's current phase."


class VersionConflict(DomainError):
    code = "version_conflict"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The match has changed since the version you sent."


class IllegalMove(DomainError):
    code = "illegal_move"
    status_code = status.HTTP_400_BAD_REQUEST
    default_message = "The rules do not allow that move."
