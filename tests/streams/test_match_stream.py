"""GET matches/{id}/stream/: the log as SSE, resumed exactly, live, kept alive."""

from __future__ import annotations

import json
from typing import Any

import pytest

from live import reads
from tests.streams.conftest import db, open_stream, run
from tests.support import start_match

pytestmark = pytest.mark.django_db(transaction=True)


def stream_url(match_id: int, **query: Any) -> str:
    tail = "&".join(f"{k}={v}" for k, v in query.items())
    return f"/api/v1/matches/{match_id}/stream/" + (f"?{tail}" if tail else "")


def log_of(api: Any, match_id: int) -> list[dict[str, Any]]:
    return api.get(f"/api/v1/matches/{match_id}/events/").json()


@pytest.fixture
def match_id(alice: Any, bob: Any, scripted_dice: Any) -> int:
    return start_match(alice, bob, length=7, script=scripted_dice)["id"]


def test_the_log_then_live_events_in_sse_format(match_id: int, alice: Any, bob: Any,
                                               api: Any) -> None:
    log = log_of(api, match_id)

    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id))
        for event in log:
            got = await reader.next()
            assert got is not None
            assert got["id"] == str(event["seq"]) and got["event"] == event["type"]
            assert json.loads(got["data"]) == event  # the same JSON as events/
        await db(bob.ok)(match_id, "resign")
        live = [await reader.next() for _ in range(2)]
        assert [e["event"] for e in live] == ["resign", "game_over"]
        assert [int(e["id"]) for e in live] == [log[-1]["seq"] + 1, log[-1]["seq"] + 2]
        await reader.close()

    run(scenario)


def test_raw_frames(match_id: int, api: Any) -> None:
    first = log_of(api, match_id)[0]

    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id))
        raw = b""
        while raw.count(b"\n\n") < 1:
            raw += await anext(reader.body)
        await reader.close()
        data = json.dumps(first, separators=(",", ":"), ensure_ascii=False)
        assert raw.startswith(b"id: 1\nevent: match_created\ndata: "
                              + data.encode() + b"\n\n"), raw

    run(scenario)


@pytest.mark.parametrize("how", ["header", "query", "both"])
def test_resume_after_a_cut_exactly_once_in_order(match_id: int, bob: Any, api: Any,
                                                  how: str) -> None:
    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id))
        first = [await reader.next() for _ in range(3)]
        await reader.close()  # the cut
        await db(bob.ok)(match_id, "resign")  # committed while nobody listens
        last = first[-1]["id"]
        if how == "header":
            reader = await open_stream(stream_url(match_id), **{"Last-Event-ID": last})
        elif how == "query":
            reader = await open_stream(stream_url(match_id, after=last))
        else:  # EventSource resends the URL with ?after= and adds the header: the header wins
            reader = await open_stream(stream_url(match_id, after=0), **{"Last-Event-ID": last})
        log = await db(log_of)(api, match_id)
        rest = [await reader.next() for _ in range(len(log) - 3)]
        await db(bob.ok)(match_id, "resign")
        more = await reader.next()
        await reader.close()
        seqs = [int(e["id"]) for e in first + rest + [more]]
        assert seqs == list(range(1, len(log) + 2))

    run(scenario)


