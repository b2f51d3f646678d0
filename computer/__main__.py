"""``python -m computer <command> [options]``: the computer's command-line tools.

    python -m computer arena expert heuristic --rules long_nardy --games 200

Each command is a module with ``main(argv) -> int`` (:data:`COMMANDS`); ``python -m
computer <command> --help`` shows its options.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "arena": ("computer.arena", "play games between two players (levels or gnubg) and "
                                "print the win rate with its 95 % interval"),
    "bearoff": ("computer.bearoff", "build the exact bear-off databases "
                                    "(computer/weights/bearoff.npz)"),
    "client": ("computer.client", "the reference bot client: play an is_bot account's "
                                  "matches through the public API"),
}
"""Command -> (module with ``main(argv) -> int``, one line of help). Imported only
when the command runs."""


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    return "usage: python -m computer <command> [options]\n\ncommands:\n" + "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    if args[0] not in COMMANDS:
        print(f"python -m computer: no command {args[0]!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[args[0]][0])
    return int(module.main(args[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
