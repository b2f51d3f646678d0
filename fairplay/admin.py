"""Staff: the fair-play queue with each case's evidence, decisions as admin actions that
ask for a reason (through :func:`fairplay.services.decide`), and the decisions' log.

History is read-only: cases and decisions cannot be added, edited or deleted here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from accounts.models import User
from fairplay import services
from fairplay.models import Decision, FairplayCase, FairplayDecision
from nard_site.domain import DomainError


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea, max_length=2000,
                             help_text="Logged with the decision and told to the player.")


def _decide(decision: str, title: str) -> Callable[..., HttpResponse | None]:
    def action(model_admin: admin.ModelAdmin, request: HttpRequest,
               queryset: Any) -> HttpResponse | None:
        form = ReasonForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            user = request.user
            assert isinstance(user, User)
            for case in queryset.select_related("account"):
                try:
                    services.decide(account=case.account, by=user, decision=decision,
                                    reason=form.cleaned_data["reason"])
                except DomainError as error:
                    messages.error(request, f"{case.account.username}: {error.message}")
            messages.success(request, f"{title}: done.")
            return None
        # The moderators' one form of an action with a reason (chat's), the player told.
        return render(request, "admin/chat/act.html", {
            **admin.site.each_context(request), "form": form, "rows": queryset, "told": True,
            "action": f"decide_{decision}", "title": title,
            "opts": queryset.model._meta})

    action.__name__ = f"decide_{decision}"
    return admin.action(description=title)(action)


@admin.register(FairplayCase)
class FairplayCaseAdmin(admin.ModelAdmin):
    list_display = ("account", "score", "games", "state", "created", "appealed_at")
    list_filter = ("state",)
    search_fields = ("account__username",)
    ordering = ("-score",)
    readonly_fields = ("account", "score", "games", "since", "state", "created", "updated",
                       "decided_by", "decided_at", "reason", "appeal", "appealed_at",
                       "appeal_decided_at", "figures", "game_links", "positions",
                       "decision_log")
    exclude = ("evidence",)
    actions = [_decide(Decision.CLEAR, "Clear"), _decide(Decision.WARN, "Warn"),
               _decide(Decision.ASSISTED, "Computer assistance: annul the results"),
               _decide(Decision.CLOSE, "Close the account")]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="figures")
    def figures(self, case: FairplayCase) -> SafeString:
        shown = {k: v for k, v in case.evidence.items() if k not in ("game_list", "positions")}
        return format_html("<pre>{}</pre>", json.dumps(shown, indent=1, default=str))

    @admin.display(description="games")
    def game_links(self, case: FairplayCase) -> SafeString:
        return format_html_join(
            "", '<div><a href="{}">match {} game {}</a> ({}): {} moves, error rate {}</div>',
            ((g["review"], g["match"], g["game"], g["side"], g["moves"], g["error_rate"])
             for g in case.evidence.get("game_list", ())))

    @admin.display(description="the positions that weigh most")
    def positions(self, case: FairplayCase) -> SafeString:
        return format_html_join(
            "", "<div>match {} game {} turn {}: best found, gap {}</div>",
            ((p["match"], p["game"], p["turn"], p["gap"])
             for p in case.evidence.get("positions", ())))

    @admin.display(description="decisions")
    def decision_log(self, case: FairplayCase) -> SafeString:
        return format_html_join(
            "", "<div>{} {} by {}: {}</div>",
            ((f"{d.created:%Y-%m-%d %H:%M}", d.decision, d.by.username, d.reason)
             for d in case.decisions.select_related("by")))


@admin.register(FairplayDecision)
class FairplayDecisionAdmin(admin.ModelAdmin):
    list_display = ("case", "decision", "by", "on_appeal", "created")
    list_filter = ("decision",)
    readonly_fields = [f.name for f in FairplayDecision._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
