"""Refusals of fair play, each with its stable code (statuses in
``nard_site.api.errors.STATUS_OF_CODE``)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from nard_site.domain import DomainError


class CaseDecided(DomainError):
    """The account's case is decided and not under appeal: nothing waits for staff (409;
    ``details.state``)."""

    code = "case_decided"
    default_message = gettext_noop("This account's fair-play case is decided already.")


class AppealUsed(DomainError):
    """A decision is appealed once (409; ``details.appealed_at``)."""

    code = "appeal_used"
    default_message = gettext_noop("You have appealed this decision already.")
