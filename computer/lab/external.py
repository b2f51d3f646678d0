"""What the arena's external engines (:mod:`computer.lab.gnubg`,
:mod:`computer.lab.champion`) share: each runs as one long-lived process spoken to a line
at a time."""

from __future__ import annotations

import subprocess


def end_process(process: subprocess.Popen[str], timeout: float = 10.0) -> None:
    """End an engine's process: a ``quit`` line and its input closed, then a wait of up to
    ``timeout`` seconds; killed if it does not end by then or its pipe is gone. Nothing
    happens to a process that has already ended (so calling it twice is harmless)."""
    if process.poll() is not None:
        return
    try:
        assert process.stdin is not None
        process.stdin.write("quit\n")
        process.stdin.close()
        process.wait(timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()
