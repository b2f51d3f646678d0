"""Matches, games, per-turn records and the append-only event log.

The database keeps what must hold (constraints below); the rules themselves live in
``nardy`` and every write goes through ``games.services``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from nardy import (
    BLACK,
    DEFAULT_RULES,
    RULESETS,
    SIDE_NAMES,
    WHITE,
    BoardPosition,
    RuleSet,
    Side,
    descriptors,
    side_name,
)
from nardy import Turn as TurnState
from nardy import stakes as stake_rules
from nardy.descriptor import SINGLE
from nardy.stakes import MAX_STAKE, START_STAKE, next_stake


class Color(models.TextChoices):
    """A side as the database, the API and the records spell it: the engine's
    ``SIDE_NAMES`` (``SIDE_NAMES[WHITE]``, ``SIDE_NAMES[BLACK]``), never spelled again."""

    WHITE = SIDE_NAMES[0], "White"
    BLACK = SIDE_NAMES[1], "Black"


color_of = side_name
"""The colour of an engine side: ``color_of(WHITE) == "white"``."""


def side_of(color: str) -> Side:
    """The engine side of a colour: ``side_of("black") == BLACK``; ``ValueError`` for
    anything but a side name (a blank column is no side)."""
    return SIDE_NAMES.index(color)


class MatchStatus(models.TextChoices):
    """Ordered: every status from :attr:`FINISHED` on is final (:func:`is_over`)."""

    OPEN = "open", "Open seek"
    INVITED = "invited", "Invitation"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


STATUS_ORDER: tuple[str, ...] = tuple(MatchStatus.values)
"""Statuses in the order a match goes through them."""


def is_over(status: str) -> bool:
    """``True`` from ``finished`` on (finished or aborted): nothing more can happen."""
    return STATUS_ORDER.index(status) >= STATUS_ORDER.index(MatchStatus.FINISHED)


def rules_choices() -> list[tuple[str, str]]:
    """The rule sets a match can be played by: every registered one (``nardy.RULESETS``,
    a rule set added at run time too), named by its descriptor's title. A callable, so
    the model's choices are read when asked, not frozen at import (no migration either)."""
    return [(d.name, d.title) for d in descriptors()]


def rules_names() -> list[str]:
    """The names of :func:`rules_choices`, in the same order."""
    return list(RULESETS)


MATCH_LENGTHS = (1, 3, 5, 7)


class Stakes(models.TextChoices):
    """How a game's stake can grow (RULES-FAMILY S1-S7; the rules: :mod:`nardy.stakes`)."""

    NONE = stake_rules.NONE, "None"
    CUBE = stake_rules.CUBE, "Doubling cube"
    DAVE = stake_rules.DAVE, "Dave"


class Progression(models.TextChoices):
    """The values a stake goes through (S4): 1, 2, 4, 8 … or 1, 2, 3, 4 … (``dave`` only)."""

    GEOMETRIC = stake_rules.GEOMETRIC, "Geometric (1, 2, 4, 8 …)"
    ARITHMETIC = stake_rules.ARITHMETIC, "Arithmetic (1, 2, 3, 4 …)"


MIN_TURN_SECONDS, MAX_TURN_SECONDS = 30, 86_400
"""The clock's range: 30 s a move to a day (correspondence)."""

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
    rated = models.BooleanField(  # the result moves both ratings (ratings/)
        default=False, help_text="The result changes both players' ratings (ratings/).")
    # An id, not a ForeignKey: games knows nothing of tournaments/ (which imports games).
    tournament_id = models.BigIntegerField(
        null=True, blank=True, db_index=True,
        help_text="The tournament that started it (tournaments/), if any.")
    rules = models.CharField(max_length=16, choices=rules_choices, default=DEFAULT_RULES,
                             db_index=True, help_text="The rule set (nardy.RULESETS).")
    length = models.PositiveSmallIntegerField()
    stakes = models.CharField(max_length=4, choices=Stakes.choices, default=Stakes.NONE,
                              help_text="How stakes can be raised (S1-S7), fixed at creation.")
    progression = models.CharField(max_length=10, choices=Progression.choices,
                                   default=Progression.GEOMETRIC,
                                   help_text="The stake's values (S4); arithmetic with dave "
                                             "only.")
    crawford_game = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="S7: the number of the match's Crawford game (no offers in it), once a "
                  "score has first become one short of the length.")
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="The clock: seconds the side to act has for each action (30 to 86,400), "
                  "or none.")
    deadline = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="When the side to act must have acted (set by every committed change).")
    deadline_warned = models.BooleanField(
        default=False, help_text="The sweep has logged the deadline warning for it.")
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
                condition=Q(turn_seconds__isnull=True)
                | Q(turn_seconds__gte=MIN_TURN_SECONDS, turn_seconds__lte=MAX_TURN_SECONDS),
                name="match_turn_seconds_30_to_86400"),
            models.CheckConstraint(condition=Q(stakes__in=Stakes.values),
                                   name="match_stakes_known"),
            models.CheckConstraint(
                condition=Q(progression=Progression.GEOMETRIC)
                | Q(progression=Progression.ARITHMETIC, stakes=Stakes.DAVE),
                name="match_arithmetic_only_with_dave"),
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

    @property
    def ruleset(self) -> RuleSet:
        """The engine's rule set this match is played by."""
        return RULESETS[self.rules]


