"""The computer opponents as the server sees them: their levels and their accounts.

Each level of :mod:`computer` plays as one built-in account, ``computer-<level>``, flagged
``is_bot`` and with no usable password; the account is created the first time a match
against that level is made. Registration refuses every ``computer-`` name
(``accounts.names.RESERVED_PREFIXES``), so an account of that name flagged a bot is the
server's own, and only those are played by the task queue (:mod:`games.bots`); any other
account staff flag as a bot plays through the API itself.
"""

from __future__ import annotations

from typing import Any

import computer
from accounts.models import User
from accounts.services import bot_account
from games import presence, shapes
from games.exceptions import InvalidRequest
from nardy import RULESETS

PREFIX = "computer-"


def account_name(level: str) -> str:
    return f"{PREFIX}{level}"


def levels(rules: str) -> dict[str, str]:
    """The levels that play ``rules`` (name → sentence), strongest last."""
    return computer.levels_for(rules)


def levels_json() -> list[shapes.RulesLevels]:
    """``GET computer/``: every rule set with the levels that play it, a sentence each
    and the engine that plays each."""
    return [
        {"rules": rules,
         "levels": [{"level": level, "description": text, "account": account_name(level),
                     "engine": computer.engine_of(rules, level)}
                    for level, text in levels(rules).items()]}
        for rules in RULESETS if _computer_plays(rules)
    ]


def _computer_plays(rules: str) -> bool:
    """The computer has levels for ``rules`` (a rule set added at run time may have none)."""
    try:
        return bool(levels(rules))
    except (KeyError, ValueError):
        return False


def computer_account(*, level: str, rules: str) -> User:
    """The account of ``level``, which must play ``rules``; raises :class:`InvalidRequest`
    (``details.computer``) for a level that does not."""
    known = levels(rules)
    if level not in known:
        raise InvalidRequest(
            f"No computer level {level!r} for {rules}.",
            details={"computer": [f"Must be one of {', '.join(known)}."]})
    account = bot_account(username=account_name(level), display_name=f"Computer ({level})")
    presence.always(account.pk)
    return account


def level_of(user: Any) -> str | None:
    """The level a built-in computer account plays, or ``None`` for anyone else (people,
    and bots that play through the API themselves)."""
    if user is None or not getattr(user, "is_bot", False):
        return None
    name = user.username
    if not name.startswith(PREFIX) or name[len(PREFIX):] not in computer.LEVELS:
        return None
    return name[len(PREFIX):]


__all__ = ["PREFIX", "account_name", "computer_account", "level_of", "levels", "levels_json"]
