"""One source for each answer's shape (games.shapes): the schema is built from the typed
shapes the selectors return, and every real answer of played matches is its shape,
recursively — no key missing, none unknown, each value of its type and choices."""

from __future__ import annotations

import json
import random
from typing import Any, get_args, get_type_hints

import pytest
from rest_framework.test import APIClient

from accounts.stats import Stats
from games import event_shapes, shapes
from live.shapes import ACCOUNT_ITEMS
from nard_site.api.errors import Error
from nard_site.api.shapes import Doc, keys_of, schema_serializer
from tests.support import ANALYSIS, API, MATCHES, Seat, assert_error, assert_shape

pytestmark = pytest.mark.django_db

# Each answer's shape and its component in the schema.
COMPONENTS = {
    "Match": shapes.Match, "State": shapes.State, "OutBoard": shapes.Board,
    "OutStep": shapes.Step, "Off": shapes.Off, "Bar": shapes.Bar, "Score": shapes.Score,
    "RollOff": shapes.RollOff, "FirstTurn": shapes.FirstTurn, "Presence": shapes.Presence,
    "Offer": shapes.Offer, "Roll": shapes.Roll, "RollResult": shapes.RollResult,
    "MovesResult": shapes.MovesResult, "GameOffer": shapes.GameOffer,
    "TurnOffer": shapes.TurnOffer, "Game": shapes.Game, "Turn": shapes.Turn,
    "Play": shapes.Play, "LegalPlays": shapes.LegalPlays,
    "MatchRecord": shapes.MatchRecord, "_RecordGame": shapes.RecordGame,
    "_RecordTurn": shapes.RecordTurn, "_RecordResult": shapes.RecordResult,
    "_RecordRollOff": shapes.RecordRollOff, "Stats": Stats, "Error": Error,
    # The match log's events (MatchEvent's members) and their data; the stream's state.
    **{shape.__name__: shape for shape in event_shapes.MATCH_EVENTS.values()},
    **{shape.__name__: shape for shape in set(event_shapes.MATCH_EVENT_DATA.values())},
    "StateEvent": event_shapes.STATE_EVENT,
    # The account stream's items (AccountEvent's members).
    **{shape.__name__: shape for shape in ACCOUNT_ITEMS.values()},
}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = APIClient().get(f"{API}/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return json.loads(response.content)["components"]["schemas"]


@pytest.mark.parametrize("name", sorted(COMPONENTS))
def test_each_component_is_its_shape(schema, name):
    """The component has the shape's keys in order, required exactly where the shape
    requires them, and the help texts of its ``Doc``s."""
    shape, component = COMPONENTS[name], schema[name]
    assert list(component["properties"]) == list(keys_of(shape))
    hints = get_type_hints(shape, include_extras=True)
    required = {k for k in hints if k in shape.__required_keys__}
    assert set(component.get("required", [])) == required
    for key, hint in hints.items():
        docs = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Doc) and m.help]
        for doc in docs:
            assert component["properties"][key]["description"].startswith(doc.help), key


def test_colours_are_one_enum(schema):
    """Every colour in every answer is the one ``ColorEnum``, the engine's side names."""
    from nardy import SIDE_NAMES

    assert schema["ColorEnum"]["enum"] == list(SIDE_NAMES)
    assert "MayOfferEnum" in schema and schema["MayOfferEnum"]["enum"] == list(shapes.MAY_OFFER)


def test_the_builder_reads_each_kind_of_annotation():
    """``X | None``, ``Literal``, ``NotRequired``, nested shapes, lists and dicts."""
    fields = schema_serializer(shapes.RollResult)().fields
    assert fields["winner"].allow_null and list(fields["winner"].choices) == ["white", "black"]
    assert list(fields["roll"].fields["kind"].choices) == list(get_args(
        get_type_hints(shapes.Roll)["kind"]))
    assert not fields["die"].required and fields["roll"].required
    assert fields["state"].allow_null and fields["state"].fields["legal_steps"].many
    assert type(fields["state"].fields["board"].fields["points"]).__name__ == "DictField"
    assert fields["state"].fields["board"].fields["off"].fields["mine"].max_value == 15
    step = schema_serializer(shapes.Step)
    assert step is schema_serializer(shapes.Step)  # one component
    assert step.__name__ == "OutStepSerializer"  # games.shapes.SCHEMA_NAMES
    with pytest.raises(TypeError):
        schema_serializer(dict)


