"""The topology test: deploy/cluster.sh up, whole matches through nginx
with the two players' streams on different app nodes, then faults under load.

    python -m bench.cluster [--matches 4] [--keep-up]

1. Two players, one match: every action goes through nginx (:7400); White's stream is
   read from app node 1 (:7401) and Black's from node 2 (:7402), so each sees the other's
   moves only through Redis. Checks that both streams saw every event of the match, and
   that a reader's match lists are served by the replica (pg_stat_database).
2. Under load (``--matches`` human matches and as many against the computer, played by
   threads through nginx, every action with its own Idempotency-Key, retried with the
   same key on a connection error or 502/503/504), one fault after another:
   kill app node 1 (then start it again), kill worker 1 with SIGKILL while the computer
   has turns queued (worker 2 reclaims them after WORKER_LEASE_SECONDS), stop the replica
   (the lag-tolerant GETs fall back to the primary), restart PgBouncer. After each:
   ``manage.py verify_games`` must find nothing wrong.
3. Lost moves: every answered action returned the match's new version; at the end each
   match's version must equal the last answered one, and no version may have been
   answered twice for two different keys.

Prints the figures; exits non-zero on any loss, any verify_games problem or a match that
stopped; always brings the cluster down (unless --keep-up).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = ROOT / "deploy" / "cluster.sh"
BASE = int(os.environ.get("CLUSTER_PORT", "7400"))
PROXY, APP1, APP2 = BASE, BASE + 1, BASE + 2
ENV = {**os.environ, "WORKER_HEARTBEAT_SECONDS": "1", "WORKER_LEASE_SECONDS": "5",
       "REPLICA_RETRY_SECONDS": "2", "THROTTLE_USER": "1000000/min"}
RETRY_STATUS = {502, 503, 504}
# Set while verify_games runs: the players hold their next action (verify_games reads a
# game and its records in separate queries, so a game changing under it looks wrong).
HOLD = threading.Event()


def cluster(*args: str) -> str:
    return subprocess.run(["bash", str(CLUSTER), *args], env=ENV, check=True,
                          capture_output=True, text=True, timeout=300).stdout


def cluster_env() -> dict[str, str]:
    pairs = (line.split("=", 1) for line in cluster("env").splitlines() if "=" in line)
    return {**os.environ, **dict(pairs)}


def manage(*args: str, script: str | None = None) -> str:
    cmd = [sys.executable, "manage.py", *args] + (["-c", script] if script else [])
    return subprocess.run(cmd, cwd=ROOT, env=cluster_env(), check=True, capture_output=True,
                          text=True, timeout=300).stdout


@dataclass
class Figures:
    answered: int = 0
    retried: int = 0
    errors: list[str] = field(default_factory=list)
    # match id -> {version: idempotency key} of the answered actions
    versions: dict[int, dict[int, str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def request(port: int, method: str, path: str, token: str | None = None, body: Any = None,
            key: str | None = None, timeout: float = 30) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    if key:
        headers["Idempotency-Key"] = key
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, data[:200]
    finally:
        conn.close()


def act(fig: Figures, token: str, match_id: int, action: str, body: dict[str, Any]
        ) -> tuple[int, Any]:
    """POST an action through nginx; on a failure that may have lost the answer, retry with
    the same Idempotency-Key until it is answered (for up to 60 s)."""
    while HOLD.is_set():
        time.sleep(0.05)
    return post(fig, token, f"/api/v1/matches/{match_id}/{action}/", body, match_id)


def post(fig: Figures, token: str, path: str, body: dict[str, Any],
         match_id: int | None = None) -> tuple[int, Any]:
    key = uuid.uuid4().hex
    end = time.monotonic() + 60
    while True:
        try:
            status, data = request(PROXY, "POST", path, token, body, key)
        except (OSError, http.client.HTTPException) as exc:
            status, data = 599, repr(exc)
        if (status not in RETRY_STATUS and status != 599) or time.monotonic() > end:
            break
        with fig.lock:
            fig.retried += 1
        time.sleep(0.2)
    if status == 200 and match_id is not None:
        with fig.lock:
            fig.answered += 1
            seen = fig.versions.setdefault(match_id, {})
            if seen.get(data["version"], key) != key:
                fig.errors.append(f"match {match_id}: version {data['version']} answered twice")
            seen[data["version"]] = key
    return status, data


def play(fig: Figures, tokens: dict[str, str], match: dict[str, Any], stop: threading.Event,
         pause: float = 0.0) -> dict[str, Any]:
    """Play ``match`` to its end (or until ``stop``): the side in ``turn`` rolls or plays
    its first legal step; ``tokens`` maps colours to the players' tokens (one colour for a
    match against the computer, whose turns the workers play)."""
    stalled_since = time.monotonic()
    while match["status"] == "active" and not stop.is_set():
        state = match["state"]
        turn = state.get("turn")
        colours = [turn] if turn in tokens else ([] if turn else list(tokens))
        progressed = False
        for colour in colours:
            if state["phase"] == "move" and state.get("legal_steps"):
                body = {"steps": [state["legal_steps"][0]], "expected_version": match["version"]}
                status, data = act(fig, tokens[colour], match["id"], "moves", body)
            elif state["phase"] in ("roll", "roll-off"):
                status, data = act(fig, tokens[colour], match["id"], "roll",
                                   {"expected_version": match["version"]})
            else:
                break
            if status == 200:
                match, progressed = data, True
                break
        if not progressed:  # the computer's turn, or the other side's roll-off: look again
            if time.monotonic() - stalled_since > 90:
                fig.errors.append(f"match {match['id']} stalled in {state}")
                return match
            time.sleep(0.1)
            some = next(iter(tokens.values()))
            status, data = request(PROXY, "GET", f"/api/v1/matches/{match['id']}/", some)
            if status == 200:
                match = data
            continue
        stalled_since = time.monotonic()
        if pause:
            time.sleep(pause)
    return match


def read_stream(port: int, match_id: int, token: str, seen: list[int], done: threading.Event
                ) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", f"/api/v1/matches/{match_id}/stream/",
                 headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"})
    response = conn.getresponse()
    while not done.is_set():
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            seen.append(int(line[4:]))
    conn.close()


def make_players(count: int) -> list[str]:
    script = ("from accounts.models import User\nfrom accounts.services import token_obtain\n"
              f"for i in range({count}):\n"
              "    u, _ = User.objects.get_or_create(username=f'cluster{i}')\n"
              "    print('TOKEN', u.username, token_obtain(user=u).key)\n")
    out = manage("shell", script=script)
    return [line.split()[2] for line in out.splitlines() if line.startswith("TOKEN ")]


def new_match(fig: Figures, tokens: list[str], names: list[str], i: int, j: int
              ) -> dict[str, Any]:
    status, created = post(fig, tokens[i], "/api/v1/matches/",
                           {"length": 1, "opponent": names[j], "color": "white"})
    assert status == 201, (status, created)
    status, joined = post(fig, tokens[j], f"/api/v1/matches/{created['id']}/join/", {})
    assert status == 200, (status, joined)
    return joined


def computer_match(fig: Figures, token: str) -> dict[str, Any]:
    status, created = post(fig, token, "/api/v1/matches/",
                           {"length": 1, "computer": "random", "color": "white"})
    assert status == 201, (status, created)
    return created


def replica_commits() -> int:
    """Transactions the replica has served on the site's database (pg_stat_database)."""
    import psycopg

    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{BASE + 12}/nard",
                         autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit FROM pg_stat_database "
                           "WHERE datname = 'nard'").fetchone()
    return int(row[0]) if row else 0


