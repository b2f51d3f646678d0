"""Create a finished demo match of each rule set between ``demo`` and ``rival`` (idempotent).

Each match is a record written with dice the demo's plans choose (:mod:`games.demo`) and
loaded through the import of match records, which plays it through the one turn path and
labels it as imported: 3-point matches that White (``demo``) wins, with mars (gammon)
games — the Long Nardy one 4-1 with two mars games. Run ``seed_demo`` first; a rule set
that already has a finished ``demo`` v ``rival`` match with a mars is left alone.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from games import demo, importing
from games.models import Match, MatchStatus
from nardy import DEFAULT_RULES, RULESETS

DEMO_WHITE, DEMO_BLACK = "demo", "rival"


def demo_match(rules: str = DEFAULT_RULES) -> Match | None:
    """The finished demo match of ``rules`` with a mars (or gammon), if it exists."""
    return (Match.objects.filter(white__username=DEMO_WHITE, black__username=DEMO_BLACK,
                                 rules=rules, status=MatchStatus.FINISHED, games__mars=True)
            .order_by("created_at", "id").first())


class Command(BaseCommand):
    help = ("Create a finished 3-point demo match (with a mars) of each rule set between the "
            "demo players 'demo' and 'rival', unless one exists. Run seed_demo first.")

    def handle(self, *args: Any, **options: Any) -> None:
        users = {u.username.lower(): u for u in User.objects.filter(
            username__in=(DEMO_WHITE, DEMO_BLACK))}
        if len(users) != 2:
            raise CommandError("the demo players 'demo' and 'rival' are missing: "
                               "run 'manage.py seed_demo' first")
        for rules in list(RULESETS):
            existing = demo_match(rules)
            if existing is not None:
                self.stdout.write(f"  {rules} demo match exists: "
                                  f"/admin/games/match/{existing.pk}/change/")
                continue
            white, black = users[DEMO_WHITE], users[DEMO_BLACK]
            with transaction.atomic():
                match = importing.match_import(
                    text=demo.demo_record(white.username, black.username, rules=rules),
                    by=white)
                if not match.games.filter(mars=True).exists():  # pragma: no cover - a guard
                    raise CommandError(f"the planned dice gave no mars in {rules}")
            self.stdout.write(f"  {rules} demo match {match.pk}: {DEMO_WHITE} v {DEMO_BLACK}, "
                              f"{match.score_white}-{match.score_black}, at "
                              f"/admin/games/match/{match.pk}/change/")
