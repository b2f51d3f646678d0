from django.conf import settings
from django.db import models


class IdempotencyRecord(models.Model):
    """The first successful answer to a POST sent with an ``Idempotency-Key``, for replays."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of method, path and body.")
    status_code = models.PositiveSmallIntegerField(default=0)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_user_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
