"""GET stream/: an account's invitations, turns and results, first what waits, then live."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.streams.conftest import Reader, db, run, token_of
from tests.streams.conftest import open_stream as open_any_stream
from tests.support import start_match

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/stream/"


async def open_stream(path: str, **headers: str) -> Reader:
    """The account stream without its ``notice`` items (an invitation is a ``challenge``
    notice too): tests/social has them."""
    reader = await open_any_stream(path, **headers)
    reader.ignore = {"notice"}
    return reader


def items(events: list[dict[str, str]]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["event"], json.loads(e["data"])) for e in events]


def test_invitation_then_your_turn_then_results(alice: Any, bob: Any,
                                                scripted_dice: Any) -> None:
    key = token_of(bob.user)

    async def scenario() -> None:
        reader = await open_stream(URL, Authorization=f"Token {key}")
        created = await db(alice.create)(length=1, opponent="bob", color="white")
        match_id = created.json()["id"]
        kind, data = items([await reader.next()])[0]
        assert kind == "invitation"
        assert data == {"type": "invitation", "match": match_id, "version": 1, "by": "alice",
                        "length": 1, "color": "black", "rematch_of": None}
        await db(bob.ok)(match_id, "join")
        kind, data = items([await reader.next()])[0]
        assert (kind, data["phase"], data["color"]) == ("your_turn", "roll-off", "black")
        await db(scripted_dice)(6, 1)
        await db(alice.ok)(match_id, "roll")
        await db(bob.ok)(match_id, "roll")  # White won the roll-off: nothing for Black
        await db(alice.ok)(match_id, "resign")  # White concedes: 1 point, the match
        got = items([await reader.next(), await reader.next()])
        assert [k for k, _ in got] == ["game_over", "match_over"]
        assert all(d["match"] == match_id for _, d in got)
        await reader.close()

    run(scenario)


def test_on_connect_what_waits_now(alice: Any, bob: Any, scripted_dice: Any) -> None:
    invitation = alice.create(length=3, opponent="bob").json()["id"]
    playing = alice.create(length=1, opponent="bob", color="black").json()["id"]
    bob.ok(playing, "join")
    scripted_dice(6, 1)
    bob.ok(playing, "roll")
    alice.ok(playing, "roll")  # Bob (White) won the roll-off: his turn to roll
    key = token_of(bob.user)

    async def scenario() -> list[tuple[str, dict[str, Any]]]:
        reader = await open_stream(URL, Authorization=f"Token {key}")
        got = items([await reader.next(), await reader.next()])
        await reader.close()
        return got

    got = run(scenario)
    assert [(k, d["match"]) for k, d in got] == [("invitation", invitation),
                                                 ("your_turn", playing)]
    assert got[1][1]["phase"] == "roll" and got[1][1]["color"] == "white"


def _cube_match_white_to_offer(alice: Any, bob: Any, scripted_dice: Any, **options: Any) -> int:
    """A 3-point cube match, Alice White, Bob joined, White to roll and free to offer."""
    created = alice.create(length=3, opponent="bob", color="white", stakes="cube", **options)
    assert created.status_code == 201, created.content
    match_id: int = created.json()["id"]
    bob.ok(match_id, "join")
    scripted_dice(6, 1)
    alice.ok(match_id, "roll")
    bob.ok(match_id, "roll")  # White starts and may offer before rolling (S2, S3)
    return match_id


def test_on_connect_an_offer_waiting_for_an_answer(alice: Any, bob: Any,
                                                  scripted_dice: Any) -> None:
    """A stream that (re)connects while an offer waits hears it again, with the data
    the live ``offer`` item had; the offering side hears nothing for that match."""
    match_id = _cube_match_white_to_offer(alice, bob, scripted_dice)
    version = alice.ok(match_id, "offer")["version"]
    keys = token_of(bob.user), token_of(alice.user)

    async def scenario() -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str] | None]:
        answering = await open_stream(URL, Authorization=f"Token {keys[0]}")
        got = items([await answering.next()])
        await answering.close()
        offering = await open_stream(URL, Authorization=f"Token {keys[1]}")
        try:
            heard = await asyncio.wait_for(offering.next(), timeout=0.5)
        except TimeoutError:
            heard = None
        await offering.close()
        return got, heard

    got, heard = run(scenario)
    assert got == [("offer", {"type": "offer", "match": match_id, "version": version,
                              "game": 1, "side": "white", "stake": 2})]
    assert heard is None


def test_the_next_game_is_your_turn_live(alice: Any, bob: Any, scripted_dice: Any) -> None:
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]  # White rolls
    keys = token_of(alice.user), token_of(bob.user)

    async def scenario() -> None:
        white = await open_stream(URL, Authorization=f"Token {keys[0]}")
        black = await open_stream(URL, Authorization=f"Token {keys[1]}")
        now = items([await white.next()])[0]  # on connect: White is to roll game 1
        assert now[0] == "your_turn" and now[1]["game"] == 1
        await db(alice.ok)(match_id, "resign")  # game 2: the loser, White, rolls first
        assert [k for k, _ in items([await black.next()])] == ["game_over"]
        got = items([await white.next(), await white.next()])
        assert [k for k, _ in got] == ["your_turn", "game_over"]
        assert got[0][1]["game"] == 2 and got[0][1]["version"] > now[1]["version"]
        await white.close()
        await black.close()

    run(scenario)


def test_an_offer_and_a_deadline_warning_reach_the_account_that_must_act(
        alice: Any, bob: Any, scripted_dice: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Match

    match_id = _cube_match_white_to_offer(alice, bob, scripted_dice, turn_seconds=3600)
    key = token_of(bob.user)

    async def scenario() -> list[tuple[str, dict[str, Any]]]:
        reader = await open_stream(URL, Authorization=f"Token {key}")
        await db(alice.ok)(match_id, "offer")
        got = []
        while not got or got[-1][0] != "offer":
            got += items([await reader.next()])
        # Bob must answer the offer: his deadline nears and the sweep warns him.
        await db(Match.objects.filter(pk=match_id).update)(
            deadline=timezone.now() + timedelta(seconds=30))
        warned = await db(services.match_warn_clock)(match_id=match_id)
        assert warned is not None, "the warning is due"
        got += items([await reader.next()])
        await reader.close()
        return got

    got = run(scenario)
    offers = [d for k, d in got if k == "offer"]
    assert offers and offers[-1]["match"] == match_id and offers[-1]["side"] == "white"
    assert offers[-1]["stake"] == 2
    assert got[-1][0] == "deadline" and got[-1][1]["side"] == "black"


def test_on_connect_an_offer_to_resign_waiting_for_an_answer(alice: Any, bob: Any,
                                                            scripted_dice: Any) -> None:
    """The side that must answer an offer to resign hears it (``resign_offer``, with the
    event's data) on connecting; the offering side hears nothing for that match."""
    match_id = start_match(alice, bob, length=3, script=scripted_dice)["id"]
    version = alice.ok(match_id, "resign", {"offer": "single"})["version"]
    keys = token_of(bob.user), token_of(alice.user)

    async def scenario() -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str] | None]:
        answering = await open_stream(URL, Authorization=f"Token {keys[0]}")
        got = items([await answering.next()])
        await answering.close()
        offering = await open_stream(URL, Authorization=f"Token {keys[1]}")
        try:
            heard = await asyncio.wait_for(offering.next(), timeout=0.5)
        except TimeoutError:
            heard = None
        await offering.close()
        return got, heard

    got, heard = run(scenario)
    assert got == [("resign_offer", {"type": "resign_offer", "match": match_id,
                                     "version": version, "game": 1, "side": "white",
                                     "result": "single", "points": 1, "turn": 1,
                                     "during": "roll"})]
    assert heard is None
