"""Matches, games, per-turn records and the append-only event log.

The database keeps what must hold (constraints below); the rules themselves live in
``games.engine`` and every write goes through ``games.services``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.engine import BLACK, WHITE, Position, Side, TurnState, side_name


class Color(models.TextChoices):
    WHITE = "white", "White"
    BLACK = "black", "Black"


def color_of(side: Side) -> str:
    return side_name(side)


def side_of(color: str) -> Side:
    return WHITE if color == Color.WHITE else BLACK


class MatchStatus(models.TextChoices):
    OPEN = "open", "Open seek"
    INVITED = "invited", "Invitation"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


MATCH_LENGTHS = (1, 3, 5, 7)


class Match(models.Model):
    """A match to ``length`` points between two players (or one, at a shared screen)."""

    white = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.PROTECT, related_name="matches_as_white")
    black = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.PROTECT, related_name="matches_as_black")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="matches_created")
    invited = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.PROTECT, related_name="invitations",
                                help_text="The invited opponent of an invitation.")
    hotseat = models.BooleanField(default=False,
                                  help_text="One account plays both sides at a shared screen.")
    length = models.PositiveSmallIntegerField()
    score_white = models.PositiveSmallIntegerField(default=0)
    score_black = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=8, choices=MatchStatus.choices, db_index=True)
    winner = models.CharField(max_length=5, choices=Color.choices, blank=True)
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="rematch")
    current_game = models.ForeignKey("Game", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    version = models.PositiveIntegerField(default=1)
    last_event_seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ("-created_at", "-id")
        constraints = [
            models.CheckConstraint(condition=Q(length__in=MATCH_LENGTHS),
                                   name="match_length_1_3_5_7"),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in MatchStatus]), name="match_status_valid"),
            models.CheckConstraint(
                condition=Q(winner="") | Q(status=MatchStatus.FINISHED),
                name="match_winner_only_when_finished"),
            models.CheckConstraint(
                condition=~Q(status=MatchStatus.FINISHED) | ~Q(winner=""),
                name="match_finished_has_winner"),
            models.CheckConstraint(
                condition=Q(hotseat=True) | Q(white__isnull=True) | Q(black__isnull=True)
                | ~Q(white=models.F("black")),
                name="match_two_players_unless_hotseat"),
        ]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"Match {self.pk}: {self.white or '?'} v {self.black or '?'} ({self.length})"

    def player(self, side: Side) -> Any:
        return self.white if side == WHITE else self.black

    def player_id(self, side: Side) -> int | None:
        return self.white_id if side == WHITE else self.black_id

    def sides_of(self, user: Any) -> tuple[Side, ...]:
        """The sides ``user`` plays: both in hotseat, none for a spectator."""
        if user is None or not getattr(user, "is_authenticated", False):
            return ()
        return tuple(s for s in (WHITE, BLACK) if self.player_id(s) == user.pk)

    def score(self, side: Side) -> int:
        return self.score_white if side == WHITE else self.score_black


class GamePhase(models.TextChoices):
    ROLL_OFF = "roll-off", "Roll-off"
    ROLL = "roll", "Roll"
    MOVE = "move", "Move"
    FINISHED = "finished", "Finished"


class EndReason(models.TextChoices):
    BORNE_OFF = "borne_off", "Borne off"
    RESIGNED = "resigned", "Resigned"


class Game(models.Model):
    """One game of a match, with the current turn state kept as a snapshot for O(1) reads."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    starter = models.CharField(max_length=5, choices=Color.choices, blank=True)
    # --- snapshot of the current state (White's numbering) -------------------------------
    points = models.JSONField(help_text="24 signed counts in White's numbering "
                                        "(positive White, negative Black).")
    off_white = models.PositiveSmallIntegerField(default=0)
    off_black = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=8, choices=GamePhase.choices)
    turn = models.CharField(max_length=5, choices=Color.choices, blank=True,
                            help_text="The side to move (blank during the roll-off).")
    dice = models.JSONField(null=True, blank=True, help_text="This turn's roll.")
    dice_left = models.JSONField(default=list, blank=True)
    head_left = models.PositiveSmallIntegerField(default=0)
    white_first_turn = models.BooleanField(default=True)
    black_first_turn = models.BooleanField(default=True)
    rolloff_white = models.PositiveSmallIntegerField(null=True, blank=True)
    rolloff_black = models.PositiveSmallIntegerField(null=True, blank=True)
    turns = models.PositiveIntegerField(default=0)
    current_turn = models.ForeignKey("Turn", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    # --- result ------------------------------------------------------------------------
    winner = models.CharField(max_length=5, choices=Color.choices, blank=True)
    points_won = models.PositiveSmallIntegerField(null=True, blank=True)
    mars = models.BooleanField(default=False)
    end_reason = models.CharField(max_length=9, choices=EndReason.choices, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("match", "number")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(points_won__isnull=True) | Q(points_won__in=[1, 2]),
                                   name="game_points_1_or_2"),
            models.CheckConstraint(condition=Q(off_white__lte=15) & Q(off_black__lte=15),
                                   name="game_off_at_most_15"),
            models.CheckConstraint(
                condition=(Q(winner="") & Q(points_won__isnull=True))
                | (~Q(winner="") & Q(points_won__isnull=False)),
                name="game_winner_has_points"),
            models.CheckConstraint(condition=~Q(mars=True) | Q(points_won=2),
                                   name="game_mars_is_two_points"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of match {self.match_id}"

    @property
    def position(self) -> Position:
        return Position(points=tuple(self.points), off=(self.off_white, self.off_black))

    @position.setter
    def position(self, position: Position) -> None:
        self.points = list(position.points)
        self.off_white, self.off_black = position.off

    def first_turn(self, side: Side) -> bool:
        return self.white_first_turn if side == WHITE else self.black_first_turn

    def turn_state(self) -> TurnState | None:
        """The engine's state of the turn being played; ``None`` outside the move phase."""
        if self.phase != GamePhase.MOVE:
            return None
        side = side_of(self.turn)
        state = TurnState(self.position, side, tuple(self.dice), tuple(self.dice_left),
                          self.head_left, self.first_turn(side))
        known = self.__dict__.get("_known_turn_state")
        return known if known == state else state  # the known one has its searches done

    def keep_turn_state(self, state: TurnState) -> None:
        """Remember the engine state just stored, so a later :meth:`turn_state` reuses it."""
        self.__dict__["_known_turn_state"] = state

    @property
    def is_over(self) -> bool:
        return bool(self.winner)


class Turn(models.Model):
    """The per-move record of one turn: its dice, every step in order, and any pass."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turn_records")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=Color.choices)
    dice = models.JSONField(help_text="The two dice rolled.")
    steps = models.JSONField(default=list, blank=True,
                             help_text='[{"from", "to", "die"}] in the mover\'s numbering.')
    pass_reason = models.CharField(max_length=64, blank=True,
                                   help_text="Why the rest of the turn passed (R23).")
    position_after = models.CharField(max_length=64, blank=True,
                                      help_text="Position ID once the turn is over.")
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("game", "number")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="turn_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Turn {self.number} ({self.side}) of {self.game}"


class Event(models.Model):
    """The append-only log of a match, numbered 1, 2, 3, ... without gaps."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=16)
    at = models.DateTimeField()
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ("match", "seq")
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"
