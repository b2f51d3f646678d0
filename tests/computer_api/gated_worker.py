"""``python -m tests.computer_api.gated_worker DIR [db_worker options]``: the project's
``manage.py db_worker`` whose computer, once it has a decision to make, writes
``DIR/deciding`` and then waits for ever — a worker caught mid-turn, for the test to
SIGKILL (tests/computer_api/test_worker_crash.py). The hook lives here, in the tests,
not in the production modules."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def main(gate: Path, options: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games import bots

    def decide(*args: Any, **kwargs: Any) -> None:
        (gate / "deciding").write_text(str(os.getpid()))
        while True:
            time.sleep(1)

    bots.decide = decide  # type: ignore[assignment]
    call_command("db_worker", *options)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
