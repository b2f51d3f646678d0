"""Create the demo accounts a newcomer logs in with, on a development database only.

It seeds the embedded default (SQLite, no ``DATABASE_URL``), or another database when
asked (``--any-database`` or ``SEED_DEMO=1``); it refuses when ``DEBUG`` is off, since
the passwords are published. An account that already exists is left as it is: its
password is never reset. Each account's API token is printed: made with the account, or
for an account that exists a new one (only hashes of keys are stored, so an older key
cannot be shown; the older tokens keep working).
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import User
from accounts.services import token_obtain

DEMO_ACCOUNTS = (
    # username, password, staff
    ("demo", "demo-nardy-2026", False),
    ("rival", "rival-nardy-2026", False),
    ("admin", "admin-nardy-2026", True),
)


def asked_for(options: dict[str, Any]) -> bool:
    return bool(options.get("any_database")) or os.environ.get("SEED_DEMO") == "1"


class Command(BaseCommand):
    help = ("Create the demo player accounts and a staff account (development only), "
            "and print them.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--any-database", action="store_true",
                            help="Seed even though DATABASE_URL names a database.")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("DEBUG is off: the demo accounts' passwords are published, "
                               "so they are not created here.")
        if os.environ.get("DATABASE_URL") and not asked_for(options):
            self.stdout.write("  DATABASE_URL is set: no demo accounts created "
                              "(--any-database or SEED_DEMO=1 creates them).")
            return
        for username, password, staff in DEMO_ACCOUNTS:
            kind = "staff (admin at /admin/)" if staff else "player"
            user = User.objects.named(username).first()
            if user is not None:
                # Keys are stored as hashes: an older token's key cannot be shown, so a
                # new token is made for this run (the older ones keep working).
                token = token_obtain(user=user)
                self.stdout.write(f"  {kind:26} username={username}  (exists: its password "
                                  f"is left unchanged)  token={token.key} (a new token)")
                continue
            user = User(username=username, display_name=username.capitalize(),
                        is_staff=staff, is_superuser=staff)
            user.set_password(password)
            user.save()
            token = token_obtain(user=user)
            self.stdout.write(f"  {kind:26} username={username}  password={password}  "
                              f"token={token.key}")
