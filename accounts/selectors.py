"""Reads of accounts' own data for the API."""

from __future__ import annotations

from .models import ApiToken, User


def personal_tokens(*, user: User) -> list[ApiToken]:
    """``user``'s personal tokens, newest first (their keys are not kept: never shown)."""
    return list(ApiToken.objects.filter(user=user, personal=True).order_by("-created", "-pk"))