@pytest.mark.parametrize("when", ["before the read", "after the read"])
def test_an_event_committed_around_the_backfill_is_sent_once(
        match_id: int, bob: Any, api: Any, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """The stream subscribes, then reads the log. A change committed just before the read
    is both in the log and in the inbox; one committed just after is only in the inbox.
    Either way: sent once, in order."""
    read = reads.log_after
    calls = []

    def interleaved(match: int, after: int) -> Any:
        calls.append(after)
        if len(calls) == 1 and when == "before the read":
            bob.ok(match, "resign")
        page = read(match, after)
        if len(calls) == 1 and when == "after the read":
            bob.ok(match, "resign")
        return page

    monkeypatch.setattr(reads, "log_after", interleaved)
    before = len(log_of(api, match_id))

    async def scenario() -> list[int]:
        reader = await open_stream(stream_url(match_id))
        got = [await reader.next() for _ in range(before + 2)]  # + resign, game_over
        await db(bob.ok)(match_id, "resign")  # the next one follows directly: no repeat
        got.append(await reader.next())
        await reader.close()
        return [int(e["id"]) for e in got]

    assert run(scenario) == list(range(1, before + 4))
    assert calls == [0]  # no gap seen, no second read


def test_a_gap_in_the_live_events_is_filled_from_the_log(
        match_id: int, bob: Any, api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from live import transports

    publish = transports.publish
    dropped = []

    def lossy(msg: Any) -> None:
        if not dropped:
            dropped.append(msg)  # the fan-out loses the first change
            return
        publish(msg)

    monkeypatch.setattr(transports, "publish", lossy)
    before = len(log_of(api, match_id))

    async def scenario() -> list[int]:
        reader = await open_stream(stream_url(match_id))
        got = [await reader.next() for _ in range(before)]
        await db(bob.ok)(match_id, "resign")  # lost
        await db(bob.ok)(match_id, "resign")  # arrives: its seq skips the lost ones
        log = await db(log_of)(api, match_id)
        got += [await reader.next() for _ in range(len(log) - before)]
        await reader.close()
        return [int(e["id"]) for e in got]

    seqs = run(scenario)
    assert seqs == list(range(1, len(seqs) + 1)) and dropped


def test_keep_alive_comment(match_id: int, api: Any, settings: Any) -> None:
    settings.STREAM_HEARTBEAT_SECONDS = 0.05
    count = len(log_of(api, match_id))

    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id))
        for _ in range(count):
            await reader.next()
        beat = await reader.next(comments=True)
        assert beat == {"comment": "keep-alive"}
        await reader.close()

    run(scenario)


def test_a_finished_match_ends_the_stream_and_then_answers_204(
        alice: Any, bob: Any, scripted_dice: Any, api: Any) -> None:
    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    bob.ok(match_id, "resign")  # a 1-point match: over
    log = log_of(api, match_id)
    assert log[-1]["type"] == "match_over"

    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id, after=2))
        rest = await reader.rest()  # ends by itself
        assert [int(e["id"]) for e in rest] == [e["seq"] for e in log[2:]]

    run(scenario)
    done = api.get(stream_url(match_id), HTTP_LAST_EVENT_ID=str(log[-1]["seq"]))
    assert done.status_code == 204


def test_a_finished_matchs_stream_stays_open_for_its_review(
        alice: Any, bob: Any, scripted_dice: Any, api: Any) -> None:
    """A review's ``analysis`` events reach a finished match's reader
    as they are logged (no reconnect), and the stream ends after the review's last."""
    from games import services
    from reviews import tasks as review_tasks
    from reviews.models import Analysis

    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    bob.ok(match_id, "resign")
    last = log_of(api, match_id)[-1]["seq"]
    analysis = Analysis.objects.create(match_id=match_id, depth=0, turns_total=20)

    async def scenario() -> list[dict[str, str]]:
        reader = await open_stream(stream_url(match_id, after=last))
        await db(services.match_log_analysis)(match_id=match_id, depth=0, state="running",
                                              turns_done=0, turns_total=20)
        running = await reader.next()
        assert running is not None and json.loads(running["data"])["data"]["state"] == "running"
        await db(review_tasks.finish)(analysis, Analysis.State.DONE, results=[])
        return [running, *await reader.rest()]  # ends by itself after the review's last

    got = run(scenario)
    assert [json.loads(e["data"])["data"]["state"] for e in got] == ["running", "done"]
    assert [int(e["id"]) for e in got] == [last + 1, last + 2]
    done = api.get(stream_url(match_id), HTTP_LAST_EVENT_ID=str(last + 2))
    assert done.status_code == 204  # the review over: nothing more to come


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume")  # WSGI's read
def test_a_queued_review_keeps_a_finished_match_from_answering_204(
        alice: Any, bob: Any, scripted_dice: Any, api: Any) -> None:
    from reviews.models import Analysis

    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    bob.ok(match_id, "resign")
    last = str(log_of(api, match_id)[-1]["seq"])
    assert api.get(stream_url(match_id), HTTP_LAST_EVENT_ID=last).status_code == 204
    analysis = Analysis.objects.create(match_id=match_id, depth=1)
    waiting = api.get(stream_url(match_id), HTTP_LAST_EVENT_ID=last)  # WSGI: the log once
    assert waiting.status_code == 200
    assert waiting["Content-Type"].startswith("text/event-stream")
    body = b"".join(waiting).decode()  # the WSGI handler reads it so too
    assert body.startswith("retry: ") and "data:" not in body  # nothing new yet
    analysis.state = Analysis.State.FAILED
    analysis.save()
    assert api.get(stream_url(match_id), HTTP_LAST_EVENT_ID=last).status_code == 204


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume")  # WSGI's read
def test_a_review_ending_while_the_stream_opens_is_not_missed(
        alice: Any, bob: Any, scripted_dice: Any, api: Any, monkeypatch: Any) -> None:
    """The view asks whether a review is to come only of a finished match with nothing
    after the reader's seq, and reads the log's end again after it: a review that ends
    in between (its ``done`` event logged) is streamed, not answered 204."""
    from games import selectors
    from reviews import tasks as review_tasks
    from reviews.models import Analysis

    asked: list[int] = []
    real = selectors.match_review_open
    monkeypatch.setattr(selectors, "match_review_open",
                        lambda match_id: asked.append(match_id) or real(match_id))
    live = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    assert api.get(stream_url(live)).status_code == 200 and asked == []  # not over
    bob.ok(live, "resign")
    last = log_of(api, live)[-1]["seq"]
    assert api.get(stream_url(live), HTTP_LAST_EVENT_ID=str(last - 1)).status_code == 200
    assert asked == []  # over, but the reader has something to read

    analysis = Analysis.objects.create(match_id=live, depth=0, turns_total=1)

    def ends_meanwhile(match_id: int) -> bool:
        asked.append(match_id)
        review_tasks.finish(analysis, Analysis.State.DONE, results=[])
        return real(match_id)  # no longer open: only the log's end tells

    monkeypatch.setattr(selectors, "match_review_open", ends_meanwhile)
    response = api.get(stream_url(live), HTTP_LAST_EVENT_ID=str(last))
    assert asked == [live] and response.status_code == 200
    body = b"".join(response).decode()
    assert f"id: {last + 1}" in body and '"state":"done"' in body


