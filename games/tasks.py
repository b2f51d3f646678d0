"""The task queue's jobs (django-tasks; docs/architecture.md, "The computer's turns")."""

from __future__ import annotations

from django_tasks import task

from games import bots


@task()
def bot_turn(match_id: int, version: int) -> str:
    """The computer's next action in a match, if the match is still at ``version``
    (:func:`games.bots.play`): a job for a version that is gone does nothing."""
    return bots.play(match_id, version)
