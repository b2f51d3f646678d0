"""Delete the Idempotency-Key records older than ``IDEMPOTENCY_KEY_TTL``.

Run it from cron or the periodic sweep (say hourly); a key is honoured for its TTL
whether or not this has run, so running it late only costs disk.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from nard_site.api.idempotency import key_ttl
from nard_site.api.models import IdempotencyRecord


class Command(BaseCommand):
    help = "Delete expired Idempotency-Key records (run it from cron or the sweep)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted, _ = IdempotencyRecord.objects.filter(
            created_at__lt=timezone.now() - key_ttl()).delete()
        self.stdout.write(f"deleted {deleted} expired Idempotency-Key record"
                          f"{'' if deleted == 1 else 's'}")
