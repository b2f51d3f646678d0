"""One replay of a stored game (games.replay.GameReplay) feeds every reader of its
records: ``verify_games``, the positions of the page's replay and the game review's
inputs agree on a game with two accepted offers and a resignation in the middle of a
turn (and on one a refused offer ends), and each of them walks the records once,
through that replay."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import replay, selectors, services
from games.models import Game, Match
from games.replay import GameReplay, replay_problems
from games.selectors import board_json
from nardy import WHITE
from reviews.inputs import game_inputs
from tests.dice import planned

pytestmark = pytest.mark.django_db


def _roll_and_play(match: Match, user: Any, rng: random.Random, queue: list[int],
                   steps: int | None = None) -> None:
    """The side to roll rolls and plays random legal steps (``steps`` of them, or all)."""
    queue.extend(rng.randint(1, 6) for _ in range(2))
    services.match_roll(match_id=match.pk, user=user)
    played = 0
    while steps is None or played < steps:
        game = selectors.match_get(match.pk).current_game
        state = game.turn_state() if game is not None else None
        if state is None:
            return
        services.match_move(match_id=match.pk, user=user,
                            steps=[rng.choice(state.legal_steps())])
        played += 1


def _opening(match: Match, user: Any, rng: random.Random, queue: list[int]) -> None:
    """The roll-off (White starts with 5-2) and the opening turn, which plays its dice (H4)."""
    queue.extend((5, 2))
    services.match_roll(match_id=match.pk, user=user)
    services.match_roll(match_id=match.pk, user=user)
    game = selectors.match_get(match.pk).current_game
    while game.turn_state() is not None:
        services.match_move(match_id=match.pk, user=user,
                            steps=[rng.choice(game.turn_state().legal_steps())])
        game = selectors.match_get(match.pk).current_game


def _game_with_offers_and_a_resignation(user: Any) -> Game:
    """A hotseat cube match's first game: a raise accepted before turn 3, another offered
    by its taker before turn 6 and accepted, then a resignation after one step of turn 8
    (which ends the match: four times a gammon or more)."""
    rng = random.Random(7)
    queue: list[int] = []
    with planned(queue):
        match = services.match_create(user=user, length=7, hotseat=True, rules="backgammon",
                                      stakes="cube")
        _opening(match, user, rng, queue)                        # turn 1
        _roll_and_play(match, user, rng, queue)                  # turn 2
        services.match_offer(match_id=match.pk, user=user)       # before turn 3
        services.match_accept(match_id=match.pk, user=user)
        _roll_and_play(match, user, rng, queue)                  # turn 3
        _roll_and_play(match, user, rng, queue)                  # turn 4
        _roll_and_play(match, user, rng, queue)                  # turn 5
        services.match_offer(match_id=match.pk, user=user)       # by the taker, turn 6
        services.match_accept(match_id=match.pk, user=user)
        _roll_and_play(match, user, rng, queue)                  # turn 6
        _roll_and_play(match, user, rng, queue)                  # turn 7
        _roll_and_play(match, user, rng, queue, steps=1)         # turn 8, one step
        services.match_resign(match_id=match.pk, user=user)
    return Game.objects.select_related("match").get(match=match, number=1)


def _game_ended_by_a_refusal(user: Any) -> Game:
    """A hotseat cube match's first game: a raise refused before turn 3."""
    rng = random.Random(8)
    queue: list[int] = []
    with planned(queue):
        match = services.match_create(user=user, length=3, hotseat=True, rules="backgammon",
                                      stakes="cube")
        _opening(match, user, rng, queue)
        _roll_and_play(match, user, rng, queue)
        services.match_offer(match_id=match.pk, user=user)
        services.match_refuse(match_id=match.pk, user=user)
    return Game.objects.select_related("match").get(match=match, number=1)


def test_verify_positions_and_review_read_one_replay(make_user, monkeypatch):
    user = make_user()
    game = _game_with_offers_and_a_resignation(user)
    match = game.match
    assert [o["answer"] for o in game.offers] == ["accept", "accept"]
    assert game.end_reason == "resigned" and game.stake == 4
    last = game.turn_records.order_by("number").last()
    assert last is not None and len(last.steps) == 1  # resigned in the middle of a turn

    walks: list[int] = []
    real_turns = GameReplay.turns

    def counted(self: GameReplay):
        walks.append(self.stored.pk)
        return real_turns(self)

    monkeypatch.setattr(GameReplay, "turns", counted)
    one = GameReplay(game)
    walked = list(one.turns())
    one.finish()
    assert [t.number for t in walked] == list(range(1, game.turns + 1))
    assert [(o.before_turn, o.stake_before, o.stake, o.answer)
            for t in walked for o in t.offers] == [(3, 1, 2, "accept"), (6, 2, 4, "accept")]
    assert one.final_offers == () and one.offers == []
    assert one.game.position_key == game.position_key and one.game.winner == game.winner
    walks.clear()

    # verify_games: the snapshot is the replay's.
    assert replay_problems(game) == []
    out = StringIO()
    call_command("verify_games", match=match.pk, stdout=out)
    assert "1 games replayed, 0 differ." in out.getvalue()
    assert walks == [game.pk, game.pk]
    walks.clear()

    # The positions: the board after each replayed turn (the last one's after its step).
    body = APIClient().get(f"/api/v1/matches/{match.pk}/games/1/positions/").json()
    assert walks == [game.pk]
    assert [p["board"] for p in body] == [
        board_json(match.ruleset.initial(), WHITE),
        *(board_json(t.after, WHITE) for t in walked)]
    assert body[-1]["board"] == board_json(game.position, WHITE)
    walks.clear()

    # The review: every complete turn as played, its offers as its stake decisions.
    turns, decisions, result = game_inputs(game)
    assert walks == [game.pk]
    complete = [t for t in walked if t.complete]
    assert len(complete) == len(walked) - 1  # the resigned turn is not reviewed
    assert [(t.position, t.side, t.dice, t.first_turn, t.steps, t.stake) for t in turns] == [
        (t.before, t.side, t.dice, t.first_turn, t.steps, t.stake) for t in complete]
    assert [t.stake for t in turns][-1] == 4
    assert [(d.before_turn, d.by, d.stake, d.next_stake, d.accepted) for d in decisions] == [
        (o.before_turn, o.by, o.stake_before, o.stake, True)
        for t in walked for o in t.offers]
    assert result == (1 if game.winner == "white" else -1) * game.points_won / game.stake


def test_a_refused_offer_after_the_last_turn_is_the_replay_s_final_offer(make_user):
    second = _game_ended_by_a_refusal(make_user())
    walk = GameReplay(second)
    assert len(list(walk.turns())) == 2
    walk.finish()
    assert [(o.before_turn, o.answer) for o in walk.final_offers] == [(3, "refuse")]
    assert walk.game.end_reason == second.end_reason == "refused"
    assert replay.replay_problems(second) == []
    turns, decisions, _ = game_inputs(second)
    assert len(turns) == 2 and decisions == []  # the review reads no final offer
