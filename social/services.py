"""Write paths of social that need the games: pruning the guests no match keeps."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.models import Match


def guests_prune() -> int:
    """Delete every guest made more than ``GUEST_TTL_HOURS`` ago, not logged in since, and
    seated in, invited to or the maker of no match; how many were deleted."""
    cutoff = timezone.now() - timedelta(hours=float(settings.GUEST_TTL_HOURS))
    played = Match.objects.filter(Q(white=OuterRef("pk")) | Q(black=OuterRef("pk"))
                                  | Q(created_by=OuterRef("pk")) | Q(invited=OuterRef("pk")))
    stale = (User.objects.filter(is_guest=True, date_joined__lt=cutoff)
             .filter(Q(last_login__isnull=True) | Q(last_login__lt=cutoff))
             .exclude(Exists(played)))
    with transaction.atomic():
        ids = list(stale.select_for_update().values_list("pk", flat=True))
        User.objects.filter(pk__in=ids).delete()  # their tokens, follows, notices with them
    return len(ids)
