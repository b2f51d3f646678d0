"""Create a finished demo match of each rule set between ``demo`` and ``rival`` (idempotent).

Each match is played through :mod:`games.services` exactly as the API plays it, with a
deterministic dice source instead of ``secrets`` (as ``tests/games/play.py`` does over
HTTP): 3-point matches that White (``demo``) wins, with mars (gammon) games — the Long
Nardy one 4-1 with two mars games. Run ``seed_demo`` first; a rule set that already has
a finished ``demo`` v ``rival`` match with a mars is left alone.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from games import services
from games.dice import DicePlan, fair, favour, planned
from games.models import Color, GamePhase, Match, MatchStatus
from nardy import DEFAULT_RULES, RULESETS

DEMO_WHITE, DEMO_BLACK = "demo", "rival"
DEMO_SEED = 0

def play_match(white: Any, black: Any, *, length: int = 3, rules: str = DEFAULT_RULES,
               plans: tuple[DicePlan, ...] = (favour(Color.WHITE), fair, favour(Color.WHITE)),
               seed: int = DEMO_SEED, max_turns: int = 4000) -> Match:
    """Play a whole match through the services; game ``n`` rolls with ``plans[n - 1]``
    (the last plan repeats). Each turn plays the first legal step until the turn ends."""
    rng = random.Random(seed)
    queue: list[int] = []
    with planned(queue):
        match = services.match_create(user=white, length=length, opponent=black.username,
                                      color=Color.WHITE, rules=rules)
        services.match_join(match_id=match.pk, user=black)
        for _ in range(max_turns):
            match = Match.objects.select_related("current_game").get(pk=match.pk)
            if match.status != MatchStatus.ACTIVE:
                return match
            game = match.current_game
            assert game is not None
            if game.phase == GamePhase.ROLL_OFF:  # White starts (R7, H4-H5)
                queue += [6] if game.rolloff_white is None else [1]
                roller = white if game.rolloff_white is None else black
                services.match_roll(match_id=match.pk, user=roller)
                continue
            player = white if game.turn == Color.WHITE else black
            if game.phase == GamePhase.MOVE:  # backgammon's opening roll, played at once
                state = game.turn_state()
            else:
                plan = plans[min(game.number, len(plans)) - 1]
                queue.extend(plan(game.turn, rng))
                state = services.match_roll(match_id=match.pk, user=player).state
            if state is None:  # the roll passed at once (R23)
                continue
            steps = []
            while not state.is_turn_over():
                step = state.legal_steps()[0]
                steps.append(step)
                state = state.apply(step)
            services.match_move(match_id=match.pk, user=player, steps=steps)
    raise CommandError("the demo match did not finish")


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
            with transaction.atomic():
                match = play_match(users[DEMO_WHITE], users[DEMO_BLACK], rules=rules)
                if not match.games.filter(mars=True).exists():  # pragma: no cover - a guard
                    raise CommandError(f"the planned dice gave no mars in {rules}")
            self.stdout.write(f"  {rules} demo match {match.pk}: {DEMO_WHITE} v {DEMO_BLACK}, "
                              f"{match.score_white}-{match.score_black}, at "
                              f"/admin/games/match/{match.pk}/change/")
