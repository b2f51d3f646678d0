"""A reference bot client: a bot account plays its matches through the public API
(/api/v1/, API.md) at any level of :mod:`computer` — an example for bot authors
(docs/bots.md).

Run it (the token is the account's, from ``POST accounts/token/``, or a personal token with
the scopes ``bot:play`` and ``account:read``). The account must be a bot: an account that
has finished no game becomes one for good with ``POST accounts/bot/upgrade/``, which
``--upgrade`` sends; without it the client refuses to play for an account that is not one::

    python -m computer.lab.client --url http://127.0.0.1:8000 --token TOKEN --level expert
    python -m computer.lab.client ... --upgrade             # make the account a bot first
    python -m computer.lab.client ... --once                # play what waits now, then exit
    python -m computer.lab.client ... --match 42            # only match 42, until it is over
    python -m computer.lab.client ... --accept-invitations  # join the matches it is invited to

(``NARD_TOKEN`` may hold the token instead of ``--token``.) It logs one line per action and
stops cleanly on Ctrl-C.

How it works — everything below is the public API, nothing of the server's code:

- ``GET accounts/me/`` names the account (and says ``is_bot``; with ``--upgrade`` a
  person's account is upgraded by ``POST accounts/bot/upgrade/``);
- ``GET matches/?player=<me>&status=active`` (and ``invited``) lists the matches where it may
  be to act; for each, ``GET matches/{id}/`` and one action at a time — ``join``, ``roll``,
  ``moves`` (the whole turn at once), ``offer``, ``accept`` or ``refuse``,
  ``resign/accept`` or ``resign/refuse`` (an offer to resign with a result) — each with
  ``expected_version`` and a fresh ``Idempotency-Key``; the answer is the match after it;
- a 409 (``version_conflict``: someone acted first; ``not_your_turn``, ``wrong_phase``) reads
  the match again; 429 and 503 wait (``Retry-After``) and send the same request again, with
  the same key, so a retry never acts twice;
- between actions it follows the account stream ``GET stream/`` (Server-Sent Events:
  ``your_turn``, ``offer``, ``resign_offer``, ``invitation``, ``deadline``, ``game_over``,
  ``match_over``), and reconnects after the server's ``retry`` hint, or with a growing
  back-off after a failure (sending ``Last-Event-ID`` when the stream gave ids). A server
  without the stream is polled: the match list, and the events long-poll
  ``events/?after=N&wait=25``.

The play itself: ``state.position_id`` is the engine's position ID (docs/notation.md), read
back with ``RULESETS[rules].position_from_id`` — a client without the engine would map
``state.board`` instead (``position_from_perspective`` does that in Python). With the dice
and ``state.first_turn`` it goes to :func:`computer.choose_play` with the match's
:class:`~computer.stakes.Situation` (the learned levels play for the match at its score,
as the server's computer does: :mod:`computer.score`); the stake questions go to
:func:`computer.match_stake_decision`. A level the rule set lacks (a learned one without
weights) plays as ``heuristic``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import computer
from computer.stakes import Situation
from nardy import BLACK, RULESETS, WHITE, format_play
from nardy.stakes import holds_the_right

log = logging.getLogger("computer.lab.client")

TIMEOUT = 60.0
"""Seconds a request (or a quiet stream: the server writes at least every 15 s) may take."""
RETRIES = 6
"""Attempts of one request through 429, 503 and lost connections."""
MAX_BACKOFF = 60.0
POLL_SECONDS = 5.0
"""Polling, without the account stream: how long to wait when nothing happened."""
LONG_POLL = 25
"""``events/?wait=`` seconds (the server's maximum is 30)."""
MAX_ACTIONS = 2000
"""Actions in one visit to a match at the most (a whole match is far fewer)."""
NO_STREAM = (404, 405, 406, 501)
"""Answers of a server that has no account stream: poll instead."""


class ApiError(Exception):
    """An answer in the API's error shape (or what stood for one: a 502 from a proxy)."""

    def __init__(self, status: int, code: str, message: str = "",
                 retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


class Stopped(Exception):
    """The client was asked to stop while it waited."""


class NotABot(Exception):
    """The account is not flagged ``is_bot``: ``POST accounts/bot/upgrade/`` (``--upgrade``)
    makes it a bot first."""


# --- HTTP -------------------------------------------------------------------------------


class Api:
    """The API over urllib: JSON in and out, the token header, retries with back-off."""

    def __init__(self, url: str, token: str, stop: threading.Event | None = None) -> None:
        base = url.rstrip("/")
        self.base = base + "/" if base.endswith("/api/v1") else base + "/api/v1/"
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        self.stop = stop or threading.Event()

    def pause(self, seconds: float) -> None:
        if self.stop.wait(seconds):
            raise Stopped

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, *,
             key: str | None = None, timeout: float = TIMEOUT) -> Any:
        """The answer's JSON; raises :class:`ApiError` for a 4xx/5xx (after retrying 429,
        503 and lost connections, with the same ``Idempotency-Key``)."""
        url = path if path.startswith("http") else self.base + path
        headers = dict(self.headers)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        for attempt in range(1, RETRIES + 1):
            request = urllib.request.Request(url, data, headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    raw = response.read()
                    return json.loads(raw) if raw else None
            except urllib.error.HTTPError as exc:
                error = api_error(exc)
                if error.status not in (429, 503) or attempt == RETRIES:
                    raise error from None
                delay = backoff(attempt) if error.retry_after is None else error.retry_after
                log.info("%s %s: %s, again in %.1f s", method, path, error.code, delay)
            except OSError as exc:  # refused, reset, timed out: the request may have applied
                if attempt == RETRIES:
                    raise
                delay = backoff(attempt)
                log.info("%s %s: %s, again in %.1f s", method, path, exc, delay)
            self.pause(delay)
        raise AssertionError("unreachable")

    def open_stream(self, path: str, last_event_id: str | None = None) -> Any:
        """An open ``text/event-stream`` answer (iterate it for its lines); raises
        :class:`ApiError` or ``OSError``."""
        headers = {**self.headers, "Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        request = urllib.request.Request(self.base + path, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as exc:
            raise api_error(exc) from None


def api_error(exc: urllib.error.HTTPError) -> ApiError:
    try:
        error = json.loads(exc.read())["error"]
        code, message = str(error["code"]), str(error["message"])
    except (ValueError, KeyError, TypeError):
        code, message = f"http_{exc.code}", str(exc.reason)
    retry = exc.headers.get("Retry-After") if exc.headers else None
    return ApiError(exc.code, code, message,
                    float(retry) if retry and retry.strip().isdigit() else None)


def backoff(attempt: int) -> float:
    """1, 2, 4 … seconds, at most :data:`MAX_BACKOFF`, with some jitter."""
    return min(MAX_BACKOFF, 2.0 ** (attempt - 1)) * random.uniform(0.8, 1.2)


# --- Server-Sent Events -----------------------------------------------------------------


@dataclass(frozen=True)
class ServerEvent:
    event: str
    data: str
    id: str | None = None


@dataclass
class EventStream:
    """Reads Server-Sent Events from a stream's lines (the WHATWG rules: ``field: value``
    lines, a blank line ends an event, ``:`` starts a comment, ``data`` lines join with
    newlines). Keeps the last ``id`` (for ``Last-Event-ID``) and the ``retry`` hint."""

    last_id: str | None = None
    retry_ms: int | None = None

    def events(self, lines: Iterable[bytes | str]) -> Iterator[ServerEvent]:
        data: list[str] = []
        kind = ""
        for raw in lines:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            line = line.removesuffix("\n").removesuffix("\r")
            if not line:
                if data:
                    yield ServerEvent(kind or "message", "\n".join(data), self.last_id)
                data, kind = [], ""
                continue
            if line.startswith(":"):
                continue  # a comment: the keep-alive
            name, colon, value = line.partition(":")
            if colon and value.startswith(" "):
                value = value[1:]
            if name == "data":
                data.append(value)
            elif name == "event":
                kind = value
            elif name == "id" and "\0" not in value:
                self.last_id = value or None
            elif name == "retry" and value.isdigit():
                self.retry_ms = int(value)
        # The stream ended: an event without its blank line is dropped, as the rules say.


# --- the bot ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    verb: str  # the endpoint: join, roll, moves, offer, accept, refuse, resign/accept, …
    body: dict[str, Any]
    note: str = ""


@dataclass
class Bot:
    """Plays the account's matches: :meth:`run` until stopped, or once."""

    api: Api
    level: str
    accept_invitations: bool = False
    only_match: int | None = None
    rng: random.Random = field(default_factory=random.Random)
    username: str = ""
    refused: list[str] = field(default_factory=list)
    """What the server refused for good (an illegal move, a match it may not read): empty
    unless the client errs. The command then exits with status 1; ``--match`` stops."""
    _no_offer: set[tuple[int, int]] = field(default_factory=set)
    _stuck: set[tuple[int, int]] = field(default_factory=set)
    _last_seq: dict[int, int] = field(default_factory=dict)
    _waiting: list[int] = field(default_factory=list)
    _fallbacks: set[str] = field(default_factory=set)
    upgrade: bool = False
    """Upgrade a person's account to a bot (``POST accounts/bot/upgrade/``) before playing."""
    _done: bool = False

    # --- the loop -----------------------------------------------------------------------

    def run(self, once: bool = False) -> None:
        """Say hello, then play what waits; ``once``: that only, else follow the account
        stream (or poll) until stopped or, with ``only_match``, until that match is over."""
        self.hello()
        self.sweep()
        if not once:
            self.follow()

    def stop(self) -> None:
        self.api.stop.set()

    @property
    def stopping(self) -> bool:
        return self._done or self.api.stop.is_set()

    def hello(self) -> None:
        me = self.api.call("GET", "accounts/me/")
        self.username = me["username"]
        if not me.get("is_bot") and self.upgrade:
            me = self.api.call("POST", "accounts/bot/upgrade/")
            log.info("%s: upgraded to a bot account", self.username)
        if not me.get("is_bot"):
            raise NotABot(f"{self.username} is not flagged is_bot: upgrade it first (--upgrade, "
                          "or POST accounts/bot/upgrade/; only an account that has finished "
                          "no game may)")
        log.info("%s: playing at level %s", self.username, self.level)

    def sweep(self) -> int:
        """Play every match where the account is to act now; answers how many actions."""
        ids = [self.only_match] if self.only_match else self.my_matches()
        return sum(self.visit(match_id) for match_id in ids if not self.stopping)

    def my_matches(self) -> list[int]:
        """The account's matches where it may be to act (the list's summary state)."""
        statuses = ["active", "invited"] if self.accept_invitations else ["active"]
        found, self._waiting = [], []
        for status in statuses:
            query = urllib.parse.urlencode({"player": self.username, "status": status,
                                            "page_size": 100})
            page: str | None = f"matches/?{query}"
            while page:
                answer = self.api.call("GET", page)
                for match in answer["results"]:
                    if self.decide(match, summary=True) is not None:
                        found.append(match["id"])
                    elif match["status"] == "active":
                        self._waiting.append(match["id"])
                page = answer.get("next")
        return found

    def follow(self) -> None:
        """The account stream, opened again after each end (the server's ``retry`` hint),
        or after a failure (a growing back-off); polling when the server has none."""
        sse, failures, delay = EventStream(), 0, 0.0
        while not self.stopping:
            try:
                if delay:
                    self.api.pause(delay)
                    self.sweep()  # what the stream does not repeat on connecting: offers
                    if self.stopping:
                        return
                with self.api.open_stream("stream/", sse.last_id) as response:
                    failures = 0
                    for item in sse.events(response):
                        self.on_item(item)
                        if self.stopping:
                            return
                delay = (sse.retry_ms or 2000) / 1000
            except ApiError as exc:
                if exc.status == 401:
                    raise  # the token was revoked: nothing more to do
                if exc.status in NO_STREAM:
                    log.info("no account stream (%s): polling", exc.status)
                    return self.poll()
                failures += 1
                delay = exc.retry_after or backoff(failures)
                log.info("account stream: %s, again in %.1f s", exc.code, delay)
            except OSError as exc:
                failures += 1
                delay = backoff(failures)
                log.info("account stream: %s, again in %.1f s", exc, delay)

    def on_item(self, item: ServerEvent) -> None:
        try:
            data = json.loads(item.data)
            match_id = int(data["match"])
        except (ValueError, KeyError, TypeError):
            return  # a kind this client does not know (the API says: ignore it)
        if self.only_match and match_id != self.only_match:
            return
        if item.event in ("your_turn", "offer", "resign_offer", "deadline"):
            self.visit(match_id)
        elif item.event == "invitation":
            if self.accept_invitations:
                self.visit(match_id)
            else:
                log.info("match %s: invited by %s (not joining: no --accept-invitations)",
                         match_id, data.get("by"))
        elif item.event in ("game_over", "match_over"):
            log.info("match %s: %s %s", match_id, item.event,
                     {k: v for k, v in data.items() if k not in ("match", "version")})
            if item.event == "match_over" and match_id == self.only_match:
                self._done = True

    def poll(self) -> None:
        """Without the stream: the match list, then the events long-poll on a match the
        account waits in (a server without the long-poll answers at once: then a pause)."""
        failures = 0
        while not self.stopping:
            try:
                if self.sweep():
                    continue
                waiting = [self.only_match] if self.only_match else self._waiting
                if waiting and self.long_poll(waiting[0]):
                    continue
                delay, failures = POLL_SECONDS, 0
            except ApiError as exc:
                if exc.status == 401:
                    raise
                failures += 1
                delay = exc.retry_after or backoff(failures)
                log.info("polling: %s, again in %.1f s", exc.code, delay)
            except OSError as exc:
                failures += 1
                delay = backoff(failures)
                log.info("polling: %s, again in %.1f s", exc, delay)
            self.api.pause(delay)

    def long_poll(self, match_id: int) -> bool:
        """Wait for the match's next event; answers whether one came."""
        after = self._last_seq.get(match_id)
        if after is None:
            events = self.api.call("GET", f"matches/{match_id}/events/")
            after = events[-1]["seq"] if events else 0
        events = self.api.call("GET", f"matches/{match_id}/events/?after={after}"
                               f"&wait={LONG_POLL}", timeout=LONG_POLL + TIMEOUT)
        self._last_seq[match_id] = events[-1]["seq"] if events else after
        return bool(events)

    # --- one match ----------------------------------------------------------------------

    def visit(self, match_id: int) -> int:
        """:meth:`play`, a match the account may not read (403, 404) logged and left."""
        try:
            return self.play(match_id)
        except ApiError as exc:
            if exc.status in (401, 429) or exc.status >= 500:
                raise  # the caller backs off (or stops: the token was revoked)
            self.give_up(match_id, f"match {match_id}: {exc}")
            return 0

    def play(self, match_id: int) -> int:
        """Act in the match until it is not the account's to act; answers how many actions
        it took. Never raises for what the server refuses: it logs and reads again."""
        match = self.api.call("GET", f"matches/{match_id}/")
        done = 0
        for _ in range(MAX_ACTIONS):
            if self.stopping:
                break
            if match["status"] in ("finished", "aborted") and match_id == self.only_match:
                self._done = True
            if (match_id, match["version"]) in self._stuck:
                break  # refused at this version already: deciding again would repeat it
            action = self.decide(match)
            if action is None:
                break
            try:
                match = self.api.call("POST", f"matches/{match_id}/{action.verb}/",
                                      action.body, key=str(uuid.uuid4()))
            except ApiError as exc:
                if not self.refusal(match, action, exc):
                    break
                match = self.api.call("GET", f"matches/{match_id}/")
                continue
            done += 1
            rolled = match.get("dice", match.get("die")) if action.verb == "roll" else None
            log.info("match %s v%s: %s%s%s", match_id, action.body["expected_version"],
                     action.verb, f" {action.note}" if action.note else "",
                     f" -> {rolled}" if rolled is not None else "")
        return done

    def refusal(self, match: dict[str, Any], action: Action, exc: ApiError) -> bool:
        """Log a refused action; answers whether to read the match and decide again."""
        where = f"match {match['id']} v{match['version']}: {action.verb}"
        if exc.status == 409:
            log.info("%s refused (%s): reading the match again", where, exc.code)
            if action.verb == "offer":
                self._no_offer.add((match["id"], match["version"]))  # roll instead
            return exc.code == "version_conflict" or action.verb == "offer"
        self._stuck.add((match["id"], match["version"]))
        self.give_up(match["id"], f"{where} refused: {exc} (not tried again at this version)")
        return False

    def give_up(self, match_id: int, why: str) -> None:
        log.warning("%s", why)
        self.refused.append(why)
        if match_id == self.only_match:
            self._done = True  # nothing else to play

    def decide(self, match: dict[str, Any], summary: bool = False) -> Action | None:
        """What the account does next in ``match`` (a list's summary is enough to tell
        whether it is to act; ``summary`` skips the search)."""
        version = {"expected_version": match["version"]}
        if match["status"] == "invited":
            mine = match.get("invited") == self.username and self.accept_invitations
            return Action("join", version, "(invitation)") if mine else None
        colour = ("white" if match["white"] == self.username
                  else "black" if match["black"] == self.username else None)
        state = match.get("state")
        if match["status"] != "active" or match.get("hotseat") or not colour or not state:
            return None
        phase = state["phase"]
        if phase == "roll-off":
            return Action("roll", version, "(roll-off)") if state["roll_off"][colour] is None \
                else None
        if state["turn"] != colour or phase not in ("roll", "move", "offer", "resign"):
            return None
        if summary:
            return Action(phase, version)
        rules, side = match["rules"], WHITE if colour == "white" else BLACK
        level = self.level_for(rules)
        position = RULESETS[rules].position_from_id(state["position_id"])
        first = bool(state["first_turn"][colour])
        if phase == "offer":
            situation = Situation.of_api_match(match, colour)
            yes = computer.match_stake_decision(rules, level, position, side, situation,
                                                question="accept", rng=self.rng)
            return Action("accept" if yes else "refuse", version,
                          f"stake {situation.next_stake}")
        if phase == "resign":  # the opponent offers to resign the game with a result
            offered = state.get("resign_offer") or {}
            situation = Situation.of_api_match(match, colour)
            yes = computer.resignation_decision(
                rules, level, position, side, situation,
                offered_points=int(offered.get("points", 1)),
                offerer_first_turn=bool(state["first_turn"][
                    "black" if colour == "white" else "white"]), rng=self.rng)
            return Action("resign/accept" if yes else "resign/refuse", version,
                          str(offered.get("result", "")))
        if phase == "roll":
            if (holds_the_right(state.get("may_offer") or "none", colour)
                    and not state.get("offer")
                    and (match["id"], match["version"]) not in self._no_offer):
                situation = Situation.of_api_match(match, colour)
                if computer.match_stake_decision(rules, level, position, side, situation,
                                                 question="offer", first_turn=first,
                                                 rng=self.rng):
                    return Action("offer", version, f"stake {situation.next_stake}")
            return Action("roll", version)
        dice = tuple(state["dice"])
        if len(state["dice_left"]) < (4 if dice[0] == dice[1] else 2):
            # A turn begun elsewhere (another client of this account): finish it a step
            # at a time with the steps the server offers.
            step = state["legal_steps"][0]
            return Action("moves", {**version, "steps": [step]},
                          f"{step['from']}/{step['to']} (finishing a turn begun elsewhere)")
        steps = computer.choose_play(rules, level, position, side, (dice[0], dice[1]),
                                     first, self.rng, Situation.of_api_match(match, colour))
        return Action("moves", {**version, "steps": [
            {"from": s.src, "to": s.dst, "die": s.die} for s in steps]},
            f"{dice[0]}-{dice[1]}: {format_play(steps)}")

    def level_for(self, rules: str) -> str:
        if self.level in computer.levels_for(rules):
            return self.level
        if rules not in self._fallbacks:
            self._fallbacks.add(rules)
            log.info("%s has no level %s here: playing heuristic", rules, self.level)
        return "heuristic"


# --- the command ------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m computer.lab.client",
                                description="Play a bot account's matches through the "
                                            "public API (docs/bots.md).")
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the server")
    p.add_argument("--token", default=os.environ.get("NARD_TOKEN"),
                   help="the account's API token (default: $NARD_TOKEN)")
    p.add_argument("--level", default="heuristic", choices=list(computer.LEVELS))
    p.add_argument("--once", action="store_true", help="play what waits now, then exit")
    p.add_argument("--match", type=int, help="only this match (until it is over)")
    p.add_argument("--accept-invitations", action="store_true",
                   help="join the matches the account is invited to")
    p.add_argument("--seed", type=int, help="seed of the random level's choices")
    p.add_argument("--upgrade", action="store_true",
                   help="make the account a bot first (POST accounts/bot/upgrade/: for good, "
                        "and only for an account that has finished no game)")
    return p


def main(argv: list[str] | None = None,
         started: Callable[[Bot], None] = lambda bot: None) -> int:
    """The command; ``started`` sees the bot before it runs (a test's handle to stop it)."""
    args = parser().parse_args(argv)
    if not args.token:
        parser().error("--token (or NARD_TOKEN) is required")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    bot = Bot(Api(args.url, args.token), args.level, args.accept_invitations, args.match,
              random.Random(args.seed), upgrade=args.upgrade)
    started(bot)
    begun = time.monotonic()
    try:
        bot.run(once=args.once)
    except (KeyboardInterrupt, Stopped):
        log.info("stopped")
    except NotABot as exc:
        log.error("%s", exc)
        return 2
    except ApiError as exc:
        log.error("the server answered %s", exc)
        return 1
    except OSError as exc:
        log.error("the server is out of reach: %s", exc)
        return 1
    log.info("done after %.0f s%s", time.monotonic() - begun,
             f", {len(bot.refused)} refused" if bot.refused else "")
    return 1 if bot.refused else 0


if __name__ == "__main__":
    raise SystemExit(main())
