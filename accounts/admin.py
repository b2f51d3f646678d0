from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.html import format_html

from . import names
from .forms import LimitedAdminLoginForm
from .models import ApiToken, Notice, User
from .stats import Stats, stats_for, stats_for_users

_STATS_ATTR = "_player_stats"


class _StatsChangeList(ChangeList):
    """Computes the stats of the page's users in one go (no query per row)."""

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        stats = stats_for_users(self.result_list)
        for user in self.result_list:
            setattr(user, _STATS_ATTR, stats[user.pk])


def _stats(user: User) -> Stats:
    found = getattr(user, _STATS_ATTR, None)
    if found is None:
        found = stats_for(user)
        setattr(user, _STATS_ATTR, found)
    return found


def _clean_unique_username(form: Any) -> str:
    """Usernames are unique by Unicode case folding (``User.username_key``), which Django's
    own forms (ASCII-only ``iexact`` on SQLite) do not know: refuse a clash as a form error."""
    username: str = form.cleaned_data["username"]
    problem = (names.invisible_problem(username, what="username")
               or names.lookalike_problem(username))
    if len(names.username_key(username)) > names.KEY_MAX:
        problem = "This username is too long once case-folded."
    if problem:
        raise ValidationError(problem, code="invalid")
    clash = User.objects.named(username)
    if form.instance.pk is not None:
        clash = clash.exclude(pk=form.instance.pk)
    if clash.exists():
        raise ValidationError("A user with that username already exists.", code="unique")
    return username


class _CreationForm(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User

    clean_username = _clean_unique_username


class _ChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User

    clean_username = _clean_unique_username


admin.site.login_form = LimitedAdminLoginForm


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    add_form = _CreationForm
    form = _ChangeForm
    list_display = ("username", "display_name", "email", "is_staff", "is_bot", "matches",
                    "games", "mars", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "is_bot", "is_guest", "challenges",
                   "groups")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*(BaseUserAdmin.fieldsets or ()),
                 ("Profile", {"fields": ("display_name", "is_bot", "is_guest", "challenges")}),
                 ("Results", {"fields": ("player_stats",)}))
    readonly_fields = ("player_stats",)
    actions = ("flag_as_bot", "unflag_as_bot")

    # Both change accounts: they need the change permission (as Django's own
    # delete_selected needs delete), so a view-only staff account neither sees nor runs them.
    @admin.action(description="Flag the selected accounts as bots", permissions=["change"])
    def flag_as_bot(self, request: HttpRequest, queryset: Any) -> None:
        """A bot plays through the public API like a person; its profile says ``is_bot``."""
        count = queryset.update(is_bot=True)
        self.message_user(request, f"{count} account(s) flagged as bots.")

    @admin.action(description="Remove the bot flag from the selected accounts",
                  permissions=["change"])
    def unflag_as_bot(self, request: HttpRequest, queryset: Any) -> None:
        count = queryset.update(is_bot=False)
        self.message_user(request, f"{count} account(s) no longer flagged as bots.")

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return _StatsChangeList

    @admin.display(description="matches (won)")
    def matches(self, user: User) -> str:
        stats = _stats(user)
        return f"{stats['matches_played']} ({stats['matches_won']})"

    @admin.display(description="games won–lost")
    def games(self, user: User) -> str:
        stats = _stats(user)
        return f"{stats['games_won']}–{stats['games_lost']}"

    @admin.display(description="mars won–lost")
    def mars(self, user: User) -> str:
        stats = _stats(user)
        return f"{stats['mars_won']}–{stats['mars_lost']}"

    @admin.display(description="stats")
    def player_stats(self, user: User) -> str:
        stats = _stats(user)
        return format_html(
            "Matches played {}, won {} · games won {}, lost {} · mars won {}, lost {}"
            " <span class=\"help\">(finished games and matches; hotseat matches do not "
            "count)</span>",
            stats["matches_played"], stats["matches_won"], stats["games_won"],
            stats["games_lost"], stats["mars_won"], stats["mars_lost"])


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Notices as their recipients got them: read-only, since each was made by the module
    it tells of (``accounts.services.notice_create``), and what was said stays said."""

    list_display = ("recipient", "kind", "created", "read_at")
    list_filter = ("kind",)
    list_select_related = ("recipient",)
    search_fields = ("recipient__username", "kind")
    date_hierarchy = "created"
    readonly_fields = ("recipient", "kind", "data", "created", "read_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """API tokens by account and age, never their keys (only a hash is stored, and not
    shown either): log-in tokens and personal ones with their scopes. Deleting one
    revokes it; tokens are made by logging in or by their owner, not here."""

    list_display = ("user", "created", "personal", "name", "scopes")
    list_filter = ("personal",)
    list_select_related = ("user",)
    search_fields = ("user__username", "name")
    fields = ("user", "created", "personal", "name", "scopes")
    readonly_fields = ("user", "created", "personal", "name", "scopes")
    ordering = ("-created",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