def test_the_publisher_says_whether_the_stream_ends(
        alice: Any, bob: Any, scripted_dice: Any) -> None:
    """``Message.over`` (what every open stream of the match reads, without a query of
    its own): the match over and no review of it queued or running."""
    from games.models import Event, Match
    from live.reads import message
    from reviews.models import Analysis

    match_id = start_match(alice, bob, length=1, script=scripted_dice)["id"]
    events = list(Event.objects.filter(match_id=match_id))
    assert not message(Match.objects.get(pk=match_id), events).over  # being played
    bob.ok(match_id, "resign")
    match, events = Match.objects.get(pk=match_id), list(Event.objects.filter(match_id=match_id))
    assert message(match, events).over
    analysis = Analysis.objects.create(match_id=match_id, depth=1)
    assert not message(match, events).over  # its analysis events are still to come
    analysis.state = Analysis.State.DONE
    analysis.save()
    assert message(match, events).over


def test_a_client_too_slow_is_cut(match_id: int, bob: Any, api: Any, settings: Any) -> None:
    settings.STREAM_QUEUE_MAX = 1
    count = len(log_of(api, match_id))

    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id))
        for _ in range(count):
            await reader.next()
        await db(bob.ok)(match_id, "resign")
        await db(bob.ok)(match_id, "resign")  # two changes queued, room for one
        end = await reader.next(comments=True)
        assert end is not None and "too far behind" in end["comment"]
        assert await reader.next() is None

    run(scenario)


def test_the_stream_lifetime_ends_it(match_id: int, api: Any, settings: Any) -> None:
    settings.STREAM_MAX_SECONDS = 0
    count = len(log_of(api, match_id))

    async def scenario() -> None:
        reader = await open_stream(stream_url(match_id))
        assert len(await reader.rest()) == count

    run(scenario)


def test_without_redis_an_event_of_another_process_arrives_by_polling(
        match_id: int, bob: Any, api: Any, settings: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's worker is another process: without Redis its commits never reach
    this process's fan-out, so the stream reads the log every STREAM_POLL_SECONDS."""
    from live import transports

    settings.STREAM_HEARTBEAT_SECONDS = 60  # the heartbeat's own read must not be what finds it
    settings.STREAM_POLL_SECONDS = 0.05
    monkeypatch.setattr(transports, "publish", lambda msg: None)  # as if committed elsewhere
    before = len(log_of(api, match_id))

    async def scenario() -> list[str]:
        reader = await open_stream(stream_url(match_id))
        for _ in range(before):
            await reader.next()
        await db(bob.ok)(match_id, "resign")
        live = [await reader.next() for _ in range(2)]
        await reader.close()
        return [e["event"] for e in live if e is not None]

    assert run(scenario) == ["resign", "game_over"]
