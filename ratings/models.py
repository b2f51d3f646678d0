"""Ratings per player and rule set, their history, resets, and the quick-pairing pool."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from ratings import glicko


class Rating(models.Model):
    """A player's current Glicko-2 rating in one rule set (``nardy.RULESETS``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    rules = models.CharField(max_length=16)
    rating = models.FloatField(default=glicko.START_RATING)
    deviation = models.FloatField(default=glicko.START_DEVIATION)
    volatility = models.FloatField(default=glicko.START_VOLATILITY)
    matches = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "rules"],
                                               name="rating_one_per_user_and_rules")]
        indexes = [
            # The leaderboard: rated, non-provisional players of one rule set by rating.
            models.Index(fields=["rules", "-rating"], name="rating_leaderboard",
                         condition=Q(deviation__lte=glicko.PROVISIONAL_DEVIATION)),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.rules} {self.rating:.0f}±{self.deviation:.0f}"

    @property
    def provisional(self) -> bool:
        return self.deviation > glicko.PROVISIONAL_DEVIATION


class RatingChange(models.Model):
    """One rated match's effect on one player's rating: before and after."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    rules = models.CharField(max_length=16)
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="rating_changes")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    score = models.FloatField(help_text="1 for a win, 0 for a loss.")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    at = models.DateTimeField()
    annulled = models.BooleanField(
        default=False, db_default=False,
        help_text="The match no longer counts (a player found to have had computer "
                  "assistance): the ratings after it were recomputed without it "
                  "(RatingRecompute).")

    class Meta:
        ordering = ("user", "at", "id")
        constraints = [models.UniqueConstraint(fields=["match", "user"],
                                               name="rating_change_once_per_match")]
        indexes = [models.Index(fields=["user", "rules", "at"])]

    def __str__(self) -> str:
        return (f"{self.user_id} match {self.match_id}: "
                f"{self.rating_before:.1f} → {self.rating_after:.1f}")


class RatingRecompute(models.Model):
    """One player's rating in one rule set recomputed from ``since`` with the matches of
    ``annulled_user`` no longer counting — or, when ``matches_restored`` is not 0, counting
    again (the annulment overturned on appeal): what it was and what it became (the
    history rows after ``since`` are rewritten; this row keeps the before)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_recomputes")
    rules = models.CharField(max_length=16)
    annulled_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                      related_name="+")
    since = models.DateTimeField()
    matches_annulled = models.PositiveIntegerField(
        help_text="The player's matches the replay skipped (annulled).")
    matches_restored = models.PositiveIntegerField(
        default=0, db_default=0,
        help_text="The player's annulled matches counted again (an annulment overturned).")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    reason = models.TextField()
    at = models.DateTimeField()

    class Meta:
        ordering = ("-at", "-id")

    def __str__(self) -> str:
        return (f"{self.user_id} {self.rules}: {self.rating_before:.1f} → "
                f"{self.rating_after:.1f} without {self.annulled_user_id}")


class RatingReset(models.Model):
    """A staff reset of a player's rating, with the reason."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_resets")
    rules = models.CharField(max_length=16)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                           related_name="+")
    reason = models.TextField()
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-at",)

    def __str__(self) -> str:
        return f"reset {self.user_id} {self.rules} by {self.by_id}"


class PairingRequest(models.Model):
    """A player waiting in the quick-pairing pool (one at a time per player)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="pairing_request")
    rules = models.CharField(max_length=16)
    length = models.PositiveSmallIntegerField()
    stakes = models.CharField(max_length=4)
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField()
    bots = models.BooleanField(
        default=False, help_text="Accepts a bot account as the opponent (a bot asking "
                                 "with it may meet other bots too).")
    rating = models.FloatField(help_text="The player's rating in the rule set when asked.")
    created_at = models.DateTimeField()
    polled_at = models.DateTimeField(
        null=True, blank=True,
        help_text="The player's last request or look (GET pairing/): an entry not polled "
                  "for PAIRING_POLL_SECONDS is gone.")
    address = models.GenericIPAddressField(null=True, blank=True,
                                           help_text="The client address it was asked from.")

    class Meta:
        indexes = [models.Index(fields=["rules", "length", "stakes", "rated", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} waits for {self.rules} {self.length}"

    def options(self) -> dict[str, object]:
        return {"rules": self.rules, "length": self.length, "stakes": self.stakes,
                "turn_seconds": self.turn_seconds, "rated": self.rated, "bots": self.bots}


class SharedAddress(models.Model):
    """Evidence for fair play: a match paired between two accounts asking from one client
    address (rated or not), noted when the pairing made it; read by staff (the admin) and,
    later, by the fair-play review."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                 related_name="shared_address")
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    address = models.GenericIPAddressField()
    rated = models.BooleanField()
    at = models.DateTimeField()

    class Meta:
        ordering = ("-at",)
        indexes = [models.Index(fields=["address", "at"])]

    def __str__(self) -> str:
        return f"match {self.match_id}: {self.first_id} and {self.second_id} from {self.address}"
