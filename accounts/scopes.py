"""What a scoped credential may do: the scopes, and the one each API call needs.

Three kinds of credentials reach the API (docs/api.md, "Tokens and scopes"):

- a **log-in token** (``POST accounts/token/``, ``accounts/register/``) and the session:
  every scope, and more — only they may manage personal tokens (:data:`FULL_ACCESS`);
- a **personal token** (``POST accounts/tokens/``, also ``Authorization: Token <key>``):
  the scopes its owner chose;
- an **OAuth 2 access token** (``Authorization: Bearer <token>``, from ``/oauth/token/``):
  the scopes the account approved for the third-party app.

A view says what it needs by ``required_scopes`` (method → scope); without it a read needs
``match:read`` and a write ``match:play``. The check runs where a scoped credential is
authenticated (``accounts.authentication``), so every view is covered, including those
that never heard of scopes; a refusal is 403 ``insufficient_scope``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from oauth2_provider.scopes import BaseScopes

from nard_site.api.errors import InsufficientScope

MATCH_READ = "match:read"
MATCH_PLAY = "match:play"
ACCOUNT_READ = "account:read"
ACCOUNT_WRITE = "account:write"
BOT_PLAY = "bot:play"

SCOPES: dict[str, str] = {
    MATCH_READ: "Read matches, their games, moves, events and streams, your account stream, "
                "ratings and pairing.",
    MATCH_PLAY: "Create, join and play matches (every action of a match), quick pairing, "
                "game reviews.",
    ACCOUNT_READ: "Read your own profile (accounts/me/).",
    ACCOUNT_WRITE: "Change your profile.",
    BOT_PLAY: "Play as a bot account: match:read and match:play for a bot account, and "
              "the bot upgrade.",
}
"""Every scope, with the sentence the consent page and the schema show."""

DEFAULT_SCOPES = (MATCH_READ, ACCOUNT_READ)
"""What an app gets when its authorization request names no scope."""

FULL_ACCESS = "*"
"""Not a scope: what only a log-in token or the session may do (manage personal tokens)."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def required(view: Any, method: str) -> str | None:
    """The scope a call of ``view`` with ``method`` needs (``None``: any credential,
    :data:`FULL_ACCESS`: a log-in token or the session only)."""
    method = method.upper()
    declared = getattr(view, "required_scopes", None)
    if declared is not None and method in declared:
        scope: str | None = declared[method]
        return scope
    return MATCH_READ if method in SAFE_METHODS else MATCH_PLAY


def allows(granted: Collection[str], scope: str | None, *, is_bot: bool) -> bool:
    """Whether a credential holding ``granted`` may do what needs ``scope``: ``bot:play``
    stands for ``match:read`` and ``match:play`` on a bot account."""
    if scope is None:
        return True
    if scope == FULL_ACCESS:
        return False
    if scope in granted:
        return True
    return is_bot and BOT_PLAY in granted and scope in (MATCH_READ, MATCH_PLAY)


def check(request: Any, user: Any, granted: Collection[str]) -> None:
    """Refuse (403 ``insufficient_scope``) a call its scoped credential does not cover."""
    view = (getattr(request, "parser_context", None) or {}).get("view")
    if view is None:
        return
    scope = required(view, request.method)
    if not allows(granted, scope, is_bot=bool(getattr(user, "is_bot", False))):
        wanted = "a log-in token or the session" if scope == FULL_ACCESS else f"the scope {scope}"
        raise InsufficientScope(
            f"This token may not do that: it needs {wanted}.",
            details={"required": scope, "granted": sorted(granted)})


def parse(text: str) -> list[str]:
    """Space-separated scopes, as stored and as OAuth sends them."""
    return [scope for scope in text.split() if scope]


class Scopes(BaseScopes):
    """django-oauth-toolkit's scopes backend (``OAUTH2_PROVIDER["SCOPES_BACKEND_CLASS"]``):
    the scopes of :data:`SCOPES`, so they are stated once."""

    def get_all_scopes(self) -> dict[str, str]:
        return dict(SCOPES)

    def get_available_scopes(self, application: Any = None, request: Any = None,
                             *args: Any, **kwargs: Any) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(self, application: Any = None, request: Any = None,
                           *args: Any, **kwargs: Any) -> list[str]:
        return list(DEFAULT_SCOPES)
