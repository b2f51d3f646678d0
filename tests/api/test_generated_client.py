"""The schema as client authors use it: openapi-spec-validator accepts it,
openapi-python-client generates every operation from it, and the generated client plays
a whole hotseat match against the production server on a real socket."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import OpenAPIV30SpecValidator

from tests.support import AsgiServer, call, prepare_database, server_env

PACKAGE = "nard_generated_client"
METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    env = server_env(tmp_path_factory.mktemp("generated") / "client.sqlite3")
    tokens = prepare_database(env, {"player": "correct-horse-battery"})
    server = AsgiServer(env)
    try:
        answer = call(server.port, "GET", "/api/v1/schema/?format=json")
        assert answer.status == 200
        yield {"port": server.port, "token": tokens["player"], "schema": json.loads(answer.raw)}
    finally:
        server.stop()


def test_the_validator_finds_no_error(server):
    errors = [error.message for error in OpenAPIV30SpecValidator(server["schema"]).iter_errors()]
    assert errors == []


@pytest.fixture(scope="module")
def generated(server, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """The client openapi-python-client generates, imported; and what it said."""
    where = tmp_path_factory.mktemp("client")
    (where / "schema.json").write_text(json.dumps(server["schema"]))
    (where / "config.yaml").write_text(f"package_name_override: {PACKAGE}\n"
                                       "post_hooks: []\n")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "openapi-python-client"), "generate",
         "--path", "schema.json", "--config", "config.yaml", "--meta", "none",
         "--output-path", PACKAGE],
        cwd=where, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module(PACKAGE), done.stdout + done.stderr
    finally:
        sys.path.remove(str(where))


def test_every_operation_is_generated(server, generated):
    package, said = generated
    assert "will not be generated" not in said, said
    assert "Warning" not in said, said
    operations = {operation["operationId"] for path in server["schema"]["paths"].values()
                  for method, operation in path.items() if method in METHODS}
    made = {module.stem for module in Path(package.__file__).parent.glob("api/*/*.py")
            if module.stem != "__init__"}
    assert "matches_create" in made
    assert made == operations


def test_the_generated_client_plays_a_whole_match(server, generated):
    client_module = importlib.import_module(f"{PACKAGE}.client")
    api = importlib.import_module(f"{PACKAGE}.api.matches")
    models = importlib.import_module(f"{PACKAGE}.models")
    create = importlib.import_module(f"{api.__name__}.matches_create")
    read = importlib.import_module(f"{api.__name__}.matches_retrieve")
    roll = importlib.import_module(f"{api.__name__}.matches_roll_create")
    moves = importlib.import_module(f"{api.__name__}.matches_moves_create")
    client = client_module.AuthenticatedClient(
        base_url=f"http://127.0.0.1:{server['port']}", token=server["token"], prefix="Token")

    made = create.sync_detailed(client=client, body=models.MatchCreateInputRequest(
        length=models.LengthEnum(1), hotseat=True))
    assert made.status_code == 201, made.content
    match = made.parsed
    assert match.status.value == "active"
    actions = 0
    while match.status.value != "finished":
        actions += 1
        assert actions < 1000, "the match does not end"
        state = match.state
        if state.phase.value in ("roll-off", "roll"):
            answer = roll.sync_detailed(client=client, id=match.id,
                                        body=models.SeededVersionInputRequest(
                                            expected_version=state.version))
            assert answer.status_code == 200, answer.content
        elif state.phase.value == "move":
            answer = moves.sync_detailed(client=client, id=match.id,
                                         body=models.MovesInputRequest(
                                             steps=_a_whole_play(models, state.legal_tree),
                                             expected_version=state.version))
            assert answer.status_code == 200, answer.content
        else:
            raise AssertionError(f"unexpected phase {state.phase.value}")
        match = read.sync(client=client, id=match.id)
    assert match.winner is not None
    assert match.score.white + match.score.black >= 1
    # The log, typed: each event parsed as its own type's model (MatchEvent's oneOf).
    events = importlib.import_module(f"{api.__name__}.matches_events_list").sync(
        client=client, id=str(match.id))
    kinds = {type(event).__name__ for event in events}
    assert {"MatchCreatedEvent", "RollEvent", "StepEvent", "GameOverEvent",
            "MatchOverEvent"} <= kinds
    step = next(event for event in events if type(event).__name__ == "StepEvent")
    assert step.data.board.perspective.value == step.data.side.value
    # The stream of the finished match, asked after its last event: 204, no crash.
    stream = importlib.import_module(f"{api.__name__}.matches_stream")
    finished = stream.sync_detailed(client=client, id=match.id, after=events[-1].seq)
    assert finished.status_code == 204


def _a_whole_play(models: Any, tree: list[Any]) -> list[Any]:
    """The first path of ``legal_tree`` from stop 0 to a stop without steps."""
    steps, stop = [], tree[0]
    while stop.steps:
        step = stop.steps[0]
        steps.append(models.StepRequest(from_=step.from_, to=step.to, die=step.die))
        stop = tree[step.next_]
    return steps
