"""Refusals of chat and moderation, each with its stable code (statuses in
``nard_site.api.errors.STATUS_OF_CODE``)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from nard_site.domain import DomainError


class ChatOff(DomainError):
    """The account turned chat off for itself (403)."""

    code = "chat_off"
    default_message = gettext_noop("You turned chat off; turn it on to write.")


class ChatTimeout(DomainError):
    """A moderator timed the account out (403; ``details.until``)."""

    code = "chat_timeout"
    default_message = gettext_noop("A moderator timed you out of chat.")


class ChatMuted(DomainError):
    """A moderator muted the account (403; ``details.until`` ``null`` until lifted)."""

    code = "chat_muted"
    default_message = gettext_noop("A moderator muted you in chat.")


class ChatRestricted(DomainError):
    """Panic mode: only established accounts may chat (403; ``details.min_games``,
    ``details.min_hours``, ``details.until``)."""

    code = "chat_restricted"
    default_message = gettext_noop("Chat is open only to established accounts for now.")


class GuestChat(DomainError):
    """A guest writes only in its own match's players' room, never in a public one (a
    match's spectators, a tournament) (403)."""

    code = "chat_guest"
    default_message = gettext_noop("Guests chat only with their opponent: create an account "
                                   "to talk in public rooms.")


class ChatClosed(DomainError):
    """The room is not open for writing: a match not started, or over for longer than
    ``CHAT_AFTER_MATCH_MINUTES`` (409; ``details.status``)."""

    code = "chat_closed"
    default_message = gettext_noop("This room is closed.")


class Blocked(DomainError):
    """One of the two accounts blocked the other (403)."""

    code = "blocked"
    default_message = gettext_noop("One of you blocked the other.")


class AlreadyReported(DomainError):
    code = "already_reported"
    default_message = gettext_noop("You have reported this line already.")
