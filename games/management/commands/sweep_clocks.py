"""Settle abandoned matches and warn sides near their deadline.

Run it every minute: from cron (``* * * * * cd /srv/nard && .venv/bin/python manage.py
sweep_clocks``) or as a periodic job on the task queue; overlapping runs are safe (each
match is re-checked under its row lock, so it is settled once). Requests settle an
abandoned match lazily too, so the sweep only bounds how long one can stay unsettled.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import clocks_sweep


class Command(BaseCommand):
    help = ("Settle every match whose side to act is late by more than the clock allows "
            "(a resignation of the match), and log deadline warnings.")

    def handle(self, *args: Any, **options: Any) -> None:
        swept = clocks_sweep()
        self.stdout.write(f"{len(swept.settled)} abandoned match(es) settled"
                          f"{': ' + ', '.join(map(str, swept.settled)) if swept.settled else ''}; "
                          f"{len(swept.warned)} deadline warning(s).")
