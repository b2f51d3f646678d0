"""Write paths for accounts: every change to a user goes through here."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from rest_framework.exceptions import NotFound, Throttled, ValidationError

from nard_site.domain import DomainError

from . import login_limit, tokens
from .models import ApiToken, User
from .stats import stats_for


@dataclass(frozen=True)
class IssuedToken:
    """A token just made: ``key`` is the one time its key is known (only its hash is kept)."""

    key: str
    token: ApiToken


def user_register(*, username: str, password: str, email: str = "") -> tuple[User, IssuedToken]:
    """Create a player and its first API token; raises ``ValidationError`` per field."""
    if User.objects.named(username).exists():
        raise ValidationError({"username": [gettext("A user with that username already exists.")]})
    candidate = User(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ValidationError({"password": list(exc.messages)}) from exc
    try:
        with login_limit.hashing(), transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
            token = _issue(user)
    except login_limit.Busy:  # every hashing slot of the process is taken: refuse at once
        raise Throttled(login_limit.BUSY.retry_after, detail=login_limit.BUSY.message) from None
    except IntegrityError as exc:  # a concurrent registration took the name
        raise ValidationError(
            {"username": [gettext("A user with that username already exists.")]}) from exc
    return user, token


def _issue(user: User) -> IssuedToken:
    key = tokens.generate_key()
    token = ApiToken.objects.create(user=user, key_hash=tokens.hash_key(key))
    stale = list(ApiToken.objects.filter(user=user, personal=False).order_by("-created", "-pk")
                 .values_list("pk", flat=True)[_tokens_cap():])
    if stale:  # the oldest beyond the cap stop working
        ApiToken.objects.filter(pk__in=stale).delete()
    return IssuedToken(key=key, token=token)


def _tokens_cap() -> int:
    return max(1, int(getattr(settings, "API_TOKENS_PER_ACCOUNT", 50)))


def token_obtain(*, user: User) -> IssuedToken:
    """A new API token of ``user`` (one per log-in, so every client has its own); its key
    is in the answer and nowhere else. Beyond ``API_TOKENS_PER_ACCOUNT`` the oldest goes."""
    with transaction.atomic():
        return _issue(user)


def token_revoke(*, user: User, token: ApiToken | None = None) -> None:
    """Revoke ``token`` (the one a request came with), or with ``None`` every token of
    ``user``: each client using a revoked token gets 401 from now on."""
    found = ApiToken.objects.filter(user=user)
    (found.filter(pk=token.pk) if token is not None else found).delete()


class TooManyTokens(DomainError):
    code = "too_many_tokens"
    default_message = "This account holds as many personal tokens as it may: revoke one first."


def personal_token_create(*, user: User, name: str, scopes: list[str]) -> IssuedToken:
    """A personal token of ``user``: an API key (``Authorization: Token <key>``) that may
    do only what ``scopes`` (``accounts.scopes.SCOPES``) allow, until revoked; its key is
    in the answer and nowhere else. An account holds at most ``API_TOKENS_PER_ACCOUNT``
    (409 ``too_many_tokens``); log-ins never push one out."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one count at a time
        held = ApiToken.objects.filter(user=user, personal=True).count()
        if held >= _tokens_cap():
            raise TooManyTokens(details={"limit": _tokens_cap()})
        key = tokens.generate_key()
        token = ApiToken.objects.create(user=user, key_hash=tokens.hash_key(key), personal=True,
                                        name=name, scopes=" ".join(sorted(set(scopes))))
    return IssuedToken(key=key, token=token)


def personal_token_revoke(*, user: User, token_id: int) -> None:
    """Revoke a personal token of ``user``: 404 ``not_found`` for any other."""
    deleted, _ = ApiToken.objects.filter(user=user, personal=True, pk=token_id).delete()
    if not deleted:
        raise NotFound("No such personal token.")


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


class AlreadyBot(DomainError):
    code = "already_bot"
    default_message = "This account is a bot already."


class HasFinishedGames(DomainError):
    code = "has_finished_games"
    default_message = ("Only an account that has finished no game may become a bot: "
                       "register a new account for the bot.")


def bot_upgrade(*, user: User) -> User:
    """Make ``user`` a bot account, for good (there is no way back, as on lichess): its
    profile and its matches say so, it never plays rated (``User.may_play_rated``), and
    quick pairing seats it only with people who accept bots. Only an account with no
    finished game may (409 ``has_finished_games``): its results so far were a person's;
    a bot already is 409 ``already_bot``."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_bot:
            raise AlreadyBot()
        played = stats_for(locked)
        finished = played["matches_played"] + played["games_won"] + played["games_lost"]
        if finished:
            raise HasFinishedGames(details={"matches_played": played["matches_played"],
                                            "games_won": played["games_won"],
                                            "games_lost": played["games_lost"]})
        locked.is_bot = True
        locked.save(update_fields=["is_bot"])
    user.is_bot = True
    return locked
