"""API.md: "described by an OpenAPI 3 schema at /api/v1/schema/" - every endpoint, every answer."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games import shapes
from tests.support import API, assert_error, assert_shape

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    ("post", "/api/v1/accounts/register/"),
    ("post", "/api/v1/accounts/token/"),
    ("delete", "/api/v1/accounts/token/"),
    ("get", "/api/v1/accounts/me/"),
    ("patch", "/api/v1/accounts/me/"),
    ("get", "/api/v1/accounts/users/{username}/"),
    ("post", "/api/v1/matches/"),
    ("get", "/api/v1/matches/"),
    ("get", "/api/v1/matches/{id}/"),
    ("post", "/api/v1/matches/{id}/join/"),
    ("post", "/api/v1/matches/{id}/roll/"),
    ("post", "/api/v1/matches/{id}/moves/"),
    ("post", "/api/v1/matches/{id}/resign/"),
    ("post", "/api/v1/matches/{id}/rematch/"),
    ("get", "/api/v1/matches/{id}/games/"),
    ("get", "/api/v1/matches/{id}/games/{number}/moves/"),
    ("get", "/api/v1/matches/{id}/events/"),
    ("post", "/api/v1/analysis/legal-plays/"),
]


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = APIClient().get(f"{API}/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return json.loads(response.content)


def _resolve(schema, node):
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema["components"]["schemas"][name]
    return node


def _properties(schema, node):
    node = _resolve(schema, node)
    props = dict(node.get("properties", {}))
    for part in node.get("allOf", []):
        props.update(_properties(schema, part))
    return props


def _json_schema(op, status):
    return op["responses"][status]["content"]["application/json"]["schema"]


def test_schema_is_openapi_3(schema):
    assert schema["openapi"].startswith("3.")


@pytest.mark.parametrize("method, path", ENDPOINTS)
def test_every_contract_endpoint_is_described(schema, method, path):
    assert path in schema["paths"], sorted(schema["paths"])
    op = schema["paths"][path].get(method)
    assert op is not None, (method, path, sorted(schema["paths"][path]))
    assert any(code.startswith("2") for code in op["responses"]), op["responses"]
    # Every documented 4xx uses the one error shape.
    for code, answer in op["responses"].items():
        if code.startswith("4"):
            body = _resolve(schema, answer["content"]["application/json"]["schema"])
            assert set(body["properties"]) == {"error"}, (path, code)


def test_documented_shapes_match_api_md(schema):
    match = _properties(schema, _json_schema(schema["paths"]["/api/v1/matches/{id}/"]["get"],
                                             "200"))
    assert {"id", "white", "black", "length", "score", "status", "winner", "created_at",
            "finished_at", "state"} <= set(match)
    state = _properties(schema, match["state"])
    assert {"game", "phase", "turn", "dice", "dice_left", "head_may_leave", "board",
            "legal_steps", "version"} <= set(state)
    board = _properties(schema, state["board"])
    assert set(board) == {"perspective", "points", "off", "bar"}
    stats = _properties(schema, _properties(schema, _json_schema(
        schema["paths"]["/api/v1/accounts/me/"]["get"], "200"))["stats"])
    assert set(stats) == {"matches_played", "matches_won", "games_won", "games_lost",
                          "mars_won", "mars_lost", "points_won", "points_lost", "by_rules"}
    listed = _properties(schema, _json_schema(schema["paths"]["/api/v1/matches/"]["get"], "200"))
    assert {"count", "next", "previous", "results"} <= set(listed)
    params = {p["name"] for p in schema["paths"]["/api/v1/matches/"]["get"]["parameters"]}
    assert {"status", "player"} <= params
    params = {p["name"] for p in schema["paths"]["/api/v1/matches/{id}/events/"]["get"]
              ["parameters"]}
    assert "after" in params
    params = {p["name"] for p in schema["paths"]["/api/v1/matches/{id}/"]["get"]["parameters"]}
    assert "perspective" in params
    register = _properties(schema, _json_schema(
        schema["paths"]["/api/v1/accounts/register/"]["post"], "201"))
    assert set(register) == {"username", "token"}


def test_roll_answer_fields_are_documented(alice, bob, scripted_dice, schema):
    """The roll answer carries top-level `die` (roll-off) / `dice` (turn) - API.md "roll-off
    die or the turn's two dice" - but RollResult documents neither."""
    match_id = alice.create(length=1, opponent="bob", color="white").json()["id"]
    bob.ok(match_id, "join")
    scripted_dice(6, 1, 4, 2)
    documented = set(_properties(schema, _json_schema(
        schema["paths"]["/api/v1/matches/{id}/roll/"]["post"], "200")))
    answers = [alice.ok(match_id, "roll"), bob.ok(match_id, "roll"), alice.ok(match_id, "roll")]
    for answer in answers:
        assert set(answer) <= documented, set(answer) - documented
        assert_shape(answer, shapes.RollResult)  # and each value, all the way down
    assert ("die" in answers[0], "dice" in answers[2]) == (True, True)


@pytest.mark.parametrize("path, query", [
    ("/api/v1/matches/", "status=bogus"),
    ("/api/v1/matches/{id}/", "perspective=red"),
    ("/api/v1/matches/{id}/events/", "after=abc"),
])
def test_documented_statuses_cover_query_validation(schema, alice, path, query):
    """GET calls answer 400 validation_error for a bad query parameter; the schema documents
    400 only for writes."""
    match_id = alice.create(length=1, hotseat=True).json()["id"]
    response = alice.client.get(path.replace("{id}", str(match_id)) + "?" + query)
    assert_error(response, 400, "validation_error")
    assert "400" in schema["paths"][path]["get"]["responses"], sorted(
        schema["paths"][path]["get"]["responses"])


def test_documented_statuses_cover_bad_credentials(schema, api, alice):
    """POST accounts/token/ answers 401 for a wrong password; the schema omits 401."""
    response = api.post(f"{API}/accounts/token/", {"username": "alice", "password": "nope"},
                        format="json")
    assert_error(response, 401, "not_authenticated")
    assert "401" in schema["paths"]["/api/v1/accounts/token/"]["post"]["responses"]


def test_schema_default_representation_is_json(api):
    """API.md: "Everything is JSON under /api/v1/, described by an OpenAPI 3 schema at
    /api/v1/schema/". A plain GET (no Accept header) answers YAML."""
    response = api.get(f"{API}/schema/")
    assert response.status_code == 200
    assert "json" in response["Content-Type"], response["Content-Type"]
    json.loads(response.content)


def test_schema_json_on_request(api):
    for kwargs in ({"HTTP_ACCEPT": "application/json"}, {"data": {"format": "json"}}):
        response = api.get(f"{API}/schema/", **kwargs)
        assert response.status_code == 200, kwargs
        assert json.loads(response.content)["paths"]


def test_docs_page_is_served(api):
    assert api.get(f"{API}/docs/").status_code == 200
