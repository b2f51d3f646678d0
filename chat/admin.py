"""Staff: the reports' queue with each line's context and its match, the moderators'
actions (each with a reason), panic mode, and the lines and blocks for the audit.

History is read-only: lines, actions and blocks cannot be added, changed or deleted here
(moderation keeps everything); a decision is an action on the selected reports, or on
the selected lines' authors, with a reason, through :mod:`chat.services`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from accounts.models import Block, User
from chat import matches, selectors, services
from chat.models import Action, Line, ModerationAction, Report


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea, max_length=2000,
                             help_text="Logged with the action: who, when, why.")


class PanicForm(ReasonForm):
    minutes = forms.IntegerField(min_value=1, max_value=7 * 24 * 60, initial=180,
                                 help_text="Panic mode ends by itself after this long.")


def _reasoned(request: HttpRequest, queryset: Any, *, action: str, title: str,
              form_class: type[ReasonForm], act: Callable[[User, Any, dict[str, Any]], None],
              ) -> HttpResponse | None:
    """An admin action that asks for a reason first, then applies ``act`` to each row."""
    form = form_class(request.POST if "reason" in request.POST else None)
    if form.is_valid():
        user = request.user
        assert isinstance(user, User)
        for row in queryset:
            act(user, row, form.cleaned_data)
        messages.success(request, f"{title}: {queryset.count()} done.")
        return None
    return render(request, "admin/chat/act.html", {
        **admin.site.each_context(request), "form": form, "rows": queryset, "action": action,
        "title": title, "opts": queryset.model._meta})


def _line_html(line: Line, marked: Line | None) -> tuple[str, ...]:
    flags = ", ".join(name for name, on in (("flagged", line.flagged),
                                            ("hidden", line.hidden_by_id is not None)) if on)
    style = "font-weight:bold" if marked is not None and line.pk == marked.pk else ""
    return (style, f"{line.created:%H:%M:%S}", line.author.username, line.text,
            f" [{flags}]" if flags else "")


def context_html(line: Line) -> SafeString:
    """The lines around ``line`` in its room, the reported one in bold."""
    return format_html_join("", '<div style="{}">{} <b>{}</b>: {}{}</div>',
                            (_line_html(each, line) for each in selectors.context(line)))


def place_link(line: Line) -> SafeString | str:
    if line.kind == matches.KIND:
        url = reverse("admin:games_match_change", args=[line.object_id])
        return format_html('<a href="{}">match {}</a> ({})', url, line.object_id, line.room)
    return f"{line.kind} {line.object_id} ({line.room})"


def _act_on_report(action: str, duration: str | None = None
                   ) -> Callable[[User, Report, dict[str, Any]], None]:
    def act(moderator: User, report: Report, data: dict[str, Any]) -> None:
        services.moderation_act(moderator=moderator, target=report.accused, action=action,
                                reason=data["reason"], duration=duration, report=report)
    return act


def _report_action(action: str, title: str, duration: str | None = None) -> Any:
    name = f"{action}_{duration}" if duration else action

    def run(self: ReportAdmin, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        if not self.has_change_permission(request):
            raise PermissionDenied
        return _reasoned(request, queryset.select_related("accused"), action=name,
                         title=title, form_class=ReasonForm,
                         act=_act_on_report(action, duration))

    run.__name__ = name
    return admin.action(description=f"{title} (give a reason)", permissions=["change"])(run)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The queue: open reports first, oldest first, each with the lines around it."""

    list_display = ("created", "accused", "reason", "reporter", "line_text", "place",
                    "resolved")
    list_filter = (("resolved", admin.EmptyFieldListFilter), "reason")
    search_fields = ("accused__username", "reporter__username", "line__text", "comment")
    list_select_related = ("accused", "reporter", "line", "line__author")
    date_hierarchy = "created"
    ordering = ("-resolved", "created")
    readonly_fields = ("created", "reporter", "accused", "reason", "comment", "line_text",
                       "place", "context", "resolved", "resolved_by", "actions_taken")
    exclude = ("line",)
    actions = [
        _report_action(Action.WARN, "Warn"),
        _report_action(Action.TIMEOUT, "Time out for 15 minutes", "15m"),
        _report_action(Action.TIMEOUT, "Time out for 1 hour", "1h"),
        _report_action(Action.TIMEOUT, "Time out for 1 day", "1d"),
        _report_action(Action.MUTE, "Mute"),
        _report_action(Action.CLOSE, "Close the account"),
        _report_action(Action.DISMISS, "Dismiss"),
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="line")
    def line_text(self, report: Report) -> str:
        return report.line.text if report.line else "—"

    @admin.display(description="where")
    def place(self, report: Report) -> SafeString | str:
        return place_link(report.line) if report.line else "—"

    @admin.display(description="context")
    def context(self, report: Report) -> SafeString | str:
        return context_html(report.line) if report.line else "—"

    @admin.display(description="actions")
    def actions_taken(self, report: Report) -> SafeString | str:
        done = report.actions.select_related("moderator")
        return format_html_join("", "<div>{} {} by {}: {}</div>", (
            (f"{a.created:%Y-%m-%d %H:%M}", a.get_action_display(),
             a.moderator.username if a.moderator else "—", a.reason) for a in done)) or "none"


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    """The audit log of moderation; panic mode is turned on and off from here."""

    list_display = ("created", "action", "target", "moderator", "until", "reason")
    list_filter = ("action",)
    search_fields = ("target__username", "moderator__username", "reason")
    list_select_related = ("target", "moderator")
    date_hierarchy = "created"
    readonly_fields = [f.name for f in ModerationAction._meta.fields]
    actions = ["panic_on", "panic_off"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None  # the list and its actions, never an edit of the log

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        # The panic actions need no selection: any row (or none) will do.
        if request.method == "POST" and request.POST.get("action") in ("panic_on", "panic_off"):
            post = request.POST.copy()
            if not post.getlist(ACTION_CHECKBOX_NAME):
                post.setlist(ACTION_CHECKBOX_NAME,
                             [str(pk) for pk in ModerationAction.objects.values_list(
                                 "pk", flat=True)[:1]] or ["0"])
                request.POST = post  # type: ignore[assignment]
        return super().changelist_view(request, extra_context)

    @admin.action(description="Panic mode on: only established accounts chat (give a reason)")
    def panic_on(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        form = PanicForm(request.POST if "reason" in request.POST else None)
        user = request.user
        assert isinstance(user, User)
        if form.is_valid():
            services.panic_start(moderator=user, minutes=form.cleaned_data["minutes"],
                                 reason=form.cleaned_data["reason"])
            messages.success(request, "Panic mode is on.")
            return None
        return render(request, "admin/chat/act.html", {
            **self.admin_site.each_context(request), "form": form, "rows": [],
            "action": "panic_on", "title": "Panic mode on", "opts": self.model._meta})

    @admin.action(description="Panic mode off")
    def panic_off(self, request: HttpRequest, queryset: Any) -> None:
        user = request.user
        assert isinstance(user, User)
        services.panic_stop(moderator=user, reason="turned off in the admin")
        messages.success(request, "Panic mode is off.")


@admin.register(Line)
class LineAdmin(admin.ModelAdmin):
    """Every line said, flagged and hidden ones too, for the audit."""

    list_display = ("created", "author", "text", "kind", "object_id", "room", "flagged",
                    "hidden_by")
    list_filter = ("kind", "room", "flagged", ("hidden_by", admin.EmptyFieldListFilter))
    search_fields = ("author__username", "text", "=object_id")
    list_select_related = ("author",)
    date_hierarchy = "created"
    readonly_fields = [f.name for f in Line._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Who blocked whom: the players' own choice, shown read-only."""

    list_display = ("created", "blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
    readonly_fields = ("created", "blocker", "blocked")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
