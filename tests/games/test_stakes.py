"""Stakes through the HTTP API, rule by rule (RULES-FAMILY S1-S7; API.md "Additions").

Each test names the S-rule it holds the product to. The match is created by alice
(White) inviting bob (Black); the roll-off (6, 1) makes White the starter.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games import importing
from games.models import Event, Game, Match
from games.replay import replay_problems
from tests.support import Seat, assert_error, set_board

pytestmark = pytest.mark.django_db


def stake_match(white: Seat, black: Seat, script: Any, *, stakes: str = "cube",
                length: int = 3, progression: str | None = None,
                rules: str = "long_nardy") -> int:
    body: dict[str, Any] = {"length": length, "opponent": black.user.username,
                            "color": "white", "stakes": stakes, "rules": rules}
    if progression is not None:
        body["progression"] = progression
    created = white.create(**body)
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    black.ok(match_id, "join")
    script(6, 1)
    white.ok(match_id, "roll")
    black.ok(match_id, "roll")
    return match_id


def event_data(match_id: int, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in Event.objects.filter(match_id=match_id, type=type_).order_by("seq")]


def reason_of(response: Any, status: int, code: str) -> str:
    return assert_error(response, status, code)["details"].get("reason")


def play_out_turn(seat: Seat, match_id: int, dice: tuple[int, int], script: Any
                  ) -> dict[str, Any]:
    """Roll ``dice`` and play the first legal step until the turn is over."""
    script(*dice)
    match = seat.ok(match_id, "roll")
    side = match["state"]["turn"]
    while (match["status"] == "active" and match["state"]["phase"] == "move"
           and match["state"]["turn"] == side):
        match = seat.ok(match_id, "moves", {"steps": [match["state"]["legal_steps"][0]]})
    return match


# --- S1, S2: the stake and who may offer --------------------------------------------------


def test_S1_S2_a_game_starts_at_stake_1_and_both_may_offer(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    match = alice.get(match_id)
    assert (match["stakes"], match["progression"], match["crawford_game"]) == (
        "cube", "geometric", None)
    state = match["state"]
    assert (state["phase"], state["turn"]) == ("roll", "white")
    assert (state["stake"], state["may_offer"], state["offer"]) == (1, "both", None)
    games = alice.client.get(f"/api/v1/matches/{match_id}/games/").json()
    assert (games[0]["stake"], games[0]["offers"], games[0]["result"]) == (1, [], None)


def test_S2_S4_after_each_accepted_raise_only_the_acceptor_may_offer(alice, bob,
                                                                     scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    offered = alice.ok(match_id, "offer")
    state = offered["state"]
    assert (state["phase"], state["turn"], state["offer"]) == (
        "offer", "black", {"by": "white", "stake": 2})
    assert (state["stake"], state["may_offer"]) == (1, "both")
    accepted = bob.ok(match_id, "accept")["state"]
    assert (accepted["phase"], accepted["turn"], accepted["stake"]) == ("roll", "white", 2)
    assert (accepted["may_offer"], accepted["offer"]) == ("black", None)
    # S2: White offered, so White may not offer the next raise; it rolls (S4).
    assert reason_of(alice.post(match_id, "offer"), 409, "wrong_phase") == "not_holder"
    match = play_out_turn(alice, match_id, (6, 5), scripted_dice)
    assert match["state"]["turn"] == "black" and match["state"]["phase"] == "roll"
    # Black holds the right: it offers 4, White accepts, and the right is White's.
    assert bob.ok(match_id, "offer")["state"]["offer"] == {"by": "black", "stake": 4}
    state = alice.ok(match_id, "accept")["state"]
    assert (state["stake"], state["may_offer"], state["turn"]) == (4, "white", "black")
    assert [(e["side"], e["stake"]) for e in event_data(match_id, "offer")] == [
        ("white", 2), ("black", 4)]
    assert [(e["side"], e["stake"]) for e in event_data(match_id, "accept")] == [
        ("black", 2), ("white", 4)]
    types = list(Event.objects.filter(match_id=match_id, type__in=(
        "offer", "accept", "roll")).order_by("seq").values_list("type", flat=True))
    assert types == ["offer", "accept", "roll", "offer", "accept"]
    moves = alice.client.get(f"/api/v1/matches/{match_id}/games/1/moves/").json()
    assert moves[0]["offer"] == {"by": "white", "stake": 2, "answer": "accept"}
    games = alice.client.get(f"/api/v1/matches/{match_id}/games/").json()
    assert games[0]["offers"] == [
        {"before_turn": 1, "by": "white", "stake": 2, "answer": "accept"},
        {"before_turn": 2, "by": "black", "stake": 4, "answer": "accept"}]


def test_S4_accept_then_the_offerer_rolls(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    scripted_dice(3, 1)
    rolled = alice.ok(match_id, "roll")
    assert rolled["dice"] == [3, 1] and rolled["state"]["phase"] == "move"
    assert rolled["state"]["stake"] == 2


# --- S3: when ----------------------------------------------------------------------------


def test_S3_no_offer_after_rolling(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    scripted_dice(6, 5)
    alice.ok(match_id, "roll")
    assert reason_of(alice.post(match_id, "offer"), 409, "wrong_phase") == "dice_rolled"


def test_S3_no_offer_during_the_roll_off(alice, bob, scripted_dice):
    created = alice.create(length=3, opponent="bob", color="white", stakes="cube").json()
    bob.ok(created["id"], "join")
    assert reason_of(alice.post(created["id"], "offer"), 409, "wrong_phase") == "roll_off"
    scripted_dice(4)
    alice.ok(created["id"], "roll")
    assert reason_of(bob.post(created["id"], "offer"), 409, "wrong_phase") == "roll_off"
    assert alice.get(created["id"])["state"]["phase"] == "roll-off"


def test_S3_no_offer_by_the_side_not_to_roll(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    error = assert_error(bob.post(match_id, "offer"), 409, "not_your_turn")
    assert error["details"] == {"turn": "white"}


def test_S3_nothing_else_happens_while_an_offer_waits(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    version = alice.ok(match_id, "offer")["version"]
    assert_error(alice.post(match_id, "roll"), 409, "not_your_turn")
    assert_error(bob.post(match_id, "roll"), 409, "wrong_phase")
    assert_error(alice.post(match_id, "offer"), 409, "not_your_turn")
    assert reason_of(bob.post(match_id, "offer"), 409, "wrong_phase") == "offer_waiting"
    assert_error(alice.post(match_id, "accept"), 409, "not_your_turn")
    assert_error(alice.post(match_id, "refuse"), 409, "not_your_turn")
    assert_error(bob.post(match_id, "moves", {"steps": [{"from": 24, "to": 18}]}),
                 409, "wrong_phase")
    assert alice.get(match_id)["version"] == version


def test_S4_accept_or_refuse_with_no_offer_waiting(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    assert_error(alice.post(match_id, "accept"), 409, "wrong_phase")
    assert_error(alice.post(match_id, "refuse"), 409, "wrong_phase")
    assert_error(bob.post(match_id, "accept"), 409, "not_your_turn")


def test_S3_S7_backgammon_no_offer_before_the_opening_roll(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, rules="backgammon")
    state = alice.get(match_id)["state"]
    assert (state["phase"], state["turn"], state["dice"]) == ("move", "white", [6, 1])
    assert reason_of(alice.post(match_id, "offer"), 409, "wrong_phase") == "dice_rolled"
    match = alice.get(match_id)
    while match["state"]["turn"] == "white":
        match = alice.ok(match_id, "moves", {"steps": [match["state"]["legal_steps"][0]]})
    # Black's first turn: before its roll, it may offer.
    assert bob.ok(match_id, "offer")["state"]["offer"] == {"by": "black", "stake": 2}


# --- S4: refuse ------------------------------------------------------------------------


def test_S4_refuse_loses_the_game_at_the_stake_before_the_offer(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, length=5)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    play_out_turn(alice, match_id, (6, 5), scripted_dice)
    bob.ok(match_id, "offer")  # 4
    refused = alice.ok(match_id, "refuse")
    assert refused["score"] == {"white": 0, "black": 2}
    state = refused["state"]
    assert (state["game"], state["phase"], state["stake"], state["may_offer"]) == (
        2, "roll", 1, "both")
    assert state["turn"] == "white"  # R8: the loser starts
    assert event_data(match_id, "refuse") == [
        {"game": 1, "side": "white", "stake": 2, "offered": 4}]
    over = event_data(match_id, "game_over")[-1]
    assert over == {"game": 1, "winner": "black", "points": 2, "mars": False,
                    "result": "refused", "reason": "refused", "stake": 2,
                    "score": {"white": 0, "black": 2}}
    games = alice.client.get(f"/api/v1/matches/{match_id}/games/").json()
    assert (games[0]["stake"], games[0]["result"], games[0]["points"],
            games[0]["end_reason"]) == (2, "refused", 2, "refused")
    assert games[0]["offers"][-1] == {"before_turn": 2, "by": "black", "stake": 4,
                                      "answer": "refuse"}
    assert replay_problems(Game.objects.get(match_id=match_id, number=1)) == []


# --- S4, S5: progressions and the cap ----------------------------------------------------


def _raise_times(white: Seat, black: Seat, match_id: int, times: int) -> list[int]:
    """Offer and accept ``times`` times, each side using its right in turn (hotseat-free:
    the holder offers at its own turn start, so the other plays a turn in between)."""
    stakes = []
    seats = {"white": white, "black": black}
    for _ in range(times):
        state = white.get(match_id)["state"]
        offerer = seats[state["turn"]]
        answerer = seats["black" if state["turn"] == "white" else "white"]
        offerer.ok(match_id, "offer")
        stakes.append(answerer.ok(match_id, "accept")["state"]["stake"])
        # The acceptor holds the right; the offerer rolls a turn so the acceptor is next.
        game = Game.objects.get(match_id=match_id, number=1)
        game.turn = game.stake_holder
        game.save()
    return stakes


def test_S4_geometric_progression_1_2_4_8(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave")
    assert _raise_times(alice, bob, match_id, 4) == [2, 4, 8, 16]


def test_S4_arithmetic_progression_1_2_3_4(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave", progression="arithmetic")
    assert alice.get(match_id)["progression"] == "arithmetic"
    assert _raise_times(alice, bob, match_id, 4) == [2, 3, 4, 5]


def test_S5_the_stake_stops_at_64_and_no_one_may_offer(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice)
    assert _raise_times(alice, bob, match_id, 6) == [2, 4, 8, 16, 32, 64]
    state = alice.get(match_id)["state"]
    assert (state["stake"], state["may_offer"]) == (64, "none")
    seat = alice if state["turn"] == "white" else bob
    assert reason_of(seat.post(match_id, "offer"), 409, "wrong_phase") == "cap"


def test_S5_arithmetic_never_passes_64(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave", progression="arithmetic")
    Game.objects.filter(match_id=match_id).update(stake=63)
    alice.ok(match_id, "offer")
    assert bob.ok(match_id, "accept")["state"]["stake"] == 64
    assert alice.get(match_id)["state"]["may_offer"] == "none"


# --- S6: points ----------------------------------------------------------------------


def _win_on_the_board(white: Seat, black: Seat, match_id: int, script: Any,
                      points: dict[int, int]) -> dict[str, Any]:
    """White bears off its last checker at once (dice 1-1 from point 1)."""
    set_board(match_id, points, off_mine=14)
    script(1, 1)
    rolled = white.ok(match_id, "roll")
    return white.ok(match_id, "moves", {"steps": [{"from": 1, "to": 0}]}) if (
        rolled["state"]["phase"] == "move") else rolled


def test_S6_cube_multiplies_the_mars(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, length=7)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    match = _win_on_the_board(alice, bob, match_id, scripted_dice, {1: 1, 12: -15})
    assert match["score"] == {"white": 4, "black": 0}
    assert event_data(match_id, "game_over")[-1] == {
        "game": 1, "winner": "white", "points": 4, "mars": True, "result": "mars",
        "reason": "borne_off", "stake": 2, "score": {"white": 4, "black": 0}}


def test_S6_dave_scores_the_stake_without_mars(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave", length=7)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    match = _win_on_the_board(alice, bob, match_id, scripted_dice, {1: 1, 12: -15})
    assert match["score"] == {"white": 2, "black": 0}
    over = event_data(match_id, "game_over")[-1]
    assert (over["points"], over["mars"], over["result"], over["stake"]) == (
        2, False, "single", 2)
    games = alice.client.get(f"/api/v1/matches/{match_id}/games/").json()
    assert (games[0]["result"], games[0]["mars"], games[0]["points"]) == ("single", False, 2)


def test_S6_cube_multiplies_a_backgammon_gammon(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, rules="backgammon", length=7)
    match = alice.get(match_id)
    while match["state"]["turn"] == "white":  # the opening turn, then Black offers
        match = alice.ok(match_id, "moves", {"steps": [match["state"]["legal_steps"][0]]})
    bob.ok(match_id, "offer")
    alice.ok(match_id, "accept")
    Game.objects.filter(match_id=match_id).update(turn="white")
    match = _win_on_the_board(alice, bob, match_id, scripted_dice, {1: 1, 19: -15})
    over = event_data(match_id, "game_over")[-1]
    assert (over["points"], over["mars"], over["result"], over["stake"]) == (
        4, True, "gammon", 2)
    assert match["score"] == {"white": 4, "black": 0}


def test_S6_dave_backgammon_position_is_single(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, rules="short_nardy", stakes="dave",
                           length=7)
    _win_on_the_board(alice, bob, match_id, scripted_dice, {1: 1, 3: -15})
    over = event_data(match_id, "game_over")[-1]
    assert (over["points"], over["mars"], over["result"]) == (1, False, "single")


# --- H16/S6: resignation with a stake ------------------------------------------------


def test_H16_S6_resigning_with_the_cube_concedes_stake_times_the_position(alice, bob,
                                                                         scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, length=7)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    resigned = bob.ok(match_id, "resign")  # Black has borne off nothing: a mars (R30)
    assert resigned["score"] == {"white": 4, "black": 0}
    over = event_data(match_id, "game_over")[-1]
    assert (over["points"], over["mars"], over["result"], over["stake"]) == (
        4, True, "resigned", 2)


def test_H16_S6_resigning_with_dave_concedes_the_stake(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave", length=7)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "accept")
    resigned = bob.ok(match_id, "resign")
    assert resigned["score"] == {"white": 2, "black": 0}
    over = event_data(match_id, "game_over")[-1]
    assert (over["points"], over["mars"], over["result"]) == (2, False, "resigned")


def test_H16_resigning_while_an_offer_waits_concedes_the_current_stake(alice, bob,
                                                                       scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave", length=7)
    alice.ok(match_id, "offer")
    resigned = bob.ok(match_id, "resign")
    assert resigned["score"] == {"white": 1, "black": 0}
    assert resigned["state"]["offer"] is None and resigned["state"]["game"] == 2
    assert replay_problems(Game.objects.get(match_id=match_id, number=1)) == []


# --- S7: Crawford and the 1-point match --------------------------------------------------


def test_S7_no_offers_in_the_crawford_game_and_again_after_it(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, length=5)
    bob.ok(match_id, "resign")  # game 1: a mars, 2-0
    match = bob.ok(match_id, "resign")  # game 2: 4-0, White is one short of 5
    assert match["score"] == {"white": 4, "black": 0}
    assert (match["crawford_game"], match["state"]["game"]) == (3, 3)
    state = match["state"]
    assert (state["may_offer"], state["turn"]) == ("none", "black")
    assert reason_of(bob.post(match_id, "offer"), 409, "wrong_phase") == "crawford"
    match = alice.ok(match_id, "resign")  # the Crawford game: 4-2
    assert match["state"]["game"] == 4 and match["state"]["may_offer"] == "both"
    assert match["state"]["turn"] == "white"
    alice.ok(match_id, "offer")
    match = bob.ok(match_id, "refuse")  # 5-2: the match is over
    assert match["status"] == "finished" and match["crawford_game"] == 3


def test_S7_once_per_match(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, length=5)
    bob.ok(match_id, "resign")
    bob.ok(match_id, "resign")  # 4-0: game 3 is the Crawford game
    alice.ok(match_id, "resign")  # 4-2
    match = alice.ok(match_id, "resign")  # 4-4: Black one short too, but once per match
    assert match["score"] == {"white": 4, "black": 4}
    assert (match["crawford_game"], match["state"]["may_offer"]) == (3, "both")


def test_S7_a_one_point_match_has_no_offers(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, length=1)
    assert alice.get(match_id)["state"]["may_offer"] == "none"
    assert reason_of(alice.post(match_id, "offer"), 409, "wrong_phase") == "one_point_match"


def test_no_stakes_no_offers(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="none")
    match = alice.get(match_id)
    assert (match["stakes"], match["state"]["may_offer"], match["state"]["stake"]) == (
        "none", "none", 1)
    assert reason_of(alice.post(match_id, "offer"), 409, "wrong_phase") == "no_stakes"


# --- options, versions, idempotency ---------------------------------------------------


@pytest.mark.parametrize("body, field", [
    ({"stakes": "cube", "progression": "arithmetic"}, "progression"),
    ({"progression": "arithmetic"}, "progression"),
    ({"stakes": "double"}, "stakes"),
    ({"stakes": "dave", "progression": "fibonacci"}, "progression"),
])
def test_stakes_options_are_validated(alice, body, field):
    error = assert_error(alice.create(length=3, **body), 400, "validation_error")
    assert field in error["details"]
    assert not Match.objects.exists()


def test_stakes_are_fixed_at_creation_and_kept_by_a_rematch(alice, bob, scripted_dice):
    match_id = stake_match(alice, bob, scripted_dice, stakes="dave", progression="arithmetic",
                           length=1)
    bob.ok(match_id, "resign")
    rematch = bob.ok(match_id, "rematch")
    assert (rematch["stakes"], rematch["progression"]) == ("dave", "arithmetic")


def ready_for(action: str, alice: Seat, bob: Seat, script: Any) -> tuple[int, Seat]:
    """A cube match where ``action`` (offer, accept, refuse) comes next: its id and the
    seat that takes it (White offers, Black answers)."""
    match_id = stake_match(alice, bob, script)
    if action != "offer":
        alice.ok(match_id, "offer")
    return match_id, alice if action == "offer" else bob


@pytest.mark.parametrize("action", ["offer", "accept", "refuse"])
def test_a_stale_expected_version_changes_nothing(alice, bob, scripted_dice, action):
    match_id, seat = ready_for(action, alice, bob, scripted_dice)
    before = alice.get(match_id)
    error = assert_error(seat.post(match_id, action, {"expected_version": before["version"] - 1}),
                         409, "version_conflict")
    assert error["details"] == {"version": before["version"],
                                "expected_version": before["version"] - 1}
    assert alice.get(match_id) == before
    assert seat.ok(match_id, action, {"expected_version": before["version"]})["version"] == (
        before["version"] + 1)


@pytest.mark.parametrize("action", ["offer", "accept", "refuse"])
def test_an_idempotency_key_replays_the_answer(alice, bob, scripted_dice, action):
    match_id, seat = ready_for(action, alice, bob, scripted_dice)
    url = seat.url(match_id, action)
    first = seat.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = seat.client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert len(event_data(match_id, action)) == 1
    other = seat.client.post(url, {"expected_version": 1}, format="json",
                             HTTP_IDEMPOTENCY_KEY="k-1")
    assert_error(other, 422, "idempotency_key_reused")


def test_hotseat_offers_and_answers(alice, scripted_dice):
    created = alice.create(length=3, hotseat=True, stakes="cube").json()
    scripted_dice(6, 1)
    alice.ok(created["id"], "roll")
    alice.ok(created["id"], "roll")
    assert alice.ok(created["id"], "offer")["state"]["turn"] == "black"
    state = alice.ok(created["id"], "accept")["state"]
    assert (state["stake"], state["may_offer"], state["turn"]) == (2, "black", "white")


# --- whole matches, the record, stats ------------------------------------------------


def test_a_whole_match_decided_by_a_refused_offer_exports_and_imports(alice, bob,
                                                                      scripted_dice, make_user,
                                                                      settings):
    settings.RATED_MIN_TURNS = 0  # rated however short (the minimum: tests/ratings)
    match_id = stake_match(alice, bob, scripted_dice, length=3)
    alice.ok(match_id, "offer")
    bob.ok(match_id, "refuse")  # game 1: White 1-0
    bob.ok(match_id, "offer")  # game 2: Black (the loser) starts
    alice.ok(match_id, "refuse")  # 1-1
    alice.ok(match_id, "offer")  # game 3: White starts
    bob.ok(match_id, "accept")  # stake 2
    play_out_turn(alice, match_id, (6, 5), scripted_dice)
    bob.ok(match_id, "offer")  # 4
    match = alice.ok(match_id, "refuse")  # Black scores 2: 1-3
    assert match["status"] == "finished" and match["winner"] == "black"
    assert match["score"] == {"white": 1, "black": 3}
    over = event_data(match_id, "match_over")
    assert over[0].pop("ratings")["black"]["change"] > 0  # rated by default
    assert over == [{"winner": "black", "score": {"white": 1, "black": 3}}]
    stats = alice.client.get("/api/v1/accounts/users/bob/").json()["stats"]
    assert (stats["games_won"], stats["points_won"], stats["points_lost"]) == (2, 3, 1)
    stats = alice.client.get("/api/v1/accounts/users/alice/").json()["stats"]
    assert (stats["games_lost"], stats["points_won"], stats["points_lost"]) == (2, 1, 3)
    call_command("verify_games", match=match_id)

    text = alice.client.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    assert "Stakes: cube\nProgression: geometric\n" in text
    assert "white offers 2\nblack refuses\nResult: black refuses, white wins 1 point; " \
           "score 1-0" in text
    assert "white offers 2\nblack accepts\n1. white 6-5:" in text
    assert "black offers 4\nwhite refuses\nResult: white refuses, black wins 2 points " \
           "(stake 2); score 1-3" in text
    imported = importing.match_import(text=text, by=make_user("staffer", is_staff=True))
    again = alice.client.get(f"/api/v1/matches/{imported.pk}/export/").content.decode()
    assert again.split("\n", 4)[4] == text.split("\n", 4)[4]  # all but the date headers
    assert (imported.stakes, imported.score_white, imported.score_black) == ("cube", 1, 3)
    call_command("verify_games", match=imported.pk)
    original = alice.client.get(f"/api/v1/matches/{match_id}/export/?format=json").json()
    copied = alice.client.get(f"/api/v1/matches/{imported.pk}/export/?format=json").json()
    for key in ("stakes", "progression", "score", "winner"):
        assert copied[key] == original[key]
    assert [(g["stake"], g["offers"], g["result"]) for g in copied["games"]] == [
        (g["stake"], g["offers"], g["result"]) for g in original["games"]]


@pytest.mark.parametrize("text, line, reason", [
    ("white offers 2\nblack accepts\nwhite offers 4\nblack accepts\n", 12, "offer"),
    ("white offers 3\nblack accepts\n", 10, "offer"),
    ("black offers 2\nwhite accepts\n", 10, "offer"),
    ("white offers 2\n", 11, "offer"),
])
def test_import_refuses_offers_the_rules_do_not_allow(alice, bob, text, line, reason):
    record = ("Long Nardy match record\nWhite: alice\nBlack: bob\nLength: 3\nStakes: cube\n"
              "Progression: geometric\n\nGame 1\nStarter: white\n" + text
              + "1. white 6-5: 24/18 18/13\nResult: black resigns, white wins 2 points "
                "(mars); score 2-0\n")
    with pytest.raises(importing.RecordRefused) as refused:
        importing.match_import(text=record)
    assert (refused.value.line, refused.value.details["reason"]) == (line, reason)


def test_import_refuses_a_result_with_the_wrong_stake(alice, bob):
    record = ("Long Nardy match record\nWhite: alice\nBlack: bob\nLength: 3\nStakes: cube\n\n"
              "Game 1\nStarter: white\nwhite offers 2\nblack accepts\n"
              "1. white 6-5: 24/18 18/13\nResult: black resigns, white wins 2 points (mars); "
              "score 2-0\n")
    with pytest.raises(importing.RecordRefused) as refused:
        importing.match_import(text=record)
    assert refused.value.line == 12 and refused.value.details["reason"] == "wrong_result"


def test_a_whole_backgammon_match_with_the_cube(alice, bob, scripted_dice):
    import random

    from tests.games.play import favour

    match_id = stake_match(alice, bob, scripted_dice, rules="backgammon", length=3)
    match = alice.get(match_id)
    while match["state"]["turn"] == "white":
        match = alice.ok(match_id, "moves", {"steps": [match["state"]["legal_steps"][0]]})
    bob.ok(match_id, "offer")
    match = alice.ok(match_id, "accept")
    assert match["state"]["stake"] == 2 and match["state"]["may_offer"] == "white"
    seats, rng = {"white": alice, "black": bob}, random.Random(3)
    plan = favour("white")
    for _ in range(400):
        if match["status"] != "active" or match["state"]["game"] != 1:
            break
        state = match["state"]
        mover = seats[state["turn"]]
        scripted_dice(*plan(state["turn"], rng))
        match = mover.ok(match_id, "roll")
        while (match["status"] == "active" and match["state"]["game"] == 1
               and match["state"]["phase"] == "move"):
            match = mover.ok(match_id, "moves", {"steps": [match["state"]["legal_steps"][0]]})
    over = event_data(match_id, "game_over")[0]
    assert over["stake"] == 2 and over["winner"] == "white"
    assert over["points"] == 2 * {"single": 1, "gammon": 2, "backgammon": 3}[over["result"]]
    assert match["score"]["white"] == over["points"]
    if match["status"] == "active":  # H5: every backgammon game begins with a roll-off
        assert match["state"]["phase"] == "roll-off" and match["state"]["stake"] == 1
        scripted_dice(2, 5)
        alice.ok(match_id, "roll")
        bob.ok(match_id, "roll")
        match = alice.ok(match_id, "resign")
        assert match["status"] == "finished" or match["state"]["game"] == 3
    call_command("verify_games", match=match_id)


# --- who may offer and answer: the matrix of a match with the cube ------------------------

ACTORS = ("anonymous", "stranger", "roller", "other", "staff")
UNAUTH, DENIED = (401, "not_authenticated"), (403, "permission_denied")
TURN, PHASE = (409, "not_your_turn"), (409, "wrong_phase")
# action: (an offer waits?, who answers 200, {actor: expected})
STAKE_MATRIX = {
    "offer": (False, {"anonymous": UNAUTH, "stranger": DENIED, "roller": 200, "other": TURN,
                      "staff": DENIED}),
    "accept": (True, {"anonymous": UNAUTH, "stranger": DENIED, "roller": TURN, "other": 200,
                      "staff": DENIED}),
    "refuse": (True, {"anonymous": UNAUTH, "stranger": DENIED, "roller": TURN, "other": 200,
                      "staff": DENIED}),
    "accept-no-offer": (False, {"anonymous": UNAUTH, "stranger": DENIED, "roller": PHASE,
                                "other": TURN, "staff": DENIED}),
}
STAKE_CELLS = [(a, b) for a in STAKE_MATRIX for b in ACTORS]


@pytest.mark.parametrize("action, actor", STAKE_CELLS, ids=[f"{a}-{b}" for a, b in STAKE_CELLS])
def test_stakes_authorization_matrix(action, actor, alice, bob, seat, make_user, scripted_dice):
    from rest_framework.test import APIClient

    from accounts.services import token_obtain

    match_id = stake_match(alice, bob, scripted_dice)
    waiting, expected = STAKE_MATRIX[action]
    if waiting:
        alice.ok(match_id, "offer")
    staff = APIClient()
    staff.credentials(HTTP_AUTHORIZATION="Token "
                      + token_obtain(user=make_user("staffer", is_staff=True)).key)
    clients = {"anonymous": APIClient(), "stranger": seat("stranger").client,
               "roller": alice.client, "other": bob.client, "staff": staff}
    path = action.split("-")[0]
    before = Match.objects.get(pk=match_id).version
    response = clients[actor].post(f"/api/v1/matches/{match_id}/{path}/", {}, format="json")
    want = expected[actor]
    if want == 200:
        assert response.status_code == 200, response.content
        assert Match.objects.get(pk=match_id).version == before + 1
    else:
        assert_error(response, *want)
        assert Match.objects.get(pk=match_id).version == before
