"""Revoke a user's API tokens and OAuth grants whenever the password changes.

Listed in ``AUTH_PASSWORD_VALIDATORS``: Django calls ``password_changed()`` on every
validator after a new password is saved — ``set_password()`` then ``save()``, which is
what the admin's password forms, the password-reset form and ``manage.py
changepassword`` all do — so a leaked token dies with the password it was issued
under; so do the third-party apps' access and refresh tokens (an app asks the account
again). It validates nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    get_default_password_validators,
)
from oauth2_provider.models import get_access_token_model, get_refresh_token_model

from .models import ApiToken


def password_min_length() -> int:
    """The shortest password the configured validators accept (``MinimumLengthValidator``;
    1 without one): what the schema says as the password's ``minLength``."""
    lengths = [v.min_length for v in get_default_password_validators()
               if isinstance(v, MinimumLengthValidator)]
    return max(lengths, default=1)


class RevokeTokensOnPasswordChange:
    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is None or user.pk is None:
            return
        ApiToken.objects.filter(user_id=user.pk).delete()
        get_refresh_token_model().objects.filter(user_id=user.pk).delete()
        get_access_token_model().objects.filter(user_id=user.pk).delete()

    def get_help_text(self) -> str:
        return "A new password signs out every API client of the account (its token is revoked)."