class Recorder:
    """A seat whose every JSON answer is checked against the shape of its endpoint."""

    def __init__(self, seat: Seat) -> None:
        self.seat, self.checked = seat, 0

    def check(self, response: Any, shape: Any, status: int = 200) -> Any:
        assert response.status_code == status, (response.status_code, response.content[:300])
        body = response.json()
        assert_shape(body, shape)
        self.checked += 1
        return body

    def act(self, match_id: int, action: str, body: dict[str, Any] | None = None,
            shape: Any = shapes.Match) -> dict[str, Any]:
        return self.check(self.seat.post(match_id, action, body), shape)


def _play_match(player: Recorder, match_id: int, rng: random.Random) -> dict[str, Any]:
    """Roll, offer, accept, move (a random legal step, one request each) until the first
    game is over; then resign each later game until the match is over."""
    match = player.check(player.seat.client.get(player.seat.url(match_id)), shapes.Match)
    offered = False
    for _ in range(3000):
        if match["status"] != "active":
            return match
        state = match["state"]
        if state["game"] > 1:
            match = player.act(match_id, "resign")
        elif state["phase"] == "offer":
            match = player.act(match_id, "accept")
        elif state["phase"] == "roll" and state["may_offer"] != "none" and not offered:
            offered = True
            match = player.act(match_id, "offer")
        elif state["phase"] in ("roll", "roll-off"):
            match = player.act(match_id, "roll", shape=shapes.RollResult)
        else:
            step = rng.choice(state["legal_steps"])
            match = player.act(match_id, "moves", {"steps": [step]}, shapes.MovesResult)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("rules, stakes, progression", [
    ("long_nardy", "cube", "geometric"),
    ("backgammon", "dave", "arithmetic"),
])
def test_every_answer_of_a_played_match_is_its_shape(seat, rules, stakes, progression):
    """With the server's own committed dice: the fairness blocks are shaped too."""
    rng = random.Random(f"{rules}:10")
    player = Recorder(seat())
    created = player.check(player.seat.create(length=3, hotseat=True, rules=rules,
                                              stakes=stakes, progression=progression),
                           shapes.Match, 201)
    match_id = created["id"]
    finished = _play_match(player, match_id, rng)
    assert finished["status"] == "finished"
    client = player.seat.client
    url = player.seat.url(match_id)
    player.check(client.get(url, {"perspective": "black"}), shapes.Match)
    listed = client.get(MATCHES)
    assert listed.status_code == 200
    for item in listed.json()["results"]:
        assert_shape(item, shapes.Match)
    games = player.check(client.get(f"{url}games/"), list[shapes.Game])
    assert any(g["offers"] for g in games), "the match had an offer"
    for game in games:
        turns = player.check(client.get(f"{url}games/{game['number']}/moves/"),
                             list[shapes.Turn])
        assert turns or game["number"] > 1
    events = player.check(client.get(f"{url}events/"), list[shapes.Event])
    for event in events:  # each its type's shape (the schema's MatchEvent members)
        assert_shape(event, event_shapes.MATCH_EVENTS[event["type"]], f"$.{event['type']}")
    assert {"step", "roll", "game_over", "offer", "accept"} <= {e["type"] for e in events}
    record = player.check(client.get(f"{url}export/", {"format": "json"}), shapes.MatchRecord)
    assert any(t["offer"] for t in record["games"][0]["turns"]), "the accepted offer"
    me = player.check(client.get(f"{API}/accounts/me/"), dict[str, Any])
    assert_shape(me["stats"], Stats)
    assert player.checked > 100


def test_analysis_and_errors_are_their_shapes(api, alice):
    board = {"perspective": "white", "points": {"24": 15, "12": -15},
             "off": {"mine": 0, "theirs": 0}}
    response = api.post(ANALYSIS, {"board": board, "dice": [6, 5]}, format="json")
    assert response.status_code == 200
    assert_shape(response.json(), shapes.LegalPlays)
    error = alice.post(10**6, "roll")
    assert_error(error, 404, "not_found")
    assert_shape(error.json(), Error)


def test_the_shape_check_refuses_what_is_not_the_shape():
    step = {"from": 24, "to": 18, "die": 6, "hit": False}
    assert_shape(step, shapes.Step)
    for wrong in ({**step, "extra": 1}, {"from": 24, "to": 18, "die": 6},
                  {**step, "hit": 0}, {**step, "die": True}):
        with pytest.raises(AssertionError):
            assert_shape(wrong, shapes.Step)
    with pytest.raises(AssertionError):
        assert_shape({"mine": 16, "theirs": 0}, shapes.Off)
    with pytest.raises(AssertionError):
        assert_shape({"by": "red", "stake": 2}, shapes.Offer)
