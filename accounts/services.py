"""Write paths for accounts: every change to a user goes through here."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError

from .models import User


def user_register(*, username: str, password: str, email: str = "") -> tuple[User, Token]:
    """Create a player and its API token; raises ``ValidationError`` per field."""
    if User.objects.named(username).exists():
        raise ValidationError({"username": ["A user with that username already exists."]})
    candidate = User(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ValidationError({"password": list(exc.messages)}) from exc
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
            token = Token.objects.create(user=user)
    except IntegrityError as exc:  # a concurrent registration took the name
        raise ValidationError({"username": ["A user with that username already exists."]}) from exc
    return user, token


def token_obtain(*, user: User) -> Token:
    """The user's API token (one per user), created on first log-in."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> None:
    """Delete the user's token: every client using it gets 401 from now on."""
    Token.objects.filter(user=user).delete()


def user_update_profile(*, user: User, display_name: str) -> User:
    user.display_name = display_name
    user.save(update_fields=["display_name"])
    return user


def bot_account(*, username: str, display_name: str) -> User:
    """The built-in bot account ``username``, created on first use: flagged a bot and with
    no usable password, so that nobody can log in as it (its turns are played by the
    server). Registration refuses such names (``accounts.names.RESERVED_PREFIXES``)."""
    user = User.objects.named(username).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = User(username=username, display_name=display_name, is_bot=True)
            user.set_unusable_password()
            user.save()
            return user
    except IntegrityError:  # created meanwhile by a concurrent first use
        return User.objects.named(username).get()
