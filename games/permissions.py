"""Who may do what beyond playing: the rights checked by the API and the commands.

Importing a match record writes history under other players' names, so it takes a
model permission (``games.add_match``: superusers have it, other staff only when
granted), not merely staff status; and every player a record names must be an active
account.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.permissions import BasePermission

from games.exceptions import InvalidRequest, PermissionDenied

IMPORT_PERMISSION = "games.add_match"


def may_import_matches(user: Any) -> bool:
    """Whether ``user`` may import match records."""
    return bool(user is not None and user.is_authenticated and user.is_active
                and user.has_perm(IMPORT_PERMISSION))


def require_import_permission(user: Any) -> None:
    """Raise ``PermissionDenied`` (``permission_denied``) unless ``user`` may import."""
    if not may_import_matches(user):
        raise PermissionDenied(
            f"Importing matches needs the {IMPORT_PERMISSION!r} permission.",
            details={"permission": IMPORT_PERMISSION})


def require_active_players(players: Iterable[Any]) -> None:
    """Raise ``InvalidRequest`` (``validation_error``) if a player named by a record is an
    inactive account."""
    inactive = sorted({player.username for player in players
                       if player is not None and not player.is_active})
    if inactive:
        raise InvalidRequest(
            f"The record names inactive accounts: {', '.join(inactive)}.",
            details={"players": [f"{name} is inactive." for name in inactive]})


class CanImportMatches(BasePermission):
    """DRF permission class for the import view: ``permission_classes = [CanImportMatches]``."""

    message = f"Importing matches needs the {IMPORT_PERMISSION!r} permission."

    def has_permission(self, request: Any, view: Any) -> bool:
        return may_import_matches(request.user)
