"""``manage.py fairplay_scan [--days N]``: the fair-play scan (:func:`fairplay.services.scan`)
of the accounts that played a reviewed rated match in the last days; run it from cron
(hourly, say) beside the analysis worker that does the reviews."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fairplay import services


class Command(BaseCommand):
    help = "Open or refresh fair-play cases from the reviews of recent rated matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=float, default=7.0,
                            help="look at accounts with a reviewed rated match this recent")

    def handle(self, *args: Any, **options: Any) -> None:
        cases = services.scan(days=options["days"])
        self.stdout.write(f"{len(cases)} open case(s): "
                          + ", ".join(f"{c.account.username} {c.score:.0f}" for c in cases))
