"""Reads of fair play: the staff's queue and a case as the API shows it."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from fairplay.models import FairplayCase, FairplayDecision, State


def queue() -> QuerySet[FairplayCase]:
    """The cases waiting for staff: open ones and appealed ones not yet decided again,
    highest score first."""
    return (FairplayCase.objects.filter(Q(state=State.OPEN)
                                        | Q(appealed_at__isnull=False,
                                            appeal_decided_at__isnull=True))
            .select_related("account").order_by("-score", "id"))


def decision_json(decision: FairplayDecision) -> dict[str, Any]:
    return {"id": decision.pk, "decision": decision.decision, "reason": decision.reason,
            "by": decision.by.username, "on_appeal": decision.on_appeal,
            "effects": decision.effects, "created": decision.created}


def case_json(case: FairplayCase) -> dict[str, Any]:
    """A case with its evidence: the figures, the games (with links to their reviews)
    and the positions that weigh most."""
    evidence = dict(case.evidence)
    games = evidence.pop("game_list", [])
    positions = evidence.pop("positions", [])
    return {"id": case.pk, "username": case.account.username, "score": case.score,
            "state": case.state, "games": case.games, "since": case.since,
            "created": case.created, "updated": case.updated,
            "figures": evidence, "game_list": games, "positions": positions,
            "appeal": case.appeal or None, "appealed_at": case.appealed_at,
            "decisions": [decision_json(d) for d in
                          case.decisions.select_related("by").order_by("created", "id")]}


def appeal_json(case: FairplayCase) -> dict[str, Any]:
    return {"case": case.pk, "state": case.state, "appealed_at": case.appealed_at}
