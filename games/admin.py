"""The staff's window on every match: read-only histories, one write (abort) via services.

History is read-only. A match's games, per-move records (turns) and events are the
record the engine replays (``manage.py verify_games``), the source of every player's
statistics, and an append-only log clients poll by sequence number. Editing, adding or
deleting any of those rows by hand would make the replay disagree with the snapshot,
leave gaps in the event sequence and silently change players' results, so the admin
denies add, change and delete for all of them. The only change staff can make is to
abort a stuck match, and that goes through :func:`games.services.match_abort`, which
logs it as an ``aborted`` event like every other write.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from accounts.models import User
from games import opponents, review_hooks, selectors, services
from games.board_svg import board_svg
from games.models import MATCH_LENGTHS, Event, Game, Match, Turn, color_of, side_of
from games.selectors import steps_text
from nard_site.domain import DomainError
from nardy import BLACK, RULESETS, WHITE, EngineError, descriptor_of, other
from nardy.turnbase import dice_to_play

MARS_MARK = "♛ mars"
EMPTY = "–"  # one mark for an empty cell everywhere in the admin
admin.site.empty_value_display = EMPTY


def _turn_number(value: str | None) -> int | None:
    """A query parameter's small ASCII number, else ``None`` (``isdigit()`` is also true
    of ``²``, which ``int()`` refuses)."""
    if value and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    return None


def unplayed_dice(dice: list[int], steps: list[dict[str, Any]]) -> list[int]:
    """The dice of a roll (a double four times: the engine's ``dice_to_play``, R9/H6)
    that no step used, high to low."""
    left = list(dice_to_play((dice[0], dice[1])))
    for step in steps:
        if step.get("die") in left:
            left.remove(step["die"])
    return left


def pass_text(dice: list[int], steps: list[dict[str, Any]], reason: str) -> str:
    """What the history says of a pass: a whole turn's reason, or which dice could not be
    played after some were (``the 5 could not be played``)."""
    if not reason:
        return ""
    if not steps:
        return f"pass: {reason}"
    left = unplayed_dice(dice, steps)
    if not left:
        return ""
    if len(set(left)) == 1 and len(left) > 1:
        return f"{len(left)} × {left[0]} could not be played"
    return "the " + " and ".join(str(d) for d in left) + " could not be played"


def _side_to_move(game: Game) -> str:
    """Whose turn it is in an unfinished game, and the dice left to play."""
    phase = str(game.phase)
    if game.is_over or not game.turn:
        return ""
    side = str(game.turn).capitalize()
    left = " ".join(str(d) for d in (game.dice_left or []))
    if phase == "move" and left:
        return f"{side} to move, dice left: {left}."
    if phase == "roll":
        return f"{side} to roll."
    return f"{side} to act ({phase})."


class ReadOnlyHistoryMixin:
    """Deny add, change and delete: history rows are written only by ``games.services``
    (see the module docstring for why)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


SECRET_FIELDS = frozenset({"dice_seed"})
"""Fields a staff account never reads, filters, searches nor sorts by: the server's dice
seed is secret until its game ends (the page shows it then, as players see it,
:meth:`GameAdmin.dice_fairness`); a filter on it (``?dice_seed__startswith=a``, ``__regex``)
would answer yes or no about it, one hex digit at a time."""


class SecretFieldsMixin:
    """Refuse every lookup that passes through a field of :data:`SECRET_FIELDS` (Django
    answers 400, the same for every value), and keep those fields out of the searches.
    (The changelist sorts only by the columns of ``list_display``: no secret is one.)"""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None
                       ) -> bool:
        if SECRET_FIELDS.intersection(lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]

    def get_search_fields(self, request: HttpRequest) -> list[str]:
        fields = super().get_search_fields(request)  # type: ignore[misc]
        return [f for f in fields
                if not SECRET_FIELDS.intersection(f.lstrip("^=@").split("__"))]


def _game_url(game_id: int) -> str:
    return reverse("admin:games_game_change", args=[game_id])


def _match_url(match_id: int) -> str:
    return reverse("admin:games_match_change", args=[match_id])


# --- matches ----------------------------------------------------------------------------


class HadMarsFilter(admin.SimpleListFilter):
    title = "had a mars"
    parameter_name = "mars"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        mars = Exists(Game.objects.filter(match=OuterRef("pk"), mars=True))
        if self.value() == "yes":
            return queryset.filter(mars)
        if self.value() == "no":
            return queryset.filter(~mars)
        return queryset


def rules_title(rules: str) -> str:
    """A rule set's one title, its descriptor's ("Short Nardy"), as the lobby and the
    records write it (the name itself for a rule set no longer registered)."""
    ruleset = RULESETS.get(rules)
    return ruleset.descriptor.title if ruleset is not None else rules


