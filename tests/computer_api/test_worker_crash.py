"""A worker killed in the middle of the computer's turn strands nothing.
A real ``manage.py db_worker`` takes the turn and is SIGKILLed while deciding; then a
plain restart under its id, or a second worker, plays that turn — once — and leaves no
RUNNING row behind. The server's own processes on a SQLite file, nothing mocked but the
dead worker's decision (tests/computer_api/gated_worker.py)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import ROOT, prepare_database, server_env

HANG = 120  # seconds before a test gives up waiting (never reached when it passes)
WORKER = ["--no-reload", "--no-startup-delay", "--interval", "0.1", "-v", "0"]


def _query(database: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(database, timeout=30) as db:
        return db.execute(sql, args).fetchall()


def _wait_for(what: str, done: object, processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + HANG
    while not done():  # type: ignore[operator]
        for process in processes:
            assert process.poll() is None, f"a worker exited ({process.returncode}): {what}"
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.parametrize("restart", ["same worker id", "another worker"])
def test_a_killed_worker_loses_no_computer_turn_and_plays_none_twice(
        tmp_path: Path, restart: str) -> None:
    database = tmp_path / "worker.sqlite3"
    env = server_env(database, WORKER_HEARTBEAT_SECONDS="0.2", WORKER_LEASE_SECONDS="1",
                     TASKS_BACKEND="database")
    prepare_database(env, {"person": None})
    made = subprocess.run([sys.executable, "manage.py", "shell", "-c", (
        "from accounts.models import User\nfrom games import services\n"
        "m = services.match_create(user=User.objects.get(username='person'), length=1, "
        "computer='random', color='white')\n"
        # The computer rolls its roll-off die once the person has given a seed.
        "services.match_seed(match_id=m.pk, user=m.white, seed='mine')\n"
        "print('MATCH', m.pk)\n")],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    match_id = int(made.split("MATCH")[1])
    rolls_off = ("SELECT COUNT(*) FROM games_event WHERE match_id = ? AND type = 'roll_off' "
                 "AND data LIKE '%\"black\"%'")

    gate = tmp_path / "gate"
    gate.mkdir()
    dying = subprocess.Popen([sys.executable, "-m", "tests.computer_api.gated_worker",
                              str(gate), *WORKER, "--worker-id", "worker-1"],
                             cwd=ROOT, env=env)
    try:
        _wait_for("the worker to take the computer's roll-off",
                  (gate / "deciding").exists, [dying])
        assert _query(database, "SELECT status FROM django_tasks_database_dbtaskresult") == [
            ("RUNNING",)]
        dying.kill()  # SIGKILL mid-turn: no clean-up of any kind
        dying.wait()
    finally:
        if dying.poll() is None:
            dying.kill()
            dying.wait()
    assert _query(database, rolls_off, match_id) == [(0,)]

    worker_id = "worker-1" if restart == "same worker id" else "worker-2"
    fresh = subprocess.Popen([sys.executable, "manage.py", "db_worker", *WORKER,
                              "--worker-id", worker_id], cwd=ROOT, env=env)
    try:
        _wait_for("the fresh worker to play the computer's roll-off",
                  lambda: _query(database, rolls_off, match_id) == [(1,)], [fresh])
        _wait_for("no job left running or ready", lambda: _query(
            database, "SELECT COUNT(*) FROM django_tasks_database_dbtaskresult "
            "WHERE status IN ('RUNNING', 'READY')") == [(0,)], [fresh])
        time.sleep(1.5)  # a lease's length more: a second copy of the turn would show now
    finally:
        _stop(fresh)

    assert _query(database, rolls_off, match_id) == [(1,)]
    jobs = sorted(_query(database, "SELECT status, exception_class_path, return_value "
                                   "FROM django_tasks_database_dbtaskresult"))
    assert jobs == [("FAILED", "games.tasks.WorkerLost", None),
                    ("SUCCESSFUL", "", '"roll"')]
    assert _query(database, "SELECT COUNT(*) FROM games_workerlease") == [(0,)]
    verified = subprocess.run([sys.executable, "manage.py", "verify_games", "--match",
                               str(match_id)], cwd=ROOT, env=env, capture_output=True,
                              text=True)
    assert verified.returncode == 0 and "0 differ" in verified.stdout, verified.stdout


def test_a_stop_signal_exits_only_while_the_worker_sleeps_on_its_bell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The signal handler's exit is raised where the main thread is. Raised inside
    SQLite's ``BEGIN EXCLUSIVE`` (the worker claiming a job, waiting for the lock) it left
    the connection in a transaction Django did not know of, and the clean stop's lease
    delete failed (seen under load in the test above: one lease left). So the first
    signal exits at once only while the worker sleeps on its doorbell; elsewhere it ends
    the loop at its next check; a second one forces the exit."""
    from games.management.commands.db_worker import LeasedWorker

    def worker() -> LeasedWorker:
        return LeasedWorker(queue_names=["default"], interval=0, batch=False,
                            backend_name="default", startup_delay=False, max_tasks=None,
                            worker_id="signals", excluded_queue_names=[])

    monkeypatch.setattr(LeasedWorker, "reset_signals", lambda self: None)  # pytest's stay
    busy = worker()  # claiming a job, or in one: no exit from inside it
    busy.shutdown(signal.SIGTERM, None)
    assert busy.running is False
    with pytest.raises(SystemExit) as forced:  # the second signal
        busy.shutdown(signal.SIGTERM, None)
    assert forced.value.code == 1
    asleep = worker()
    asleep.waiting.set()  # in _sleep, on the bell
    with pytest.raises(SystemExit) as woken:
        asleep.shutdown(signal.SIGTERM, None)
    assert woken.value.code == 0 and asleep.running is False
