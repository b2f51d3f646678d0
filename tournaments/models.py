"""Tournaments: the event, its entrants, its rounds and their pairings, its event log.

A pairing's match is a games Match started by :func:`games.start.match_start`; the match
keeps the tournament's id (``Match.tournament_id``), the tournament keeps its pairings.
The standings are the entrants' rows (score and tie-breaks), kept up to date by the
services as each match ends (docs/tournaments.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Match, Stakes
from nardy import DEFAULT_RULES


class System(models.TextChoices):
    ARENA = "arena"
    SWISS = "swiss"
    KNOCKOUT = "knockout"


class Status(models.TextChoices):
    CREATED = "created"
    STARTED = "started"
    FINISHED = "finished"


class Entry(models.TextChoices):
    OPEN = "open", "open: listed, anyone signed in may join"
    LINK = "link", "by link: unlisted, joined with its code"


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    system = models.CharField(max_length=8, choices=System.choices)
    rules = models.CharField(max_length=16, default=DEFAULT_RULES)
    length = models.PositiveSmallIntegerField(help_text="Points to win each match.")
    stakes = models.CharField(max_length=4, choices=Stakes.choices, default=Stakes.NONE)
    rated = models.BooleanField(default=True)
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="Each match's clock; none: TOURNAMENT_DEFAULT_TURN_SECONDS applies.")
    minutes = models.PositiveIntegerField(null=True, blank=True,
                                          help_text="Arena: its duration.")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True,
                                              help_text="Swiss: its number of rounds.")
    third_place = models.BooleanField(default=False,
                                      help_text="Knock-out: the semi-finals' losers play.")
    starts_at = models.DateTimeField(null=True, blank=True,
                                     help_text="None: the creator starts it.")
    max_players = models.PositiveIntegerField(default=64)
    entry = models.CharField(max_length=4, choices=Entry.choices, default=Entry.OPEN)
    code = models.CharField(max_length=24, blank=True,
                            help_text="Entry by link: the code joining needs.")
    allow_computer = models.BooleanField(default=False,
                                         help_text="The computer's levels may be entrants.")
    featured = models.BooleanField(default=False, db_index=True)
    cancelled = models.BooleanField(default=False,
                                    help_text="Finished by the staff before its end.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CREATED,
                              db_index=True)
    round = models.PositiveSmallIntegerField(default=0, help_text="The current round.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Arena: when it ends.")
    finished_at = models.DateTimeField(null=True, blank=True)
    last_event_seq = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(system="arena") | models.Q(minutes__gte=1),
                name="tournament_arena_minutes"),
            models.CheckConstraint(
                condition=~models.Q(system="swiss") | models.Q(rounds__gte=1),
                name="tournament_swiss_rounds"),
            models.CheckConstraint(condition=models.Q(max_players__gte=2),
                                   name="tournament_max_players"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.system}, #{self.pk})"


class Entrant(models.Model):
    """A player of a tournament: its score and tie-breaks (the standings)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    rating = models.FloatField(help_text="The rating at joining, or at the start: the seed.")
    score = models.FloatField(default=0.0)
    points = models.IntegerField(default=0, help_text="Game points won in its matches.")
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text="Arena: wins in a row.")
    whites = models.IntegerField(default=0, help_text="Matches as White minus as Black.")
    byes = models.PositiveIntegerField(default=0)
    buchholz = models.FloatField(default=0.0)
    sonneborn_berger = models.FloatField(default=0.0)
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    removed = models.BooleanField(default=False, help_text="Removed by the staff.")
    eliminated_in = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Knock-out: the round lost.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"],
                                               name="entrant_once")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"

    @property
    def active(self) -> bool:
        return not (self.withdrawn or self.removed)


class Round(models.Model):
    """A Swiss or knock-out round; in an arena, each wave of pairings."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "number"],
                                               name="round_once")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Pairing(models.Model):
    """Two entrants and their match, or one entrant's bye (``black`` empty, no match)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="pairings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    white = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    black = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="+")
    slot = models.PositiveSmallIntegerField(default=0, help_text="Knock-out: bracket slot.")
    third_place = models.BooleanField(default=False)
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    white_points = models.IntegerField(default=0)
    black_points = models.IntegerField(default=0)
    settled_by = models.CharField(max_length=12, blank=True,
                                  help_text="How it ended: played, bye, forfeit, arena_end.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["tournament", "finished_at"])]

    def __str__(self) -> str:
        return f"pairing {self.pk} (round {self.round_id})"

    @property
    def bye(self) -> bool:
        return self.black_id is None


class TournamentEvent(models.Model):
    """The tournament's append-only log: what its stream sends (``seq`` from 1)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=16)
    data = models.JSONField(default=dict)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "seq"],
                                               name="tournament_event_seq")]

    def __str__(self) -> str:
        return f"{self.type} #{self.seq} of {self.tournament_id}"
