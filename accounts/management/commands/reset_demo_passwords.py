"""Set the demo accounts' passwords back to the published ones and print them again.

For a newcomer who lost command 1's output (or changed a demo password and forgot it):
``seed_demo`` never resets a password, this does — on a development database only, as
``seed_demo`` (``DEBUG`` on; a database named by ``DATABASE_URL`` only with
``--any-database`` or ``SEED_DEMO=1``). Accounts that do not exist are created.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.management.commands.seed_demo import DEMO_ACCOUNTS, asked_for
from accounts.models import User
from accounts.services import token_obtain


class Command(BaseCommand):
    help = ("Set the demo accounts' passwords back to the published ones (development "
            "only) and print them with a new API token each.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--any-database", action="store_true",
                            help="Reset even though DATABASE_URL names a database.")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("DEBUG is off: the demo accounts' passwords are published, "
                               "so they are not set here.")
        if os.environ.get("DATABASE_URL") and not asked_for(options):
            raise CommandError("DATABASE_URL is set: no demo password reset there "
                               "(--any-database or SEED_DEMO=1 asks for it).")
        for username, password, staff in DEMO_ACCOUNTS:
            kind = "staff (admin at /admin/)" if staff else "player"
            user = User.objects.named(username).first()
            if user is None:
                user = User(username=username, display_name=username.capitalize(),
                            is_staff=staff, is_superuser=staff)
            user.set_password(password)
            user.is_active = True
            user.save()
            token = token_obtain(user=user)
            self.stdout.write(f"  {kind:26} username={username}  password={password}  "
                              f"token={token.key}")
