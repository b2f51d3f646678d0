from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as BaseUserManager
from django.db import models

from .names import username_key

__all__ = ["User", "UserManager", "username_key"]


class UserManager(BaseUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        """Usernames are unique regardless of case, so log-in ignores case too."""
        return self.get(username_key=username_key(username or ""))

    def named(self, name: str) -> models.QuerySet[User]:
        """The user called ``name``, in any case (at most one)."""
        return self.filter(username_key=username_key(name))


class User(AbstractUser):
    """A player (or staff member). Usernames are unique case-insensitively."""

    display_name = models.CharField(max_length=64, blank=True)
    is_bot = models.BooleanField(
        default=False,
        help_text="A program plays this account (shown on its public profile): the built-in "
                  "computer levels, or an outside bot that staff flagged.")
    username_key = models.CharField(
        max_length=300, unique=True, editable=False,
        help_text="The username normalised (NFKC) and case-folded: what makes usernames "
                  "unique regardless of case.")

    objects = UserManager()  # type: ignore[misc]  # django-stubs: AbstractUser's manager

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_key = username_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
