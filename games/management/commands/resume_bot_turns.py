"""Queue the computer's pending actions again: run when a task-queue worker starts."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import bots


class Command(BaseCommand):
    help = ("Queue the computer's action in every match where a built-in computer account "
            "may act now (a job lost with a crashed worker is made again; a surviving one "
            "then does nothing). Run it when the worker starts (scripts/run.sh does).")

    def handle(self, *args: Any, **options: Any) -> None:
        queued = bots.resume()
        if options["verbosity"]:
            self.stdout.write(f"queued the computer's turn in {queued} match(es)")
