"""The staff's tournaments: browse tournaments, entrants, rounds and pairings; feature,
edit before the start, cancel, remove a player (services, so the log says so). The
rounds, pairings and the log are history: read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from accounts.models import User
from nard_site.domain import DomainError
from tournaments import services
from tournaments.models import Entrant, Pairing, Round, Status, Tournament, TournamentEvent


def _staff(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # the admin site lets only staff in
    return user


class ReadOnly:
    """History: what happened is not edited, added or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("user", "rating", "score", "played", "wins", "paused", "withdrawn", "removed")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "system", "rules", "length", "status", "featured",
                    "cancelled", "created_by", "starts_at", "started_at")
    list_filter = ("system", "status", "featured", "rules", "rated")
    search_fields = ("name", "created_by__username")
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)
    inlines = [EntrantInline]
    actions = ["feature", "cancel"]
    readonly_fields = ("status", "round", "created_by", "created_at", "started_at", "ends_at",
                       "finished_at", "last_event_seq", "cancelled", "code")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Edited before its start only (then its terms are fixed)."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or obj.status == Status.CREATED)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # cancel instead: its matches and log stay

    @admin.action(description="Feature (listed first)")
    def feature(self, request: HttpRequest, queryset: Any) -> None:
        queryset.update(featured=True)

    @admin.action(description="Cancel (finish now, matches play on)")
    def cancel(self, request: HttpRequest, queryset: Any) -> None:
        for tournament in queryset:
            try:
                services.tournament_cancel(tournament_id=tournament.pk, by=_staff(request))
            except DomainError as error:
                self.message_user(request, f"{tournament}: {error.message}", messages.ERROR)


@admin.register(Entrant)
class EntrantAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "tournament", "user", "score", "played", "wins", "withdrawn",
                    "removed")
    list_filter = ("withdrawn", "removed", "tournament__system")
    search_fields = ("user__username", "tournament__name")
    list_select_related = ("tournament", "user")
    actions = ["remove"]

    @admin.action(description="Remove from the tournament (not paired again)")
    def remove(self, request: HttpRequest, queryset: Any) -> None:
        for entrant in queryset:
            try:
                services.entrant_remove(entrant_id=entrant.pk, by=_staff(request))
            except DomainError as error:
                self.message_user(request, f"{entrant}: {error.message}", messages.ERROR)


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "tournament", "number", "started_at", "finished_at")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name",)


@admin.register(Pairing)
class PairingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "tournament", "round", "white", "black", "match", "winner",
                    "settled_by", "finished_at")
    list_filter = ("settled_by", "third_place")
    list_select_related = ("tournament", "round", "white__user", "black__user",
                           "winner__user")
    search_fields = ("tournament__name", "white__user__username", "black__user__username")


@admin.register(TournamentEvent)
class TournamentEventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "tournament", "seq", "type", "at")
    list_filter = ("type",)
    list_select_related = ("tournament",)