class GamePhase(models.TextChoices):
    ROLL_OFF = "roll-off", "Roll-off"
    ROLL = "roll", "Roll"
    OFFER = "offer", "Offer"
    """S3: an offer waits for the answer of the side in ``turn``."""
    RESIGN = "resign", "Resignation offered"
    """A resignation offer (a result the resigning side concedes, R30/H16 with a choice)
    waits for the answer of the side in ``turn``; the turn it interrupted (before or
    after the roll) goes on after a refusal."""
    MOVE = "move", "Move"
    FINISHED = "finished", "Finished"


class EndReason(models.TextChoices):
    BORNE_OFF = "borne_off", "Borne off"
    RESIGNED = "resigned", "Resigned"
    REFUSED = "refused", "Refused an offer"
    CLAIMED = "claimed", "Claimed on time"
    ABANDONED = "abandoned", "Abandoned"


RESIGNATIONS = (EndReason.RESIGNED, EndReason.CLAIMED, EndReason.ABANDONED)
"""End reasons scored as a resignation of the loser (R30/H16)."""


class Result(models.TextChoices):
    """A finished game's result name when it did not end on the board: ``resigned``
    (R30/H16) or ``refused`` (S4). The results of a game won on the board are the rule
    sets' (:func:`board_results`)."""

    RESIGNED = "resigned", "Resigned"
    REFUSED = "refused", "Refused an offer"


def board_results() -> list[tuple[str, str]]:
    """Every result a game won on the board may have in a registered rule set (H15),
    each name once with its title, in the rule sets' order: ``single``, ``mars``,
    ``koks``, ``gammon``, ``backgammon`` for the built-in ones."""
    seen: dict[str, str] = {}
    for d in descriptors():
        for kind in d.results:
            seen.setdefault(kind.name, kind.title)
    return list(seen.items())


def result_choices() -> list[tuple[str, str]]:
    """A game's ``result`` column: :func:`board_results` and :class:`Result`'s."""
    return [*board_results(), *Result.choices]


def result_names() -> list[str]:
    return [name for name, _ in result_choices()]


