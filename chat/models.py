"""Chat lines, reports, moderation actions, panic mode and each account's chat option.

Moderation keeps everything: no row here is ever deleted. A line the filter flags or a
moderator hides stays, with why; a time-out or a mute is a :class:`ModerationAction` with
its reason and end, and the restriction in force is read from those rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Line(models.Model):
    """One line said in a room: ``(kind, object_id)`` names the room's place (a match, a
    tournament: :mod:`chat.rooms`), ``room`` which of its rooms."""

    kind = models.CharField(max_length=16)
    object_id = models.PositiveBigIntegerField()
    room = models.CharField(max_length=16)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="chat_lines")
    text = models.TextField()
    created = models.DateTimeField(db_index=True)
    plain_links = models.BooleanField(
        default=False, help_text="The author was a new account: links are shown as text.")
    flagged = models.BooleanField(
        default=False, help_text="The word filter caught it: only its author sees it, and a "
                                 "report is in the queue.")
    flagged_words = models.JSONField(default=list, blank=True)
    hidden_by = models.ForeignKey("chat.ModerationAction", null=True, blank=True,
                                  on_delete=models.PROTECT, related_name="hidden_lines",
                                  help_text="The action that hid it from everyone else.")
    event_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="Its event in its place's log (a match's players' "
                                         "room), if logged there.")

    class Meta:
        ordering = ("id",)
        indexes = [models.Index(fields=["kind", "object_id", "room", "id"]),
                   models.Index(fields=["author", "created"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} {self.room} #{self.pk}"

    @property
    def visible(self) -> bool:
        """Whether others than its author see it."""
        return not self.flagged and self.hidden_by_id is None


class ReportReason(models.TextChoices):
    INSULT = "insult", "Insult or harassment"
    SPAM = "spam", "Spam or advertising"
    CHEATING = "cheating", "Cheating"
    OTHER = "other", "Other"
    FILTER = "filter", "Caught by the word filter"


class Report(models.Model):
    """A report of a line (``line``) or of a player (``accused``: the line's author for a
    line's report), by an account or by the word filter (``reporter`` empty)."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.PROTECT, related_name="reports_made")
    accused = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="reports_received")
    line = models.ForeignKey(Line, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="reports")
    reason = models.CharField(max_length=16, choices=ReportReason.choices)
    comment = models.TextField(blank=True)
    created = models.DateTimeField(db_index=True)
    resolved = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.PROTECT, related_name="reports_resolved")

    class Meta:
        ordering = ("-created",)
        constraints = [models.UniqueConstraint(fields=["reporter", "line"],
                                               name="report_line_once")]

    def __str__(self) -> str:
        return f"report #{self.pk} of {self.accused_id} ({self.reason})"


class Action(models.TextChoices):
    WARN = "warn", "Warn"
    TIMEOUT = "timeout", "Time out"
    MUTE = "mute", "Mute"
    UNMUTE = "unmute", "Lift a mute or time-out"
    CLOSE = "close", "Close the account"
    DISMISS = "dismiss", "Dismiss the report"
    PANIC = "panic", "Panic mode on"
    CALM = "calm", "Panic mode off"


TIMEOUTS = {"15m": 15 * 60, "1h": 60 * 60, "1d": 24 * 60 * 60}
"""The time-outs a moderator may give, in seconds."""


class ModerationAction(models.Model):
    """One moderator's decision, with its reason: the audit log of moderation. A time-out
    runs until ``until``; a mute until an ``unmute`` (or ``until``, if given); panic mode
    (``target`` empty) until ``until`` or a ``calm``."""

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.PROTECT, related_name="moderation_done")
    target = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.PROTECT, related_name="moderation_received")
    action = models.CharField(max_length=16, choices=Action.choices)
    reason = models.TextField()
    created = models.DateTimeField(db_index=True)
    until = models.DateTimeField(null=True, blank=True)
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="actions")

    class Meta:
        ordering = ("-created", "-id")
        indexes = [models.Index(fields=["target", "action", "created"])]

    def __str__(self) -> str:
        return f"{self.action} {self.target_id or 'everyone'}: {self.reason[:40]}"


class ChatOption(models.Model):
    """An account's own chat option: off, it neither sees nor writes lines."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="chat_option")
    enabled = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"chat {'on' if self.enabled else 'off'} for {self.user_id}"
