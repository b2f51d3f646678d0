"""Export → import round-trips every stored match exactly, in every rule set.

A property over random whole matches: each seed plays a whole match through the
services with random legal steps, random resignations and (in hotseat) random dice;
its record must import back to the same text, the same games, per-move records and
events, and the import must replay clean (a real exported match was once refused as
"1/off can be played with a 2 or 1").
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import selectors, services
from games.importing import match_import
from games.models import Match, Turn, rules_names
from games.replay import replay_problems
from nardy import AskedStep
from tests.dice import planned

pytestmark = pytest.mark.django_db


def _history(match: Match) -> dict[str, Any]:
    """Everything the record stands for, without ids and times."""
    games = [(g.number, g.starter, g.winner, g.points_won, g.mars, g.result, g.end_reason,
              g.turns, g.position_key, g.white_first_turn, g.black_first_turn)
             for g in match.games.order_by("number")]
    turns = [(t.game.number, t.number, t.side, t.dice, t.steps, t.pass_reason, t.position_after)
             for t in Turn.objects.filter(game__match=match).select_related("game")
             .order_by("game__number", "number")]
    return {"match": (match.rules, match.length, match.score_white, match.score_black,
                      match.status, match.winner), "games": games, "turns": turns}


def _play_randomly(user: Any, rules: str, seed: int, *, length: int = 3,
                   stakes: str = "none", offer_at: int | None = None,
                   offers: float = 0.0, resign_offers: float = 0.0) -> Match:
    """A random whole hotseat match of legal steps and resignations. With a cube (or
    dave) in ``stakes``: ``offer_at``, each game's stake raised before its turn
    ``offer_at`` and accepted; ``offers`` > 0, a raise offered before that share of rolls,
    taken 7 times in 10, else refused. ``resign_offers`` > 0: before that share of rolls
    (and after as many), an offer to resign with a random cheaper result, accepted once
    in 3, else refused."""
    rng = random.Random(seed)
    queue: list[int] = []
    with planned(queue):
        match = services.match_create(user=user, length=length, hotseat=True, rules=rules,
                                      stakes=stakes)
        for _ in range(20000 if offers else 6000):
            match = selectors.match_get(match.pk)
            assert match is not None
            if match.status != "active":
                return match
            game = match.current_game
            assert game is not None
            if game.phase == "offer":
                if offers:
                    answer = (services.match_accept if rng.random() < 0.7
                              else services.match_refuse)
                    answer(match_id=match.pk, user=user)
                else:
                    services.match_accept(match_id=match.pk, user=user)
                continue
            if game.phase == "resign":
                answer = (services.match_resign_accept if rng.random() < 1 / 3
                          else services.match_resign_refuse)
                answer(match_id=match.pk, user=user)
                continue
            cheaper = (selectors.match_state(match, user) or {}).get("resign") or {}
            if (resign_offers and cheaper.get("offers") and rng.random() < resign_offers):
                services.match_resign(match_id=match.pk, user=user,
                                      offer=rng.choice(cheaper["offers"])["result"])
                continue
            if (offer_at is not None and game.phase == "roll" and game.stake == 1
                    and game.turns + 1 == offer_at):
                services.match_offer(match_id=match.pk, user=user)
                continue
            if game.phase in ("roll-off", "roll"):
                if game.phase == "roll" and rng.random() < 0.003:
                    services.match_resign(match_id=match.pk, user=user)
                    continue
                if offers and game.phase == "roll" and rng.random() < offers:
                    try:
                        services.match_offer(match_id=match.pk, user=user)
                        continue
                    except Exception:  # not this side's cube, or the Crawford game
                        pass
                queue.extend(rng.randint(1, 6) for _ in range(2))
                services.match_roll(match_id=match.pk, user=user)
                continue
            state = game.turn_state()
            assert state is not None
            if rng.random() < 0.002:  # a resignation in the middle of a turn
                services.match_resign(match_id=match.pk, user=user)
                continue
            step = rng.choice(state.legal_steps())
            # Bear-offs are sent without their die where the rules can tell it (R26, H12).
            die = None if step.dst == 0 and rng.random() < 0.5 else step.die
            try:
                services.match_move(match_id=match.pk, user=user,
                                    steps=[AskedStep(step.src, step.dst, die)])
            except Exception:  # an ambiguous die: name it
                services.match_move(match_id=match.pk, user=user,
                                    steps=[step])
    raise AssertionError("the match did not finish")


@pytest.mark.parametrize("rules", rules_names())
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_whole_match_exports_and_imports_back_exactly(make_user, rules, seed):
    user = make_user()
    original = _play_randomly(user, rules, seed)
    text = selectors.record_text(original)
    copy = match_import(text=text, by=user)
    assert selectors.record_text(copy) == text
    assert _history(copy) == _history(original)
    for game in copy.games.all():
        assert replay_problems(game) == [], (rules, seed, game.number)


@pytest.mark.parametrize("rules", rules_names())
def test_a_random_match_with_offers_to_resign_exports_and_imports_back(make_user, rules):
    """Offers to resign with a result, refused and accepted, before and after rolls: the
    export names each accepted one as its result, the import plays it again."""
    user = make_user()
    original = _play_randomly(user, rules, 3, resign_offers=0.05)
    assert any(g.resign_offers for g in original.games.all())
    text = selectors.record_text(original)
    copy = match_import(text=text, by=user)
    assert selectors.record_text(copy) == text
    assert _history(copy) == _history(original)
    for game in original.games.all():
        assert replay_problems(game) == [], (rules, game.number)
    for game in copy.games.all():
        assert replay_problems(game) == [], (rules, game.number)
