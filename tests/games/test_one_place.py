"""One place for each shared computation: what a left-out create option means, the
stake options' names, the turn cap and the dice a roll plays are each said
once, and every layer reads them there."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from rest_framework.fields import empty

from games import services, transitions
from games.admin import unplayed_dice
from games.models import Progression, Stakes
from games.serializers import MatchCreateInputSerializer
from games.start import MatchOptions
from nardy import MAX_TURNS_PER_GAME, stakes

OPTIONS = [f.name for f in dataclasses.fields(MatchOptions)
           if f.default is not dataclasses.MISSING]


def test_every_option_but_the_length_has_a_default() -> None:
    assert [f.name for f in dataclasses.fields(MatchOptions)
            if f.default is dataclasses.MISSING] == ["length"]
    assert "length" not in OPTIONS and len(OPTIONS) == 6


@pytest.mark.parametrize("name", OPTIONS)
def test_match_create_and_the_api_default_each_option_alike(name: str) -> None:
    expected = getattr(MatchOptions, name)
    assert inspect.signature(services.match_create).parameters[name].default == expected
    field = MatchCreateInputSerializer().fields[name]
    if name == "turn_seconds":  # optional and nullable: left out, the view sends None
        assert field.default is empty and not field.required and expected is None
        return
    assert field.default == expected


@pytest.mark.django_db
def test_a_match_created_with_only_its_length_has_the_default_options(alice) -> None:
    created = alice.create(length=3)
    assert created.status_code == 201, created.content
    match = created.json()
    assert {k: match[k] for k in ("rules", "hotseat", "stakes", "progression",
                                  "turn_seconds")} == {
        "rules": MatchOptions.rules, "hotseat": MatchOptions.hotseat,
        "stakes": MatchOptions.stakes, "progression": MatchOptions.progression,
        "turn_seconds": MatchOptions.turn_seconds}


def test_the_stake_choices_are_the_engine_names() -> None:
    assert tuple(Stakes.values) == stakes.STAKES
    assert tuple(Progression.values) == stakes.PROGRESSIONS


def test_one_turn_cap_for_the_server_and_the_computer() -> None:
    from computer.lab import match

    assert MAX_TURNS_PER_GAME == 2_000
    assert transitions.MAX_TURNS_PER_GAME is MAX_TURNS_PER_GAME
    assert match.MAX_TURNS is MAX_TURNS_PER_GAME


def test_the_admin_expands_dice_as_the_engine_does() -> None:
    """R9/H6: a double plays four times; the dice left are high to low."""
    assert unplayed_dice([3, 3], [{"from": 13, "to": 10, "die": 3}]) == [3, 3, 3]
    assert unplayed_dice([2, 5], []) == [5, 2]
