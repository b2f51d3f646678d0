"""Revoke a user's API tokens whenever the password changes.

Listed in ``AUTH_PASSWORD_VALIDATORS``: Django calls ``password_changed()`` on every
validator after a new password is saved — ``set_password()`` then ``save()``, which is
what the admin's password forms, the password-reset form and ``manage.py
changepassword`` all do — so a leaked token dies with the password it was issued
under. It validates nothing.
"""

from __future__ import annotations

from typing import Any

from .models import ApiToken


class RevokeTokensOnPasswordChange:
    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is None or user.pk is None:
            return
        ApiToken.objects.filter(user_id=user.pk).delete()

    def get_help_text(self) -> str:
        return "A new password signs out every API client of the account (its token is revoked)."
