"""Models for tournaments, their entries, rounds, matches and standings (players, clubs and
ratings: players/models.py and games/models.py)."""

from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import models

from games.clock import CLAIM_AFTER_HOURS_TOURNAMENT
from players.models import Club, Player


class Stage(StrEnum):
    """A tournament's stages, as stored in ``stage`` (Round, TournamentMatch) and as the keys of
    ``Tournament.brackets``."""

    MAIN = "main"  # the whole tournament, or its group stage
    KNOCKOUT = "knockout"  # the bracket that follows the groups


class Tournament(models.Model):
    """A club's tournament: format, match rules, registration and the organisers who run it."""

    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination"
        DOUBLE_ELIMINATION = "double_elimination"
        CONSOLATION = "consolation"
        ROUND_ROBIN = "round_robin"
        SWISS = "swiss"

    class Status(models.TextChoices):
        DRAFT = "draft"
        REGISTRATION = "registration"
        RUNNING = "running"
        FINISHED = "finished"

    class SeedMethod(models.TextChoices):
        MANUAL = "manual"
        RATING = "rating"
        RANDOM = "random"

    class MatchMode(models.TextChoices):
        ONLINE = "online"
        OVER_THE_BOARD = "over_the_board"

    name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments", blank=True
    )
    # Rated: its matches count for the ratings. Only staff and users with the permission
    # "tournaments.run_rated_tournament" (a club's trusted organisers) run rated tournaments:
    # anyone else's tournament is a friendly one (README, "Trust").
    rated = models.BooleanField(default=False)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    format = models.CharField(max_length=24, choices=Format.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    match_length = models.PositiveIntegerField(default=5)
    options = models.JSONField(default=dict, help_text="engine Options JSON for every match")
    match_mode = models.CharField(
        max_length=16, choices=MatchMode.choices, default=MatchMode.OVER_THE_BOARD
    )
    rotate_cycle = models.BooleanField(
        default=False, help_text="round N opens with game N of the cycle (variant balance)"
    )
    # Time rules for every match (games/clock.py; docs/options.md, "The match clock"): a clock
    # ({} is none; online matches only), and without one the hours of inactivity after which
    # the waiting player may claim a match.
    clock = models.JSONField(
        default=dict, blank=True, help_text='{"preset": "standard"} or per_point_seconds and '
        "delay_seconds; {}: no clock"
    )
    claim_after_hours = models.PositiveIntegerField(default=CLAIM_AFTER_HOURS_TOURNAMENT)
    # Format settings (each format reads its own).
    third_place = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=True)
    consolation_rounds = models.PositiveIntegerField(default=1)
    consolation_match_length = models.PositiveIntegerField(null=True, blank=True)
    double_round_robin = models.BooleanField(default=False)
    groups = models.PositiveIntegerField(default=1)
    knockout_per_group = models.PositiveIntegerField(
        default=0, help_text="0: no knock-out stage after the groups"
    )
    swiss_rounds = models.PositiveIntegerField(null=True, blank=True)
    tiebreak_order = models.JSONField(default=list, blank=True)
    bye_points = models.FloatField(default=1.0)
    # Registration.
    registration_open = models.BooleanField(default=False)
    max_entries = models.PositiveIntegerField(null=True, blank=True)
    late_entry_until_round = models.PositiveIntegerField(
        default=0, help_text="late entry allowed while fewer rounds than this are paired"
    )
    check_in_required = models.BooleanField(default=False)
    seed_method = models.CharField(
        max_length=8, choices=SeedMethod.choices, default=SeedMethod.RATING
    )
    current_round = models.PositiveIntegerField(default=0)
    brackets = models.JSONField(
        default=dict, blank=True, help_text='per stage: {"format": ..., "seeds": {seed: entry id}}'
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [("run_rated_tournament", "Can run rated tournaments")]

    def __str__(self) -> str:
        return self.name

    def get_additional_data(self) -> dict[str, int]:
        return {"tournament": self.pk}

    @classmethod
    def field_default(cls, name: str) -> Any:
        """The default of the field ``name``, as a new tournament gets it."""
        field = cls._meta.get_field(name)
        if not isinstance(field, models.Field):
            raise ValueError(f"{name} is a relation's other side, with no default")
        return field.get_default()

    @property
    def is_elimination(self) -> bool:
        return self.format in (
            self.Format.SINGLE_ELIMINATION,
            self.Format.DOUBLE_ELIMINATION,
            self.Format.CONSOLATION,
        )


class Entry(models.Model):
    """A player's place in a tournament, with a seed once seeded."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        WITHDRAWN = "withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    checked_in = models.BooleanField(default=False)
    group = models.PositiveIntegerField(null=True, blank=True)
    joined_round = models.PositiveIntegerField(default=0, help_text="0: entered before round 1")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    def get_additional_data(self) -> dict[str, int]:
        return {"tournament": self.tournament_id}


class Round(models.Model):
    """A round of a stage: the variant that opens its matches and the no-show deadline."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    stage = models.CharField(max_length=16, default=Stage.MAIN.value)
    number = models.PositiveIntegerField()
    opening_variant = models.CharField(max_length=16, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    is_finished = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "stage", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "number"], name="round_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.stage} round {self.number}"

    def get_additional_data(self) -> dict[str, int]:
        return {"tournament": self.tournament_id}


class TournamentMatch(models.Model):
    """One slot of a bracket, group or Swiss round, and the games Match played for it."""

    class Status(models.TextChoices):
        WAITING = "waiting"  # a player is still unknown
        READY = "ready"  # both known: a games Match exists
        DONE = "done"
        BYE = "bye"
        VOID = "void"
        MISSED = "missed"  # a round paired before a late entrant joined: not a bye

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    stage = models.CharField(max_length=16, default=Stage.MAIN.value, help_text=" | ".join(Stage))
    key = models.CharField(max_length=24, help_text='bracket key ("W1-1", "GF") or "R2-3"')
    section = models.CharField(max_length=24, default="main")
    round = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    sources = models.JSONField(default=list, blank=True, help_text='["seed:1", "winner:W1-1"]')
    match_length = models.PositiveIntegerField(null=True, blank=True)
    entry_one = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entry_two = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_match",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    score_one = models.PositiveIntegerField(default=0)
    score_two = models.PositiveIntegerField(default=0)
    # Games won by each; None when the games stored do not give the score (a whole-match
    # score reported or corrected: docs/decisions.md D27).
    games_one = models.PositiveIntegerField(null=True, blank=True, default=0)
    games_two = models.PositiveIntegerField(null=True, blank=True, default=0)
    is_forfeit = models.BooleanField(default=False)
    bye_points = models.FloatField(null=True, blank=True, help_text="a bye's worth, if not 1")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "tournament matches"
        ordering = ["tournament", "stage", "round", "section", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "key"], name="tournament_match_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.stage} {self.key}"

    def get_additional_data(self) -> dict[str, int]:
        return {"tournament": self.tournament_id}

    @property
    def entries(self) -> tuple[Entry | None, Entry | None]:
        return (self.entry_one, self.entry_two)


class Standing(models.Model):
    """A stored standings row (recomputed by a task), so pages and the API read them cheaply."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    section = models.CharField(max_length=24, default="main", help_text='"main" or "group-N"')
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="None: place not decided")
    rank_last = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="a bracket's shared places: rank 5, rank_last 8 (docs/decisions.md D33); "
        "None in a league table",
    )
    played = models.PositiveIntegerField(default=0)
    match_wins = models.PositiveIntegerField(default=0)
    match_losses = models.PositiveIntegerField(default=0)
    match_points = models.FloatField(default=0)
    games_won = models.PositiveIntegerField(
        null=True, blank=True, default=0, help_text="None: a counted match has no game record"
    )
    points_for = models.PositiveIntegerField(default=0)
    points_against = models.PositiveIntegerField(default=0)
    point_diff = models.IntegerField(default=0)
    buchholz = models.FloatField(default=0)
    median_buchholz = models.FloatField(default=0)
    sonneborn_berger = models.FloatField(default=0)
    head_to_head = models.FloatField(default=0)
    byes = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "section", models.F("rank").asc(nulls_last=True), "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "section", "entry"], name="standing_unique_entry"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.section} #{self.rank} {self.entry_id}"
