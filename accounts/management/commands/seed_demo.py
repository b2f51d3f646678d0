"""Create the demo accounts a newcomer logs in with (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import User
from accounts.services import token_obtain

DEMO_ACCOUNTS = (
    # username, password, staff
    ("demo", "demo-nardy-2026", False),
    ("rival", "rival-nardy-2026", False),
    ("admin", "admin-nardy-2026", True),
)


class Command(BaseCommand):
    help = "Create (or reset) the demo player accounts and a staff account, and print them."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        for username, password, staff in DEMO_ACCOUNTS:
            user = User.objects.named(username).first()
            if user is None:
                user = User(username=username, display_name=username.capitalize())
            user.is_staff = user.is_superuser = staff
            user.set_password(password)
            user.save()
            token = token_obtain(user=user)
            kind = "staff (admin at /admin/)" if staff else "player"
            self.stdout.write(f"  {kind:26} username={username}  password={password}  "
                              f"token={token.key}")
