"""Rebuild a finished match from its text record (docs/notation.md, "Match record")."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from games.importing import RecordRefused, match_import


class Command(BaseCommand):
    help = ("Import a match record (a file, or '-' for standard input) played elsewhere, e.g. "
            "over the board. The record is checked move by move; a refused record names its "
            "line and nothing is written.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="The record's file, or '-' to read standard input.")
        parser.add_argument("--by", default="",
                            help="Username recorded as the match's creator (default: the "
                                 "record's White player).")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        by = None
        if options["by"]:
            by = User.objects.named(options["by"]).first()
            if by is None:
                raise CommandError(f"no user named {options['by']!r}")
        try:
            match = match_import(text=text, by=by)
        except RecordRefused as exc:
            raise CommandError(f"{path}: {exc.message}") from None
        games = match.games.count()
        self.stdout.write(f"Imported match {match.pk}: {match.white} v {match.black}, "
                          f"{match.winner} wins {match.score_white}-{match.score_black} "
                          f"({games} game{'s' if games != 1 else ''}).")
