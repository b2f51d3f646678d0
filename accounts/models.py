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
    is_guest = models.BooleanField(
        default=False,
        help_text="A guest identity made without a password (POST accounts/guest/): never "
                  "rated, no chat in public rooms, pruned when stale; registering while "
                  "signed in as it makes it an ordinary account.")
    challenges = models.CharField(
        max_length=12, choices=[("everyone", "Everyone"), ("following", "Those I follow"),
                                ("nobody", "Nobody")], default="everyone",
        help_text="Who may invite this player to a match (a challenge).")
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
        not a bot (the computer's levels, or an outside bot staff flagged), not a guest."""
        return bool(self.is_active) and not self.is_bot and not self.is_guest


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


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no chat, no invitation and no quick pairing between
    the two, either way. Kept here, below the game modules, so games (invitations),
    ratings (pairing) and chat can all ask (:mod:`accounts.blocks`)."""

    blocker = models.ForeignKey("accounts.User", on_delete=models.CASCADE,
                                related_name="blocks_made")
    blocked = models.ForeignKey("accounts.User", on_delete=models.CASCADE,
                                related_name="blocks_received")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")),
                                   name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"])]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Follow(models.Model):
    """``follower`` follows ``followed``: sees whether they are online or playing
    (``GET accounts/me/following/``). A player whose ``challenges`` is ``following``
    accepts invitations only from those it follows
    (``accounts.selectors.accepts_challenge_from``), so the rows live here, where games
    may read them."""

    follower = models.ForeignKey("accounts.User", on_delete=models.CASCADE,
                                 related_name="following_rows")
    followed = models.ForeignKey("accounts.User", on_delete=models.CASCADE,
                                 related_name="follower_rows")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")),
                                   name="follow_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Notice(models.Model):
    """A notice to one account (``accounts.services.notice_create``): a challenge
    received, a finished review, a tournament's start, a moderation decision… ``kind``
    names it, ``data`` holds what a client shows (ids, names); ``read_at`` is set when
    its recipient marks it read."""

    recipient = models.ForeignKey("accounts.User", on_delete=models.CASCADE,
                                  related_name="notices")
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["recipient", "-id"]),
                   models.Index(fields=["recipient", "read_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient_id} ({'read' if self.read_at else 'unread'})"
