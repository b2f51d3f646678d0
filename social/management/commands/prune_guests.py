"""``manage.py prune_guests``: delete the guest identities that are stale — made more than
``GUEST_TTL_HOURS`` ago, not seen since, and with no match (a match, finished or not, is
history: the guest who played it stays with it)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from social.services import guests_prune


class Command(BaseCommand):
    help = "Delete stale guest identities that have no match."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = guests_prune()
        self.stdout.write(f"Deleted {deleted} stale guest(s).")
