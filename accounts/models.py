from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as BaseUserManager
from django.db import models
from django.db.models.functions import Lower


class UserManager(BaseUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        """Usernames are unique regardless of case, so log-in ignores case too."""
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player (or staff member). Usernames are unique case-insensitively."""

    display_name = models.CharField(max_length=64, blank=True)

    objects = UserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
