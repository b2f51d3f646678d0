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

    @property
    def may_play_rated(self) -> bool:
        """Whether this account's results may change ratings: an active person's account,
        not a bot (the computer's levels, or an outside bot staff flagged)."""
        return bool(self.is_active) and not self.is_bot


class ApiToken(models.Model):
    """An API token (``Authorization: Token <key>``), stored as the SHA-256 of its key.

    The key itself is shown once, when the token is made (``accounts.tokens``), and never
    stored: whoever reads the database or the admin cannot sign in with what they see.
    An account may hold several: a log-in token per client that logged in (every scope),
    and personal tokens its owner made with chosen scopes (``accounts.scopes``). A
    password change or reset, or ``DELETE accounts/token/`` from the session, revokes
    them all."""

    key_hash = models.CharField(max_length=64, unique=True, editable=False,
                                help_text="SHA-256 of the key, in hex: the key is not stored.")
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE,
                             related_name="api_tokens")
    created = models.DateTimeField(auto_now_add=True)
    personal = models.BooleanField(
        default=False, help_text="A personal token (POST accounts/tokens/): only its scopes. "
                                 "A log-in token has every scope.")
    name = models.CharField(max_length=100, blank=True,
                            help_text="A personal token's name, its owner's reminder.")
    scopes = models.CharField(max_length=200, blank=True,
                              help_text="A personal token's scopes, space-separated.")

    class Meta:
        verbose_name = "API token"
        indexes = [models.Index(fields=["user", "created"])]

    def __str__(self) -> str:
        return f"API token of {self.user_id} made {self.created:%Y-%m-%d %H:%M}"


class LoginCounter(models.Model):
    """A count of failed log-ins (``accounts.login_limit``): per username and client
    address, and per address. Incremented under a row lock, so parallel guesses cannot
    read the same count; the window is fixed from the first failure."""

    key = models.CharField(max_length=80, primary_key=True)
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.expires:%H:%M:%S}"
