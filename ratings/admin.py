"""Staff: ratings per player and rule set, the history, resets (with a reason)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings import services
from ratings.models import PairingRequest, Rating, RatingChange, RatingReset, SharedAddress


class ResetForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea, max_length=2000,
                             help_text="Logged with the reset (who, when, what it was).")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "rules", "rating", "deviation", "volatility", "matches",
                    "last_played_at")
    list_filter = ("rules",)
    search_fields = ("user__username",)
    ordering = ("rules", "-rating")
    readonly_fields = ("user", "rules", "rating", "deviation", "volatility", "matches",
                       "last_played_at")
    actions = ["reset_ratings"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Reset the selected ratings to 1500 ± 350 (give a reason)",
                  permissions=["change"])
    def reset_ratings(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        if not self.has_change_permission(request):
            raise PermissionDenied
        form = ResetForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            for row in queryset.select_related("user"):
                services.rating_reset(user=row.user, rules=row.rules, by=request.user,  # type: ignore[arg-type]
                                      reason=form.cleaned_data["reason"])
            self.message_user(request, f"Reset {queryset.count()} rating(s).", messages.SUCCESS)
            return None
        return render(request, "admin/ratings/reset.html", {
            **self.admin_site.each_context(request), "form": form, "rows": queryset,
            "action": "reset_ratings", "title": "Reset ratings",
            "opts": self.model._meta})


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "rules", "match", "opponent", "score", "rating_before",
                    "rating_after", "at")
    list_filter = ("rules",)
    search_fields = ("user__username", "opponent__username")
    readonly_fields = [f.name for f in RatingChange._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RatingReset)
class RatingResetAdmin(admin.ModelAdmin):
    list_display = ("user", "rules", "by", "at", "rating_before", "reason")
    readonly_fields = [f.name for f in RatingReset._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PairingRequest)
class PairingRequestAdmin(admin.ModelAdmin):
    list_display = ("user", "rules", "length", "stakes", "turn_seconds", "rated", "rating",
                    "created_at")


@admin.register(SharedAddress)
class SharedAddressAdmin(admin.ModelAdmin):
    """Pairings of two accounts from one client address: evidence, read-only (written
    only by the pairing, :func:`ratings.services.pairing_request`)."""

    list_display = ("match", "first", "second", "address", "rated", "at")
    list_filter = ("rated",)
    search_fields = ("=address", "first__username", "second__username")
    list_select_related = ("first", "second")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
