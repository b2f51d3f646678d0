"""Who blocked whom, as the modules above accounts ask it: a block works both ways.

games refuses an invitation between two accounts either of which blocked the other
(403 ``blocked``), ratings' quick pairing skips them as partners, chat refuses their
lines in each other's rooms. Making and lifting blocks is chat's (``chat.services``).
"""

from __future__ import annotations

from django.db.models import Q

from accounts.models import Block


def between(a_id: int, b_id: int) -> bool:
    """Whether either account blocked the other."""
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id)
                                | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def around(user_id: int) -> set[int]:
    """The accounts ``user_id`` blocked and those that blocked it."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
    return {b if a == user_id else a for a, b in rows.values_list("blocker_id", "blocked_id")}
