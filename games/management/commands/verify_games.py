"""Replay every stored game through the engine and report any that differ from its snapshot."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.replay import replay_problems


class Command(BaseCommand):
    help = "Replay every stored game from its per-move records and compare with its snapshot."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--match", type=int, help="Only this match's games.")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("match_id", "number")
        if options["match"]:
            games = games.filter(match_id=options["match"])
        checked = bad = 0
        for game in games.iterator():
            checked += 1
            problems = replay_problems(game)
            if problems:
                bad += 1
                for problem in problems:
                    self.stdout.write(f"match {game.match_id} game {game.number}: {problem}")
        self.stdout.write(f"{checked} games replayed, {bad} differ.")
        if bad:
            raise CommandError(f"{bad} of {checked} games differ from their replay.")
