"""Write paths for accounts: every change to a user goes through here."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from rest_framework.exceptions import NotFound, Throttled, ValidationError

from nard_site.domain import DomainError

from . import login_limit, notices, tokens
from .models import ApiToken, Follow, Notice, User
from .stats import stats_for


@dataclass(frozen=True)
class IssuedToken:
    """A token just made: ``key`` is the one time its key is known (only its hash is kept)."""

    key: str
    token: ApiToken


def user_register(*, username: str, password: str, email: str = "",
                  guest: User | None = None) -> tuple[User, IssuedToken]:
    """Create a player and its first API token; raises ``ValidationError`` per field.

    With ``guest`` (the guest identity the request is signed in as), that account itself
    becomes the player — the same row, so its matches, reviews and follows stay its own:
    the username, password and email are set and ``is_guest`` cleared."""
    taken = User.objects.named(username)
    if (taken.exclude(pk=guest.pk) if guest is not None else taken).exists():
        raise ValidationError({"username": [gettext("A user with that username already exists.")]})
    candidate = User(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ValidationError({"password": list(exc.messages)}) from exc
    try:
        with login_limit.hashing(), transaction.atomic():
            if guest is not None:
                user = _upgrade(guest, username=username, email=email, password=password)
            else:
                user = User.objects.create_user(username=username, email=email,
                                                password=password)
            token = _issue(user)
    except login_limit.Busy:  # every hashing slot of the process is taken: refuse at once
        raise Throttled(login_limit.BUSY.retry_after, detail=login_limit.BUSY.message) from None
    except IntegrityError as exc:  # a concurrent registration took the name
        raise ValidationError(
            {"username": [gettext("A user with that username already exists.")]}) from exc
    return user, token


def _upgrade(guest: User, *, username: str, email: str, password: str) -> User:
    """The guest's own row, locked, made an ordinary account (in the caller's transaction)."""
    user = User.objects.select_for_update().get(pk=guest.pk)
    if not user.is_guest:  # upgraded meanwhile by a parallel request
        raise ValidationError({"username": [gettext("This account is registered already.")]})
    user.username, user.email, user.is_guest = username, email, False
    user.set_password(password)
    user.save(update_fields=["username", "email", "is_guest", "password"])
    return user


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


def user_update_profile(*, user: User, display_name: str | None = None,
                        challenges: str | None = None) -> User:
    """Change what is given: the display name, who may challenge the player
    (``everyone``, ``following``: those it follows, ``nobody``)."""
    changed = {name: value for name, value in (("display_name", display_name),
                                               ("challenges", challenges)) if value is not None}
    for name, value in changed.items():
        setattr(user, name, value)
    if changed:
        user.save(update_fields=list(changed))
    return user


# --- guests -----------------------------------------------------------------------------

class GuestsThrottled(DomainError):
    """``GUESTS_PER_ADDRESS`` guests made from one address within ``GUESTS_WINDOW``
    seconds (429; ``details.limit``, ``details.retry_after``)."""

    code = "throttled"
    default_message = gettext_noop("Too many guests from your address: try again later.")


GUEST_PREFIX = "Guest-"


def _guest_name() -> str:
    return f"{GUEST_PREFIX}{secrets.token_hex(2)}"


def guest_create(*, address: str) -> tuple[User, IssuedToken]:
    """A guest identity, ``Guest-7f3a``: no usable password, never rated
    (``User.may_play_rated``), and its first API token. At most ``GUESTS_PER_ADDRESS``
    from one client address in ``GUESTS_WINDOW`` seconds (:class:`GuestsThrottled`)."""
    limit = int(settings.GUESTS_PER_ADDRESS)
    key = "g:" + hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()
    made, left = login_limit.count(key, seconds=int(settings.GUESTS_WINDOW))
    if made > limit:
        raise GuestsThrottled(details={"limit": limit, "retry_after": left})
    for attempt in range(8):  # four hex digits collide now and then: draw again, then six
        name = _guest_name() if attempt < 4 else f"{GUEST_PREFIX}{secrets.token_hex(3)}"
        if User.objects.named(name).exists():
            continue
        try:
            with transaction.atomic():
                user = User(username=name, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user, _issue(user)
        except IntegrityError:  # taken by a parallel guest
            continue
    raise GuestsThrottled("No free guest name now: try again.", details={"limit": limit})


# --- follows ---------------------------------------------------------------------------

class CannotFollowSelf(DomainError):
    code = "cannot_follow_self"
    default_message = gettext_noop("You cannot follow yourself.")


def follow_create(*, follower: User, followed: User) -> bool:
    """``follower`` follows ``followed`` (again: nothing changes); whether it is new."""
    if follower.pk == followed.pk:
        raise CannotFollowSelf
    try:
        with transaction.atomic():
            _, made = Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:  # a parallel follow made it
        return False
    return made


def follow_delete(*, follower: User, followed: User) -> bool:
    """``follower`` stops following ``followed`` (not following: nothing changes)."""
    if follower.pk == followed.pk:
        raise CannotFollowSelf
    deleted, _ = Follow.objects.filter(follower=follower, followed=followed).delete()
    return bool(deleted)


# --- notices ----------------------------------------------------------------------------

def notice_create(*, recipient: User | int, kind: str, data: dict[str, Any] | None = None
                  ) -> Notice:
    """A notice to ``recipient`` (any module's: ``accounts.notices.KINDS`` and its own
    kinds, snake_case); its listeners (the account stream) hear of it after commit."""
    if not notices.KIND_PATTERN.match(kind):
        raise ValueError(f"A notice's kind is snake_case, at most 32 characters: {kind!r}")
    recipient_id = recipient if isinstance(recipient, int) else recipient.pk
    with transaction.atomic():
        notice = Notice.objects.create(recipient_id=recipient_id, kind=kind, data=data or {})
        transaction.on_commit(lambda: notices.committed(notice))
    return notice


def notices_settle(*, recipient_id: int, kind: str, about: dict[str, Any]) -> int:
    """Mark read the recipient's unread notices of ``kind`` whose data hold every item of
    ``about`` (a challenge answered or withdrawn: its notice asks nothing any more)."""
    found = Notice.objects.filter(recipient_id=recipient_id, kind=kind, read_at__isnull=True)
    for key, value in about.items():
        found = found.filter(**{f"data__{key}": value})
    return found.update(read_at=timezone.now())


def notices_mark_read(*, user: User, ids: list[int] | None = None) -> int:
    """Mark ``user``'s unread notices read: all, or those of ``ids`` (others' ids and
    unknown ones are passed over); how many were marked."""
    found = Notice.objects.filter(recipient=user, read_at__isnull=True)
    if ids is not None:
        found = found.filter(pk__in=ids)
    return found.update(read_at=timezone.now())


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