class RulesFilter(admin.SimpleListFilter):
    """By rule set, each by its title (the model's choice labels may differ)."""

    title = "rules"
    parameter_name = "rules__exact"
    field = "rules"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(name, rules_title(name)) for name in RULESETS]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value in RULESETS:
            return queryset.filter(**{self.field: value})
        return queryset


class GameRulesFilter(RulesFilter):
    parameter_name = "match__rules__exact"
    field = "match__rules"


def _moment(value: Any) -> str:
    """A time in the lists, short enough for their columns: ``2026-12-01 14:46``."""
    if value is None:
        return EMPTY
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")


class LengthFilter(admin.SimpleListFilter):
    title = "length"
    parameter_name = "length"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(n), f"{n} point{'s' if n > 1 else ''}") for n in MATCH_LENGTHS]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        value = self.value()
        length = _turn_number(value)
        return queryset.filter(length=length) if length is not None else queryset


class GameForm(forms.ModelForm):
    """Only for the help texts of the game page, in the staff's words; never the secret
    seed (:data:`SECRET_FIELDS`)."""

    class Meta:
        model = Game
        fields = tuple(f.name for f in Game._meta.get_fields()
                       if f.concrete and f.editable and not f.auto_created
                       and f.name not in SECRET_FIELDS)
        help_texts = {
            "stake": "The game's stake: a single game is worth this many points.",
            "stake_holder": "Who alone may raise the stake next (blank: either side).",
            "offer_by": "The side whose offer to raise the stake waits for an answer.",
            "offers": "The game's offers in order: before which turn, by whom, the stake "
                      "offered and the answer (accept, refuse, or none while it waits).",
        }


class TurnForm(forms.ModelForm):
    class Meta:
        model = Turn
        fields = "__all__"  # noqa: DJ007 - the admin picks the fields; help texts only
        help_texts = {"pass_reason": "Why the rest of the turn passed."}


class GameInline(ReadOnlyHistoryMixin, admin.TabularInline):
    """The match's games, each linking to its move-by-move page (read-only history)."""

    model = Game
    extra = 0
    can_delete = False
    show_change_link = False
    ordering = ("number",)
    fields = ("game_link", "starter", "winner", "stake", "points_won", "result_text",
              "end_reason", "turns")
    readonly_fields = fields
    verbose_name_plural = "games"
    form = GameForm

    @admin.display(description="game")
    def game_link(self, game: Game) -> str:
        return format_html('<a href="{}">Game {}</a>', _game_url(game.pk), game.number)

    @admin.display(description="result")
    def result_text(self, game: Game) -> str:
        return _result_text(game)


def _staff(request: HttpRequest) -> User:
    """The staff account acting (the admin lets no one else in)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _mars_mark(game: Game, empty: str) -> str:
    """The mark of a game won with more than a single game, named by its rule set (H15):
    "♛ mars", "♛ koks", "♛ gammon", "♛ backgammon"; ``empty`` otherwise."""
    if not game.mars:
        return empty
    name = game.conceded()
    text = MARS_MARK if name == "mars" else f"♛ {name}"
    return format_html('<strong class="mars">{}</strong>', text)


def _result_text(game: Game) -> str:
    """A finished game's result by its name (H15): single, mars, koks, gammon,
    backgammon, refused or resigned; more than a single game marked ♛ (a resignation
    with what it conceded)."""
    if not game.result:
        return EMPTY
    if not game.mars:
        return game.result
    if game.result == "resigned":
        return format_html("resigned ({})", _mars_mark(game, EMPTY))
    return _mars_mark(game, EMPTY)


def _player_text(user: User | None) -> str:
    """A player's name, saying when a program plays the account: the built-in
    computer's level, or "computer" for another bot account."""
    if user is None:
        return "?"
    level = opponents.level_of(user)
    if level:
        return f"{user} (computer, level {level})"
    if user.is_bot:
        return f"{user} (computer)"
    return str(user)


class MatchForm(forms.ModelForm):
    """Only for the help texts of the match page, in the staff's words."""

    class Meta:
        model = Match
        fields = "__all__"  # noqa: DJ007 - the admin picks the fields; help texts only
        help_texts = {
            "rules": "The rule set the match is played by.",
            "stakes": "How a game's stake can be raised, fixed when the match was made.",
            "progression": "The values a stake goes through: 1, 2, 4, 8 … (geometric) or "
                           "1, 2, 3, 4 … (arithmetic, with dave only).",
            "crawford_game": "The number of the match's Crawford game (no raises in it): "
                             "the game after a score first became one short of the length.",
        }


