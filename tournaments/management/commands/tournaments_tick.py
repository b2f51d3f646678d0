"""``manage.py tournaments_tick``: start the tournaments whose start time has come and
finish the arenas whose time is over (run it every minute, as ``sweep_clocks``; the
reads of a tournament do the same for it lazily)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments import services


class Command(BaseCommand):
    help = "Start tournaments whose time has come; finish arenas whose time is over."

    def handle(self, *args: Any, **options: Any) -> None:
        due = services.tournaments_due()
        for pk in due:
            services.tournament_tick(tournament_id=pk)
        self.stdout.write(f"{len(due)} tournament(s) ticked")
