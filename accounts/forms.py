"""The log-in forms of the pages that take a password outside the API (the admin's,
the third-party apps' authorization): Django's, saying when a log-in was refused by the
limits on password checks (``accounts.login_limit``; the backend enforces them) rather
than calling the password wrong."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from . import login_limit


class LimitedLoginForm(AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            refusal = login_limit.refusal_of(self.request)
            if refusal is None:
                raise
            raise ValidationError(refusal.message, code="throttled") from None


class LimitedAdminLoginForm(LimitedLoginForm, AdminAuthenticationForm):
    """The admin's: staff accounts only (AdminAuthenticationForm's check), the limits'
    refusals said as they are."""
