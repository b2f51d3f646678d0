from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models

from games.models import Match


class Analysis(models.Model):
    """A game review of a finished match at one depth (:mod:`reviews.services`): one per
    match and depth, queued on the task queue, its results kept as JSON. Its table is
    still ``games_analysis``, the one it had when the review lived in games."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    OPEN: ClassVar[tuple[str, ...]] = (State.QUEUED, State.RUNNING)
    """The states of a review still to come (its match's stream stays open for it)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    depth = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    requested_from = models.GenericIPAddressField(
        null=True, blank=True,
        help_text="The requester's address (ANALYSES_QUEUED_PER_ADDRESS counts by it).")
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    turns_done = models.PositiveIntegerField(default=0)
    turns_total = models.PositiveIntegerField(default=0)
    results = models.JSONField(null=True, blank=True,
                               help_text="Per game: computer.review.GameReview.as_dict().")
    error = models.TextField(blank=True, help_text="Why it failed (a record that does not "
                                                   "replay).")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_analysis"
        constraints = [models.UniqueConstraint(fields=["match", "depth"],
                                               name="analysis_match_depth_unique")]

    def __str__(self) -> str:
        return f"Analysis of {self.match} at {self.depth}-ply ({self.state})"
