"""The levels listing, `computer:` validation, the computer's accounts and bots flagged by
staff (who then play through the API like anyone)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import computer
from accounts.models import User
from games.models import Match
from tests.computer_api.conftest import may_roll, play_out
from tests.support import assert_error

LEVELS = "/api/v1/computer/"


def test_the_levels_are_listed_per_rule_set_with_a_sentence_each(api: Any, db: Any) -> None:
    response = api.get(LEVELS)

    assert response.status_code == 200
    body = response.json()
    assert [entry["rules"] for entry in body] == ["long_nardy", "short_nardy", "backgammon",
                                                  "nard"]
    for entry in body:
        expected = computer.levels_for(entry["rules"])
        assert [lvl["level"] for lvl in entry["levels"]] == list(expected)
        for lvl in entry["levels"]:
            assert lvl["description"] == expected[lvl["level"]]
            assert lvl["account"] == f"computer-{lvl['level']}"
            assert lvl["engine"] == computer.engine_of(entry["rules"], lvl["level"])
        assert {"random", "heuristic"} <= {lvl["level"] for lvl in entry["levels"]}
        # world-class is backgammon's alone, its strongest.
        names = [lvl["level"] for lvl in entry["levels"]]
        assert ("world-class" in names) == (entry["rules"] == "backgammon")


def test_the_level_list_says_which_engine_plays(api: Any, db: Any) -> None:
    from computer import field

    body = {entry["rules"]: {lvl["level"]: lvl["engine"] for lvl in entry["levels"]}
            for entry in api.get(LEVELS).json()}
    assert body["long_nardy"]["expert"] == "own network"
    assert body["long_nardy"]["heuristic"] == "own heuristic"
    assert body["backgammon"]["random"] == "random"
    if field.available():
        label = field.engine_label()
        assert label is not None and label.startswith("Open Sage ")
        assert {body["backgammon"][level] for level in
                ("network", "strong", "expert", "world-class")} == {label}


def test_without_the_field_engine_the_list_says_the_own_network_plays(
        api: Any, db: Any, monkeypatch: Any) -> None:
    import sys

    from computer import field

    field._engine.cache_clear()
    monkeypatch.setitem(sys.modules, "bgsage", None)
    monkeypatch.setitem(sys.modules, "bgsage.analyzer", None)
    monkeypatch.setitem(sys.modules, "bgsage.weights", None)
    try:
        body = {entry["rules"]: {lvl["level"]: lvl for lvl in entry["levels"]}
                for entry in api.get(LEVELS).json()}
    finally:
        field._engine.cache_clear()
    backgammon = body["backgammon"]
    assert [backgammon[level]["engine"] for level in
            ("network", "strong", "expert", "world-class")] == ["own network"] * 4
    assert "not installed" in backgammon["world-class"]["description"]


@pytest.mark.parametrize(("body", "field"), [
    ({"computer": "grandmaster"}, "computer"),
    ({"computer": ""}, "computer"),
    ({"computer": "random", "opponent": "bob"}, "computer"),
    ({"computer": "random", "hotseat": True}, "computer"),
    ({"computer": "random", "rules": "chess"}, "rules"),
    ({"computer": "random", "length": 2}, "length"),
])
def test_bad_computer_requests_are_validation_errors(alice: Any, bob: Any, body: dict,
                                                     field: str) -> None:
    response = alice.client.post("/api/v1/matches/", {"length": 1, **body}, format="json")

    error = assert_error(response, 400, "validation_error")
    assert field in error["details"], error
    assert Match.objects.count() == 0


def test_a_level_the_rule_set_lacks_is_a_validation_error(alice: Any, monkeypatch: Any
                                                          ) -> None:
    from games import opponents

    monkeypatch.setattr(opponents, "levels", lambda rules: {"random": "…"})
    response = alice.create(computer="expert", rules="nard")

    error = assert_error(response, 400, "validation_error")
    assert error["details"] == {"computer": ["Must be one of random."]}


def test_playing_the_computer_needs_an_account(api: Any, db: Any) -> None:
    response = api.post("/api/v1/matches/", {"length": 1, "computer": "random"}, format="json")

    assert_error(response, 401, "not_authenticated")


def test_the_computers_account_is_a_bot_nobody_can_log_in_as(alice: Any, api: Any) -> None:
    created = alice.create(computer="heuristic")
    assert created.status_code == 201

    bot = User.objects.get(username="computer-heuristic")
    assert bot.is_bot and not bot.has_usable_password() and bot.is_active
    profile = api.get("/api/v1/accounts/users/computer-heuristic/")
    assert profile.status_code == 200
    assert profile.json()["is_bot"] is True
    assert profile.json()["display_name"] == "Computer (heuristic)"
    login = api.post("/api/v1/accounts/token/", {"username": "computer-heuristic",
                                                 "password": "correct-horse-battery"},
                     format="json")
    assert_error(login, 401, "not_authenticated")
    # A second match reuses the account.
    assert alice.create(computer="heuristic").status_code == 201
    assert User.objects.filter(username__startswith="computer-").count() == 1


def test_people_are_not_bots_on_their_profiles(alice: Any, api: Any) -> None:
    mine = alice.client.get("/api/v1/accounts/me/")
    public = api.get("/api/v1/accounts/users/alice/")

    assert mine.status_code == 200 and mine.json()["is_bot"] is False
    assert public.status_code == 200 and public.json()["is_bot"] is False


@pytest.mark.parametrize("name", ["computer-expert", "Computer-Random", "computer-someday",
                                  "computer", "bot", "ｃomputer-expert"])
def test_the_computers_names_are_reserved_at_registration(api: Any, db: Any,
                                                          name: str) -> None:
    response = api.post("/api/v1/accounts/register/",
                        {"username": name, "password": "correct-horse-battery"},
                        format="json")

    error = assert_error(response, 400, "validation_error")
    assert error["details"]["username"] == ["This username is reserved."]


def test_a_display_name_may_not_pose_as_the_computer(alice: Any) -> None:
    response = alice.client.patch("/api/v1/accounts/me/",
                                  {"display_name": "computer-expert"}, format="json")

    error = assert_error(response, 400, "validation_error")
    assert error["details"]["display_name"] == ["This display name is reserved."]


def test_staff_flag_an_account_a_bot_in_the_admin(client: Any, make_user: Any) -> None:
    robo = make_user("robo")
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))

    page = client.get(f"/admin/accounts/user/{robo.pk}/change/")
    assert page.status_code == 200
    assert b'name="is_bot"' in page.content
    flagged = client.post("/admin/accounts/user/", {"action": "flag_as_bot",
                                                    "_selected_action": [robo.pk]})
    assert flagged.status_code == 302
    robo.refresh_from_db()
    assert robo.is_bot is True
    listed = client.get("/admin/accounts/user/?is_bot__exact=1")
    assert listed.status_code == 200 and b"robo" in listed.content
    unflagged = client.post("/admin/accounts/user/", {"action": "unflag_as_bot",
                                                      "_selected_action": [robo.pk]})
    assert unflagged.status_code == 302
    robo.refresh_from_db()
    assert robo.is_bot is False


@pytest.mark.django_db(transaction=True)
def test_a_staff_flagged_bot_plays_through_the_api_like_a_person(
        immediate_tasks: None, seat: Any) -> None:
    person, robo = seat("person"), seat("robo")
    User.objects.filter(pk=robo.user.pk).update(is_bot=True)
    match_id = person.create(opponent="robo", color="white").json()["id"]
    assert person.get(match_id)["status"] == "invited"  # the server does not answer for it

    robo.ok(match_id, "join")
    person.ok(match_id, "roll")
    state = person.get(match_id)["state"]
    assert state["roll_off"]["black"] is None  # nor roll for it
    final = play_out(person, match_id, random.Random(11),
                     between=lambda: _robo_acts(robo, match_id))

    assert final["status"] == "finished"
    assert robo.client.get("/api/v1/accounts/users/robo/").json()["is_bot"] is True


def _robo_acts(robo: Any, match_id: int) -> None:
    """The outside bot's client: one action when it is its turn."""
    match = robo.get(match_id)
    state = match["state"]
    if may_roll(state, "black"):
        robo.ok(match_id, "roll")
    elif state["turn"] == "black" and state["phase"] == "move":
        robo.ok(match_id, "moves", {"steps": state["legal_steps"][:1]})


@pytest.mark.django_db(transaction=True)
def test_the_computer_is_always_present(immediate_tasks: None, alice: Any,
                                        seeded_dice: list[int]) -> None:
    """state.presence: the computer answers whenever the task queue runs, so
    it shows as present from the match's creation on, and after its actions."""
    from django.core.cache import cache

    seeded_dice.extend([1, 6])  # Alice's roll-off die, then the computer's: it starts
    created = alice.create(computer="random", length=1, color="white")
    assert created.status_code == 201, created.content
    assert created.json()["state"]["presence"] == {"white": True, "black": True}
    cache.clear()  # the marks are gone (a restarted cache): its next action marks it again
    match_id = created.json()["id"]
    alice.ok(match_id, "roll")  # the roll-off: the computer won it and plays at once
    assert alice.get(match_id)["state"]["presence"]["black"] is True