def node_metric(port: int, name: str) -> float:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return float("nan")


def verify() -> tuple[bool, str]:
    """manage.py verify_games: (clean, its summary line and the first problems)."""
    done = subprocess.run([sys.executable, "manage.py", "verify_games"], cwd=ROOT,
                          env=cluster_env(), capture_output=True, text=True, timeout=300)
    lines = (done.stdout + done.stderr).strip().splitlines()
    summary = next((line for line in reversed(lines) if "replayed" in line), "(no summary)")
    if done.returncode:
        summary += " | " + " | ".join(lines[:5])
    return done.returncode == 0, summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--keep-up", action="store_true")
    args = parser.parse_args()
    started = time.monotonic()
    ok = True
    fig = Figures()
    try:
        cluster("up")
        print(f"cluster up in {time.monotonic() - started:.1f} s")
        players = 2 * args.matches + 2
        tokens = make_players(players)
        names = [f"cluster{i}" for i in range(players)]

        # 1. one whole match, the players' streams on different nodes.
        match = new_match(fig, tokens, names, 0, 1)
        seen1: list[int] = []
        seen2: list[int] = []
        done = threading.Event()
        readers = [threading.Thread(target=read_stream, daemon=True,
                                    args=(APP1, match["id"], tokens[0], seen1, done)),
                   threading.Thread(target=read_stream, daemon=True,
                                    args=(APP2, match["id"], tokens[1], seen2, done))]
        for r in readers:
            r.start()
        time.sleep(1)
        final = play(fig, {"white": tokens[0], "black": tokens[1]}, match, threading.Event())
        time.sleep(1.5)
        done.set()
        both = bool(seen1) and bool(seen2) and max(seen1) == max(seen2)
        print(f"match {match['id']} {final['status']}: {fig.answered} actions; stream on node 1 "
              f"saw {len(seen1)} events (last {max(seen1, default=0)}), node 2 {len(seen2)} "
              f"(last {max(seen2, default=0)})")
        ok &= final["status"] == "finished" and both
        # The lag-tolerant reads of a player who has not written lately use the replica.
        before = replica_commits()
        for _ in range(20):
            assert request(PROXY, "GET", "/api/v1/matches/", tokens[-1])[0] == 200
        time.sleep(1.5)  # the statistics are flushed about every second
        served = replica_commits() - before
        print(f"20 match lists of a reader: the replica served {served} transactions")
        ok &= served > 0

        # 2. load: human matches and computer matches in threads, then the faults.
        stop = threading.Event()
        threads: list[threading.Thread] = []

        def keep_playing(k: int) -> None:
            while not stop.is_set():
                if k % 2:
                    m = computer_match(fig, tokens[2 + k])
                    play(fig, {"white": tokens[2 + k]}, m, stop, pause=0.05)
                else:
                    m = new_match(fig, tokens, names, 2 + k, 3 + k)
                    play(fig, {"white": tokens[2 + k], "black": tokens[3 + k]}, m, stop,
                         pause=0.05)

        for k in range(2 * args.matches):
            threads.append(threading.Thread(target=keep_playing, args=(k,), daemon=True))
        for t in threads:
            t.start()
        time.sleep(3)

        def phase(name: str, fault: Any, after: Any = None) -> None:
            nonlocal ok
            before, retried = fig.answered, fig.retried
            t0 = time.monotonic()
            fault()
            took = time.monotonic() - t0
            time.sleep(4)
            if after:
                after()
            HOLD.set()
            time.sleep(2)
            clean, result = verify()
            HOLD.clear()
            bad = not clean
            print(f"{name}: fault took {took:.1f} s; {fig.answered - before} actions answered, "
                  f"{fig.retried - retried} retries meanwhile; verify_games: {result}")
            ok &= not bad

        phase("kill app node 1 (SIGKILL)", lambda: cluster("kill-app", "1"),
              lambda: cluster("start-app", "1"))

        t_replica: list[float] = []

        def stop_replica() -> None:
            cluster("stop-replica")
            t0 = time.monotonic()
            status, _ = request(PROXY, "GET", "/api/v1/matches/", tokens[-1])
            t_replica.append(time.monotonic() - t0)
            assert status == 200, status

        phase("kill worker 1 (SIGKILL)", lambda: cluster("kill-worker", "1"),
              lambda: (time.sleep(6), cluster("start-worker", "1")))
        phase("stop the replica", stop_replica, lambda: cluster("start-replica"))
        print(f"  a lag-tolerant read with the replica stopped answered in {t_replica[0]:.2f} s")
        phase("restart PgBouncer", lambda: cluster("restart-bouncer"))
        stop.set()
        for t in threads:
            t.join(timeout=60)

        # 3. nothing answered was lost.
        lost = 0
        for match_id, seen in fig.versions.items():
            status, state = request(PROXY, "GET", f"/api/v1/matches/{match_id}/", tokens[0])
            if status == 200 and state["version"] < max(seen):
                lost += 1
                fig.errors.append(f"match {match_id}: version {state['version']} < answered "
                                  f"{max(seen)}")
        print(f"moves answered: {fig.answered}, lost: {lost}, client retries: {fig.retried}, "
              f"matches: {len(fig.versions)}, errors: {len(fig.errors)}")
        for error in fig.errors[:10]:
            print("  ", error)
        ok &= lost == 0 and not fig.errors
        clean, result = verify()
        print(f"verify_games at the end: {result}")
        print("moves committed per node (/metrics, since each node's last start): "
              + ", ".join(f"node {n}: {node_metric(port, 'nard_moves_committed_total'):.0f}"
                          for n, port in ((1, APP1), (2, APP2))))
        ok &= clean
    except BaseException:
        ok = False
        raise
    finally:
        if not args.keep_up:
            cluster("down")
        print(f"total {time.monotonic() - started:.0f} s: {'PASS' if ok else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