class Game(models.Model):
    """One game of a match, with the current state kept as a snapshot for O(1) reads.

    The snapshot is rule-set neutral: the engine's own position ID (``position_key``)
    and, while a turn is being played, its turn ID (``turn_key``); both name their
    rule set and are read back through ``match.ruleset``.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    starter = models.CharField(max_length=5, choices=Color.choices, blank=True)
    # --- snapshot of the current state ---------------------------------------------------
    position_key = models.CharField(max_length=64,
                                    help_text="The engine's position ID of the board now.")
    turn_key = models.CharField(max_length=64, blank=True,
                                help_text="The engine's turn ID while a turn is played.")
    phase = models.CharField(max_length=8, choices=GamePhase.choices)
    turn = models.CharField(max_length=5, choices=Color.choices, blank=True,
                            help_text="The side to move (blank during the roll-off).")
    dice = models.JSONField(null=True, blank=True, help_text="This turn's roll.")
    white_first_turn = models.BooleanField(default=True)
    black_first_turn = models.BooleanField(default=True)
    rolloff_white = models.PositiveSmallIntegerField(null=True, blank=True)
    rolloff_black = models.PositiveSmallIntegerField(null=True, blank=True)
    turns = models.PositiveIntegerField(default=0)
    # --- stakes (S1-S7) ------------------------------------------------------------------
    stake = models.PositiveSmallIntegerField(default=START_STAKE,
                                             help_text="The game's stake (S1).")
    stake_holder = models.CharField(max_length=5, choices=Color.choices, blank=True,
                                    help_text="S2: who alone may offer next (blank: both).")
    offer_by = models.CharField(max_length=5, choices=Color.choices, blank=True,
                                help_text="S3: the side whose offer waits for an answer.")
    offers = models.JSONField(default=list, blank=True,
                              help_text='The game\'s offers in order: [{"before_turn", "by", '
                                        '"stake", "answer"}] (answer: accept, refuse, or null '
                                        "while it waits).")
    resign_offers = models.JSONField(
        default=list, blank=True,
        help_text='The game\'s resignation offers in order: [{"turn", "during", "by", '
                  '"result", "result_points", "points", "answer"}] (turn: the offerer\'s turn '
                  'number; during: "roll" before its roll, "move" after it; result_points: '
                  "the result's worth, points: times the stake; answer: accept, refuse, or "
                  "null while it waits).")
    current_turn = models.ForeignKey("Turn", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    # --- dice anyone can verify (docs/fairness.md) -----------------------------
    dice_seed = models.CharField(
        max_length=64, blank=True,
        help_text="The server's secret seed (hex) until the game ends; blank: not committed.")
    dice_commitment = models.CharField(
        max_length=80, blank=True,
        help_text="The published commitment to the seed (games.fairness.commitment).")
    white_seed = models.CharField(max_length=128, blank=True,
                                  help_text="White's own seed for the game's dice, if given.")
    black_seed = models.CharField(max_length=128, blank=True,
                                  help_text="Black's own seed for the game's dice, if given.")
    dice_drawn = models.PositiveIntegerField(
        default=0, help_text="Dice drawn in the game so far (roll-offs and turns).")
    # --- result ------------------------------------------------------------------------
    winner = models.CharField(max_length=5, choices=Color.choices, blank=True)
    points_won = models.PositiveSmallIntegerField(null=True, blank=True)
    mars = models.BooleanField(default=False,
                               help_text="Won with more than a single game (mars, koks, gammon, "
                                         "backgammon; for a resignation, what it conceded).")
    result = models.CharField(max_length=10, choices=result_choices, blank=True)
    end_reason = models.CharField(max_length=9, choices=EndReason.choices, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("match", "number")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(points_won__isnull=True) | Q(points_won__gte=1),
                                   name="game_points_positive"),
            models.CheckConstraint(
                condition=(Q(winner="") & Q(points_won__isnull=True) & Q(result=""))
                | (~Q(winner="") & Q(points_won__isnull=False) & ~Q(result="")),
                name="game_winner_has_points_and_result"),
            models.CheckConstraint(condition=~Q(mars=True) | Q(points_won__gte=2),
                                   name="game_mars_is_more_than_one_point"),
            models.CheckConstraint(condition=Q(stake__gte=1, stake__lte=MAX_STAKE),
                                   name="game_stake_1_to_64"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of match {self.match_id}"

    @property
    def position(self) -> BoardPosition:
        """The board now, as the rule set's own position."""
        return self.match.ruleset.position_from_id(self.position_key)

    def first_turn(self, side: Side) -> bool:
        return self.white_first_turn if side == WHITE else self.black_first_turn

    def turn_state(self) -> TurnState | None:
        """The engine's state of the turn being played; ``None`` outside the move phase."""
        if self.phase != GamePhase.MOVE or not self.turn_key:
            return None
        return self.match.ruleset.turn_from_id(self.turn_key)

    @property
    def dice_left(self) -> list[int]:
        """The dice still to play this turn (empty outside the move phase)."""
        state = self.turn_state()
        return list(state.dice_left) if state is not None else []

    @property
    def is_over(self) -> bool:
        return bool(self.winner)

    def no_offer_reason(self) -> stake_rules.NoOffer | None:
        """Why no one may offer in this game (S5, S7: :func:`nardy.stakes.no_offer_reason`)."""
        match = self.match
        return stake_rules.no_offer_reason(match.stakes, length=match.length,
                                           stake=self.stake,
                                           crawford=self.number == match.crawford_game)

    def may_offer(self) -> stake_rules.MayOffer:
        """S2, S5, S7: who holds the right to offer now — ``both``, ``white``, ``black``,
        or ``none`` (no stakes, a 1-point match, the Crawford game, the cap, the game
        is over): :func:`nardy.stakes.may_offer`."""
        match = self.match
        return stake_rules.may_offer(match.stakes, length=match.length, stake=self.stake,
                                     holder=self.stake_holder,
                                     crawford=self.number == match.crawford_game,
                                     over=self.is_over)

    @property
    def offered_stake(self) -> int:
        """The stake an offer now would raise to (S4, S5)."""
        return next_stake(self.match.progression, self.stake)

    def waiting_resign_offer(self) -> dict[str, Any] | None:
        """The resignation offer waiting for its answer (phase ``resign``), or ``None``."""
        if self.phase != GamePhase.RESIGN or not self.resign_offers:
            return None
        last: dict[str, Any] = self.resign_offers[-1]
        return last if last.get("answer") is None else None

    def conceded(self) -> str:
        """What a finished game's win was worth on the board, by its result name (H15):
        its result, or for a resignation the result the position gave (R30/H16); with
        ``dave`` stakes (S6) and for a refused offer (S4), ``single``. The record, the
        import check and the admin all name a game's worth with this."""
        if self.result == Result.REFUSED or (
                self.result == Result.RESIGNED
                and not stake_rules.mars_counts(self.match.stakes)):
            return SINGLE.name
        if self.result != Result.RESIGNED:
            return str(self.result)
        loser = 1 - side_of(self.winner)
        return self.match.ruleset.resign_outcome(self.position, loser).result


class Turn(models.Model):
    """The per-move record of one turn: its dice, every step in order, and any pass."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turn_records")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=Color.choices)
    dice = models.JSONField(help_text="The two dice rolled.")
    steps = models.JSONField(default=list, blank=True,
                             help_text='[{"from", "to", "die", "hit"}] in the mover\'s '
                                       'numbering (from 25: entering from the bar).')
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


class WorkerLease(models.Model):
    """A task-queue worker's lease: ``manage.py db_worker`` renews it
    every ``WORKER_HEARTBEAT_SECONDS``; a job left RUNNING by a worker whose lease is
    older than ``WORKER_LEASE_SECONDS`` was lost with it and is reclaimed
    (:func:`games.tasks.reclaim`)."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    started_at = models.DateTimeField()
    heartbeat_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"worker {self.worker_id}"
