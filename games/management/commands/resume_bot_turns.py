"""Queue the computer's pending actions again (each worker also does this when it starts)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import tasks


class Command(BaseCommand):
    help = ("Reclaim the computer's jobs left RUNNING by a worker without a live lease, and "
            "queue the computer's action in every match where a built-in computer account "
            "may act now and no job is pending for it. `manage.py db_worker` does this "
            "itself when it starts; run it by hand after restoring a database, say.")

    def handle(self, *args: Any, **options: Any) -> None:
        reclaimed = tasks.reclaim()
        queued = tasks.resume()
        if options["verbosity"]:
            self.stdout.write(f"reclaimed {reclaimed} lost job(s); queued the computer's "
                              f"turn in {queued} match(es)")