@admin.register(Match)
class MatchAdmin(SecretFieldsMixin, ReadOnlyHistoryMixin, admin.ModelAdmin):
    """Every match with its score and games; read-only except the abort action."""

    list_display = ("id", "rules_title", "players", "length", "score", "status",
                    "winner_name", "games_count", "mars_count", "created", "finished")
    list_display_links = ("id", "players")
    list_filter = (RulesFilter, "status", LengthFilter, ("finished_at", admin.DateFieldListFilter),
                   HadMarsFilter, "hotseat")
    search_fields = ("white__username", "black__username")
    search_help_text = "A player's username (White or Black)."
    date_hierarchy = "created_at"
    list_select_related = ("white", "black")
    list_per_page = 50
    ordering = ("-created_at", "-id")
    actions = ("abort_matches",)
    inlines = (GameInline,)
    form = MatchForm
    fieldsets = (
        (None, {"fields": ("rules_title", "white_player", "black_player", "length", "score",
                           "status", "winner_name", "hotseat", "rematch_of", "version")}),
        ("Times", {"fields": ("created_at", "started_at", "finished_at")}),
        ("Stakes and clock", {
            "description": "How the games' stakes may be raised, and the clock. A game "
                           "scores its stake times what its result is worth (the games' "
                           "Stake and Result below). Claims and abandonments are in the "
                           "games' end reasons and in the events (claim, abandoned, "
                           "deadline).",
            "fields": ("stakes", "progression", "crawford_game", "turn_seconds", "deadline",
                       "deadline_warned")}),
        ("Record", {"fields": ("record_links", "event_log")}),
        ("Game review", {"fields": ("analysis_summary",)}),
    )
    readonly_fields = ("rules_title", "white_player", "black_player", "players", "score",
                       "winner_name", "record_links", "event_log", "analysis_summary")

    @admin.display(description="analyses")
    def analysis_summary(self, match: Match) -> str:
        """Each analysis's state and, when done, each side's error rate, rating, marks and
        luck over the match's games (the game review's, :mod:`games.review_hooks`)."""
        return review_hooks.review().match_summary(match)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).annotate(
            games_count=Count("games", distinct=True),
            mars_count=Count("games", filter=Q(games__mars=True), distinct=True),
        )

    @admin.display(description="players", ordering="white__username")
    def players(self, match: Match) -> str:
        if match.hotseat:
            return f"{match.white} (hotseat)"
        return f"{match.white or '?'} v {match.black or '?'}"

    @admin.display(description="rules", ordering="rules")
    def rules_title(self, match: Match) -> str:
        return rules_title(match.rules)

    @admin.display(description="created at", ordering="created_at")
    def created(self, match: Match) -> str:
        return _moment(match.created_at)

    @admin.display(description="finished at", ordering="finished_at")
    def finished(self, match: Match) -> str:
        return _moment(match.finished_at)

    @admin.display(description="white")
    def white_player(self, match: Match) -> str:
        return _player_text(match.white)

    @admin.display(description="black")
    def black_player(self, match: Match) -> str:
        return _player_text(match.black)

    @admin.display(description="score")
    def score(self, match: Match) -> str:
        return f"{match.score_white}–{match.score_black}"

    @admin.display(description="winner", ordering="winner")
    def winner_name(self, match: Match) -> str:
        if not match.winner:
            return "–"
        player = match.player(side_of(match.winner))
        return f"{player} ({match.winner})"

    @admin.display(description="games", ordering="games_count")
    def games_count(self, match: Match) -> int:
        return match.games_count  # type: ignore[attr-defined]

    @admin.display(description="mars wins", ordering="mars_count")
    def mars_count(self, match: Match) -> int:
        return match.mars_count  # type: ignore[attr-defined]

    @admin.display(description="record")
    def record_links(self, match: Match) -> str:
        url = reverse("match-export", args=[match.pk])
        return format_html('<a href="{}">plain text</a> · <a href="{}?format=json">JSON</a> '
                           "(docs/notation.md, “Match record”)", url, url)

    @admin.display(description="events")
    def event_log(self, match: Match) -> str:
        url = reverse("admin:games_event_changelist")
        return format_html('<a href="{}?match__id__exact={}">{} events</a>', url, match.pk,
                           match.last_event_seq)

    def has_abort_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and user.is_staff and user.has_perm("games.change_match"))

    @admin.action(description="Abort the selected matches (stuck games)",
                  permissions=["abort"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        """Stop each match through the gameplay service; report those it refuses."""
        aborted = []
        for match_id in queryset.order_by("pk").values_list("pk", flat=True):
            try:
                services.match_abort(match_id=match_id, by=_staff(request))
            except DomainError as exc:
                self.message_user(request, f"Match {match_id} was not aborted: {exc.message}",
                                  messages.WARNING)
            else:
                aborted.append(str(match_id))
        if aborted:
            self.message_user(request, f"Aborted match{'es' if len(aborted) > 1 else ''} "
                                       f"{', '.join(aborted)}.", messages.SUCCESS)


# --- games ------------------------------------------------------------------------------


@admin.register(Game)
class GameAdmin(SecretFieldsMixin, ReadOnlyHistoryMixin, admin.ModelAdmin):
    """A game and its whole per-move history with the board drawn (read-only history)."""

    list_display = ("__str__", "match_link", "rules", "number", "starter", "winner",
                    "points_won", "result", "mars", "end_reason", "turns", "finished_at")
    list_filter = (GameRulesFilter, "result", "mars", "end_reason", "winner")
    search_fields = ("match__white__username", "match__black__username")
    list_select_related = ("match",)
    ordering = ("-match_id", "number")
    form = GameForm
    fieldsets = (
        (None, {"fields": ("match_link", "rules", "number", "starter", "winner", "stake",
                           "points_won", "result_text", "end_reason", "turns",
                           "neighbours")}),
        ("Snapshot of the state", {
            "classes": ("collapse",),
            "fields": ("phase", "turn", "dice", "dice_left", "position_key", "turn_key",
                       "rolloff_white", "rolloff_black", "stake_holder",
                       "offer_by", "offers", "started_at", "finished_at")}),
        ("Dice (docs/fairness.md)", {
            "classes": ("collapse",),
            "fields": ("dice_fairness", "white_seed", "black_seed", "dice_drawn")}),
        ("Game review", {"fields": ("analysis_summary",)}),
    )
    readonly_fields = ("match_link", "rules", "result_text", "dice_left", "neighbours",
                       "dice_fairness", "analysis_summary")

    @admin.display(description="analyses")
    def analysis_summary(self, game: Game) -> str:
        """Each analysis of the match and, when done, this game's figures per side (the
        game review's, :mod:`games.review_hooks`)."""
        return review_hooks.review().game_summary(game)

    @admin.display(description="commitment and seed")
    def dice_fairness(self, game: Game) -> str:
        """The commitment; the server's seed only once the game is over (staff
        see no more than players do)."""
        shown = selectors.fairness_json(game)
        if shown is None:
            return "not committed"
        seed = shown["server_seed"] or "secret until the game ends"
        return format_html("{}<br>seed: {}", shown["commitment"], seed)

    @admin.display(description="rules", ordering="match__rules")
    def rules(self, game: Game) -> str:
        return rules_title(game.match.rules)

    @admin.display(description="match", ordering="match_id")
    def match_link(self, game: Game) -> str:
        return format_html('<a href="{}">Match {}</a>', _match_url(game.match_id),
                           game.match_id)

    @admin.display(description="result")
    def result_text(self, game: Game) -> str:
        return _result_text(game)

    @admin.display(description="dice left")
    def dice_left(self, game: Game) -> str:
        return " ".join(str(d) for d in game.dice_left) or "–"

    @admin.display(description="other games")
    def neighbours(self, game: Game) -> str:
        others = Game.objects.filter(match_id=game.match_id).exclude(pk=game.pk)
        links = format_html_join(" · ", '<a href="{}">Game {}</a>',
                                 ((_game_url(pk), n) for pk, n in
                                  others.order_by("number").values_list("pk", "number")))
        return links or "–"

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        game = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if game is not None:
            context.update(history_context(game, request.GET.get("turn")))
        return super().change_view(request, object_id, form_url, extra_context=context)


def _offer_row(offer: dict[str, Any]) -> dict[str, Any]:
    """A history row for an offer and its answer (S2-S4), between the turns."""
    answer = {"accept": "accepted", "refuse": "refused"}.get(offer.get("answer") or "",
                                                             "not answered")
    return {"kind": "offer", "number": "", "side": offer["by"], "dice": "",
            "notation": f"offers {offer['stake']} — {answer}", "pass_reason": "",
            "pass_text": "", "position_after": "", "in_progress": False}


def board_note(rules: str) -> str:
    """How the admin's board is numbered, in the words of the match's rule set: its
    descriptor's numbering (R2 ``rotated``: the opponent's point q is our q ± 12, so a
    head rule's head is White's 12; H1 ``mirrored``: our 25 − q) and whether it has a
    bar."""
    d = descriptor_of(rules)
    if d.numbering == "rotated":
        if d.head:
            return ("Drawn in White's numbering: White's head (24) at the top right, White's "
                    "home (1–6) at the bottom right; Black's head is White's 12.")
        note = ("Drawn in White's numbering: White's 24 at the top right, White's home (1–6) "
                "at the bottom right; Black's point q is White's q ± 12.")
    else:
        note = ("Drawn in White's numbering: White's 24 at the top right, White's home (1–6) "
                "at the bottom right; Black's point q is White's 25 − q, so Black's home is "
                "White's 19–24 (top right).")
    if d.bar:
        note += (" Checkers on the bar stand on the middle strip: White's in the top half, "
                 "Black's in the bottom half.")
    return note


def history_context(game: Game, shown: str | None) -> dict[str, Any]:
    """The history table's rows and the board to draw (after turn ``shown``, or now)."""
    turns = list(game.turn_records.order_by("number"))
    rows: list[dict[str, Any]] = []
    offers = list(game.offers)
    for turn in turns:
        while offers and offers[0]["before_turn"] <= turn.number:
            rows.append(_offer_row(offers.pop(0)))
        rows.append({
            "kind": "turn",
            "number": turn.number,
            "side": turn.side,
            "dice": "-".join(str(d) for d in turn.dice),
            "notation": steps_text(turn.steps) if turn.steps or turn.finished_at else "…",
            "pass_reason": turn.pass_reason,
            "pass_text": pass_text(turn.dice or [], turn.steps or [], turn.pass_reason),
            "position_after": turn.position_after,
            "in_progress": turn.finished_at is None,
        })
    rows += [_offer_row(offer) for offer in offers]  # after the last turn: refused or waiting
    if game.end_reason in ("claimed", "abandoned"):
        rows.append({"kind": "note", "number": "",
                     "side": color_of(other(side_of(game.winner))),
                     "dice": "", "notation": f"{game.get_end_reason_display().lower()} "
                                             "(the clock)", "pass_reason": "",
                     "pass_text": "", "position_after": "", "in_progress": False})
    position, caption, selected = game.position, "", None
    number = _turn_number(shown)
    if number is not None:
        chosen = next((t for t in turns if t.number == number and t.position_after), None)
        if chosen is not None:
            try:
                position = game.match.ruleset.position_from_id(chosen.position_after)
            except EngineError:
                position = game.position
            else:
                selected = chosen.number
                caption = f"Board after turn {chosen.number} ({chosen.side})"
    if not caption:
        caption = "Final board" if game.is_over else "Current board"
    for row in rows:
        row["selected"] = row["number"] == selected
    return {
        "history_rows": rows,
        # Turns are turns: the offers and their answers are lines of their own (S2-S4),
        # counted apart, so the heading agrees with the game's "Turns".
        "history_turns": len(turns),
        "history_offers": len(game.offers),
        "board_caption": caption,
        "board_note": board_note(game.match.rules),
        "board_svg": mark_safe(board_svg(position, caption=caption)),  # built from numbers only
        "board_position_id": position.to_id(),
        "board_off": {"white": position.off_of(WHITE), "black": position.off_of(BLACK)},
        "board_selected_turn": selected,
        "board_to_move": _side_to_move(game),
    }


# --- per-move records and the event log -------------------------------------------------


@admin.register(Turn)
class TurnAdmin(SecretFieldsMixin, ReadOnlyHistoryMixin, admin.ModelAdmin):
    """Per-move records, searchable by position ID (read-only history)."""

    list_display = ("__str__", "game_link", "side", "dice", "notation", "pass_reason",
                    "position_after")
    list_filter = ("side", "pass_reason")
    search_fields = ("=position_after", "game__match__white__username",
                     "game__match__black__username")
    list_select_related = ("game",)
    ordering = ("-game_id", "number")
    form = TurnForm

    @admin.display(description="game")
    def game_link(self, turn: Turn) -> str:
        return format_html('<a href="{}">Game {} of match {}</a>', _game_url(turn.game_id),
                           turn.game.number, turn.game.match_id)

    @admin.display(description="steps")
    def notation(self, turn: Turn) -> str:
        return steps_text(turn.steps)


@admin.register(Event)
class EventAdmin(SecretFieldsMixin, ReadOnlyHistoryMixin, admin.ModelAdmin):
    """The append-only log of each match (read-only history)."""

    list_display = ("match", "seq", "type", "at", "data")
    list_filter = ("type",)
    search_fields = ("match__white__username", "match__black__username")
    list_select_related = ("match", "match__white", "match__black")
    ordering = ("-match_id", "seq")
    date_hierarchy = "at"
