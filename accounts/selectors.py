"""Reads of accounts' social data: who follows whom, who accepts whose challenges, and
an account's notices."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import ApiToken, Follow, Notice, User

CHALLENGES_EVERYONE = "everyone"
CHALLENGES_FOLLOWING = "following"
CHALLENGES_NOBODY = "nobody"
CHALLENGE_SETTINGS = (CHALLENGES_EVERYONE, CHALLENGES_FOLLOWING, CHALLENGES_NOBODY)


def follows(*, follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def accepts_challenge_from(*, invited: User, challenger: User) -> bool:
    """Whether ``invited``'s ``challenges`` setting lets ``challenger`` invite it to a
    match: everyone, only those ``invited`` follows, or nobody. Staff are never refused
    (a match staff set up for a review or a dispute)."""
    if challenger.is_staff or invited.challenges == CHALLENGES_EVERYONE:
        return True
    if invited.challenges == CHALLENGES_FOLLOWING:
        return follows(follower_id=invited.pk, followed_id=challenger.pk)
    return False


def following_of(user: User) -> QuerySet[Follow]:
    """The accounts ``user`` follows (active ones), newest follow first, each with its
    user row."""
    return (Follow.objects.filter(follower=user, followed__is_active=True)
            .select_related("followed").order_by("-created", "-id"))


def notices_of(user: User) -> QuerySet[Notice]:
    """``user``'s notices, newest first."""
    return Notice.objects.filter(recipient=user).order_by("-id")


def unread_notices(user_id: int, limit: int) -> list[Notice]:
    """The newest ``limit`` unread notices of the account ``user_id``, oldest first."""
    newest = Notice.objects.filter(recipient_id=user_id, read_at__isnull=True).order_by("-id")
    return list(reversed(newest[:limit]))


def unread_count(user: User) -> int:
    return Notice.objects.filter(recipient=user, read_at__isnull=True).count()


def personal_tokens(*, user: User) -> list[ApiToken]:
    """``user``'s personal tokens, newest first (their keys are not kept: never shown)."""
    return list(ApiToken.objects.filter(user=user, personal=True).order_by("-created", "-pk"))
