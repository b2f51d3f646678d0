"""Fair play's cases and the log of the staff's decisions on them.

Nothing here is ever deleted: a case keeps its evidence as it stood when it was opened
(and as it was last refreshed while open), each decision is a :class:`FairplayDecision`
row with its reason, and an appeal is kept on its case.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class State(models.TextChoices):
    OPEN = "open", "Open: waits for staff"
    CLEARED = "cleared", "Cleared"
    WARNED = "warned", "Warned"
    ASSISTED = "assisted", "Computer assistance: results annulled"
    CLOSED = "closed", "Account closed"


class Decision(models.TextChoices):
    CLEAR = "clear", "Clear"
    WARN = "warn", "Warn"
    ASSISTED = "assisted", "Computer assistance (annul the results)"
    CLOSE = "close", "Close the account"


STATE_OF = {Decision.CLEAR: State.CLEARED, Decision.WARN: State.WARNED,
            Decision.ASSISTED: State.ASSISTED, Decision.CLOSE: State.CLOSED}
"""The state a decision leaves a case in."""


class FairplayCase(models.Model):
    """An account whose play the evidence flagged (:mod:`fairplay.evidence`), for a
    person to judge. At most one open case per account."""

    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="fairplay_cases")
    score = models.FloatField(help_text="0-100; a case opens at FAIRPLAY_THRESHOLD.")
    evidence = models.JSONField(default=dict, help_text="The figures, the games and the "
                                                        "positions that weigh most.")
    games = models.PositiveIntegerField(help_text="Reviewed rated games the score counts.")
    since = models.DateTimeField(help_text="When the first of those games' matches ended: "
                                           "the period an annulment starts from.")
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN,
                             db_index=True)
    created = models.DateTimeField()
    updated = models.DateTimeField()
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="The last decision's reason.")
    appeal = models.TextField(blank=True, help_text="The player's appeal (one per case).")
    appealed_at = models.DateTimeField(null=True, blank=True)
    appeal_decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-score", "id")
        constraints = [models.UniqueConstraint(fields=["account"], condition=Q(state="open"),
                                               name="fairplay_one_open_case")]

    def __str__(self) -> str:
        return f"fair play #{self.pk}: {self.account_id} {self.score:.0f} ({self.state})"

    @property
    def waiting(self) -> bool:
        """Whether staff have something to decide: an open case or an appeal."""
        return self.state == State.OPEN or (self.appealed_at is not None
                                            and self.appeal_decided_at is None)


class FairplayDecision(models.Model):
    """One staff decision on a case, with its reason and what it did (the matches and
    tournaments an annulment touched): the audit log of fair play."""

    case = models.ForeignKey(FairplayCase, on_delete=models.PROTECT, related_name="decisions")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                           related_name="+")
    decision = models.CharField(max_length=8, choices=Decision.choices)
    reason = models.TextField()
    on_appeal = models.BooleanField(default=False)
    effects = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField()

    class Meta:
        ordering = ("-created", "-id")

    def __str__(self) -> str:
        return f"{self.decision} on case {self.case_id}: {self.reason[:40]}"
