"""``python -m computer.lab <command> [options]``: the computer's lab on the command line.

    python -m computer.lab arena expert heuristic --rules long_nardy --games 200
    python -m computer.lab train --rules long_nardy --games 60000 --seed 1

Each command is a module of the lab with ``main(argv) -> int`` (:data:`COMMANDS`);
``python -m computer.lab <command> --help`` shows its options.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "arena": ("computer.lab.arena", "play games between two players (levels or gnubg) and "
                                    "print the win rate with its 95 % interval"),
    "bearoff": ("computer.lab.bearoff", "build the exact bear-off databases "
                                        "(computer/weights/bearoff.npz)"),
    "client": ("computer.lab.client", "the reference bot client: play a bot account's "
                                      "matches through the public API (docs/bots.md)"),
    "train": ("computer.lab.train", "TD(λ) self-play training of a rule set's network"),
    "train_race": ("computer.lab.train_race", "TD(λ) self-play training of the race network"),
    "train_search": ("computer.lab.train_search", "the second stage: the network fitted to "
                                                  "its own 1-ply (or 2-ply) search"),
    "race_rollouts": ("computer.lab.race_rollouts", "the race network fitted to rollouts of "
                                                    "race positions"),
    "ensemble": ("computer.lab.ensemble", "several trained networks averaged into one"),
}
"""Command -> (module with ``main(argv) -> int``, one line of help). Imported only
when the command runs: each command needs only its own module."""


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    return ("usage: python -m computer.lab <command> [options]\n\ncommands:\n"
            + "\n".join(lines))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    if args[0] not in COMMANDS:
        print(f"python -m computer.lab: no command {args[0]!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[args[0]][0])
    return int(module.main(args[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
