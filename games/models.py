"""Models for matches, games, the append-only turn log, over-the-board result reports, the
rating history and owed follow-up tasks."""

from dataclasses import replace

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.clock import CLAIM_AFTER_HOURS_DEFAULT
from games.engine import PRESETS, Options
from players.models import Player

RESULT_KINDS = [
    ("single", "single"),
    ("mars", "mars"),
    ("triple", "triple"),
    ("mother", "mother"),
    ("tie", "tie"),
]
VARIANTS = [("tabla", "Tabla"), ("gul_bara", "Gjul Bara"), ("tapa", "Tapa")]


class Match(models.Model):
    """Two players, a target score and the club's rule options (docs/rules.md §6, §8)."""

    class Status(models.TextChoices):
        INVITED = "invited"  # a player's challenge, waiting for the opponent to accept
        DECLINED = "declined"  # the challenge was declined or withdrawn; never played
        SCHEDULED = "scheduled"
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        FORFEITED = "forfeited"

    class Mode(models.TextChoices):
        ONLINE = "online"  # the server rolls, the engine checks every play
        OVER_THE_BOARD = "over_the_board"  # games are reported and confirmed
        IMPORTED = "imported"  # replayed from an export file

    class EndedBy(models.TextChoices):
        SCORE = "score"  # a player reached the target score (or a final score was reported)
        FORFEIT = "forfeit"  # the organiser declared a forfeit
        TIME = "time"  # the loser's clock ran out (games/services/clock.py)
        CLAIM = "claim"  # the waiting player claimed it after the opponent's long inactivity
        RESIGNATION = "resignation"  # the loser resigned the match (games/services/play.py)

    class ClockSide(models.TextChoices):
        PLAYER_ONE = "player_one"
        PLAYER_TWO = "player_two"

    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organised_matches",
    )
    # Who entered the match (a player's challenge, staff, a tournament's organiser, an import):
    # with the reports' reporter and responder, every rated result can be traced to a person.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    # Rated: both players agreed to the match (the opponent accepted the challenge, or both
    # were entered in a rated tournament) or staff entered it (README, "Trust").
    rated = models.BooleanField(default=False)
    accepted_at = models.DateTimeField(
        null=True, blank=True, help_text="when the challenged player accepted"
    )
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.ONLINE)
    target_score = models.PositiveIntegerField(default=5)
    options = models.JSONField(default=dict, help_text="Options.to_json() of the engine")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    score_one = models.PositiveIntegerField(default=0)
    score_two = models.PositiveIntegerField(default=0)
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A free label ("tournament-<id>" for tournament matches, filterable with ?tournament=); the
    # link itself is TournamentMatch.match (reverse: match.tournament_match).
    tournament_slot = models.CharField(max_length=64, blank=True, db_index=True)
    is_public = models.BooleanField(default=True)
    auto_roll = models.BooleanField(
        default=False,
        help_text="online: the server rolls for the player to move as soon as a roll is due "
        "and that player may not double (cube off, or not theirs to turn)",
    )
    ended_by = models.CharField(
        max_length=16, choices=EndedBy.choices, blank=True,
        help_text="how a match that is over ended",
    )
    # The match clock (docs/options.md, "The match clock"; games/services/clock.py): not a rule
    # of the engine, so it lives here rather than in ``options``. A bank of 0 is no clock. The
    # running side's bank is as it stood when its turn started; its deadline is that start plus
    # the delay plus that bank, and the sweep finds overdue clocks by it.
    clock_bank_seconds = models.PositiveIntegerField(
        default=0, help_text="each player's bank for the whole match; 0: no clock"
    )
    clock_delay_seconds = models.PositiveIntegerField(
        default=0, help_text="free seconds at the start of every turn, before the bank runs"
    )
    clock_one_ms = models.PositiveIntegerField(default=0, help_text="player one's bank left")
    clock_two_ms = models.PositiveIntegerField(default=0, help_text="player two's bank left")
    clock_running = models.CharField(max_length=10, choices=ClockSide.choices, blank=True)
    clock_turn_started_at = models.DateTimeField(null=True, blank=True)
    clock_deadline = models.DateTimeField(
        null=True, blank=True, help_text="when the running side's time runs out"
    )
    claim_after_hours = models.PositiveIntegerField(
        default=CLAIM_AFTER_HOURS_DEFAULT,
        help_text="without a clock: hours of the opponent's inactivity after which the waiting "
        "player may claim the match",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_one=models.F("player_two")), name="match_two_players"
            ),
        ]
        indexes = [
            models.Index(
                fields=["clock_deadline"],
                condition=Q(clock_deadline__isnull=False),
                name="match_clock_deadline",
            ),
            # The lists' newest-first reads (the API's, a status's on the home page), and
            # "recent" on the home page.
            models.Index(fields=["-created_at", "-id"], name="match_created"),
            models.Index(fields=["status", "-created_at", "-id"], name="match_status_created"),
            # A player's page: their matches newest first, as player one and as player two.
            models.Index(fields=["player_one", "-created_at", "-id"], name="match_one_created"),
            models.Index(fields=["player_two", "-created_at", "-id"], name="match_two_created"),
            models.Index(
                fields=["-updated_at"],
                condition=Q(status__in=["finished", "forfeited"]),
                name="match_over_updated",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk}: {self.player_one} v {self.player_two}"

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.player_one, self.player_two)

    @property
    def has_clock(self) -> bool:
        return self.clock_bank_seconds > 0


class Game(models.Model):
    """One game of a match. The player who starts plays white (``turn`` "w" at the start)."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        ABANDONED = "abandoned"  # the match was forfeited while this game was on

    class EndedBy(models.TextChoices):
        PLAY = "play"
        RESIGNATION = "resignation"
        STUCK = "stuck"
        REPORT = "report"
        IMPORT = "import"
        DROP = "drop"  # a double was declined

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    variant = models.CharField(max_length=16, choices=VARIANTS)
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    black = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    opening_rolls = models.JSONField(
        default=list,
        blank=True,
        help_text="opening roll: [[player one's die, player two's die], ...]",
    )
    position = models.JSONField(help_text="current POSITION (engine JSON)")
    dice = models.JSONField(null=True, blank=True, help_text="dice on the table, not yet played")
    ply = models.PositiveIntegerField(default=1, help_text="number of the next decision")
    idle_rolls = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    ended_by = models.CharField(max_length=16, choices=EndedBy.choices, blank=True)
    result_winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result_kind = models.CharField(max_length=8, choices=RESULT_KINDS, blank=True)
    result_points = models.PositiveIntegerField(null=True, blank=True)
    resigned_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The doubling cube (docs/rules.md §6.6, option ``cube``): its value, its owner's colour ("" in
    # the middle), the colour of a player whose double awaits an answer, and whether this is the
    # Crawford game (no doubling). result_points already counts the cube.
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.CharField(
        max_length=1, blank=True, choices=[("w", "white"), ("b", "black")]
    )
    cube_offered_by = models.CharField(
        max_length=1, blank=True, choices=[("w", "white"), ("b", "black")]
    )
    crawford = models.BooleanField(default=False)
    # Dice commitment: seed_commitment = SHA-256(seed) is public from the start; the seed is
    # revealed once the game is over (games/dice.py). Empty for reported or imported games.
    seed = models.CharField(max_length=64, blank=True)
    seed_commitment = models.CharField(max_length=64, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} ({self.variant}) of match {self.match_id}"

    @property
    def starter(self) -> Player:
        return self.white

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.IN_PROGRESS

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def seed_revealed(self) -> bool:
        return self.is_over and bool(self.seed)

    def player_of(self, colour: str) -> Player:
        return self.white if colour == "w" else self.black

    def colour_of(self, player: Player) -> str | None:
        if player.pk == self.white_id:
            return "w"
        if player.pk == self.black_id:
            return "b"
        return None


class Turn(models.Model):
    """One decision, appended and never changed: a rolled play (a pass has no moves) or a
    Gjul Bara pending stage played before rolling. Replaying them must reach Game.position."""

    class Kind(models.TextChoices):
        ROLL = "roll"
        PENDING = "pending"
        DOUBLE = "double"  # cube actions: no dice, no moves, the position unchanged
        TAKE = "take"
        DROP = "drop"

    CUBE_KINDS = (Kind.DOUBLE, Kind.TAKE, Kind.DROP)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    ply = models.PositiveIntegerField()
    side = models.CharField(max_length=1, choices=[("w", "white"), ("b", "black")])
    kind = models.CharField(max_length=8, choices=Kind.choices)
    dice = models.JSONField(help_text="the roll, or the pending stage played")
    moves = models.JSONField(default=list, help_text='["24/18", "13/8"]; [] is a pass')
    position_after = models.JSONField()
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="turn_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.ply} {self.side} {self.dice} {' '.join(self.moves)}"


class ResultReport(models.Model):
    """A result reported for over-the-board play, of the next game or of the whole match (its
    final score); it counts once confirmed or overridden."""

    class Status(models.TextChoices):
        PENDING = "pending"
        CONFIRMED = "confirmed"
        DISPUTED = "disputed"
        OVERRIDDEN = "overridden"

    class Scope(models.TextChoices):
        GAME = "game"
        MATCH = "match"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    scope = models.CharField(max_length=8, choices=Scope.choices, default=Scope.GAME)
    game_number = models.PositiveIntegerField(null=True, blank=True, help_text="scope game")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the account that reported; none when reported with a slip's code",
    )
    reported_with = models.ForeignKey(
        "MatchReportCode",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        help_text="the slip code it was reported with (its player reported)",
    )
    starter = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=RESULT_KINDS, blank=True, help_text="scope game")
    points = models.PositiveIntegerField(null=True, blank=True, help_text="scope game")
    score_one = models.PositiveIntegerField(null=True, blank=True, help_text="scope match")
    score_two = models.PositiveIntegerField(null=True, blank=True, help_text="scope match")
    record = models.JSONField(
        null=True, blank=True, help_text='[{"dice": [6, 5] | null, "moves": "24/18 18/13"}, ...]'
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    responded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    responded_with = models.ForeignKey(
        "MatchReportCode",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        help_text="the slip code it was confirmed or disputed with (its player answered)",
    )
    responded_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.TextField(blank=True)
    disputed_score_one = models.PositiveIntegerField(
        null=True, blank=True, help_text="the final score the disputing player gives instead"
    )
    disputed_score_two = models.PositiveIntegerField(null=True, blank=True)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="report"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(reporter__isnull=False) | Q(reported_with__isnull=False),
                name="report_has_reporter",
            )
        ]

    def __str__(self) -> str:
        if self.scope == self.Scope.MATCH:
            return f"Report {self.pk} on match {self.match_id}: {self.score_one}-{self.score_two}"
        return f"Report {self.pk} on match {self.match_id}, game {self.game_number}"

    @property
    def counts(self) -> bool:
        return self.status in (self.Status.CONFIRMED, self.Status.OVERRIDDEN)


class RatingHistory(models.Model):
    """A player's rating after one rated match (variant "") or one single game of a variant.

    It lives in games, not players, because each row points at the games Match (and Game) it
    rates, and players sits below games; the ratings service that writes it is in games too
    (games/services/ratings.py). Its table kept its name from tournaments (``db_table``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    variant = models.CharField(max_length=16, blank=True, help_text='"": the overall rating')
    sequence = models.PositiveIntegerField(help_text="order in which results were rated")
    rating = models.FloatField()
    change = models.FloatField()
    experience = models.PositiveIntegerField()
    rated_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_ratinghistory"
        verbose_name_plural = "rating history"
        ordering = ["player", "variant", "sequence"]
        indexes = [
            models.Index(fields=["player", "variant", "sequence"]),
            # A stream's last sequence number, read by every rating update.
            models.Index(fields=["variant", "-sequence"], name="ratinghistory_stream_last"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.variant or 'overall'} #{self.sequence}: {self.rating:.1f}"


class OwedTask(models.Model):
    """A follow-up task (a standings or ratings recompute) that could not be handed to Celery
    after its write had committed, so it is still owed: games.services.owed runs it when a
    worker (re)connects to the broker, or at the beat's next owed-tasks run. In games (not
    tournaments) because the ratings service, here, owes its tasks too; its table kept its name
    from tournaments (``db_table``)."""

    task = models.CharField(max_length=200, help_text="the Celery task's name")
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_owedtask"
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class MatchReportCode(models.Model):
    """A player's code on a printed result slip: it opens the report page of its match
    (``/r/<code>/``) without an account, as that player. It works while the match is in
    progress; its reports and answers point back at it (ResultReport.reported_with,
    responded_with), so a result entered with a code is traced to the player whose code it was
    (docs/decisions.md D83)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="report_codes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    code = models.CharField(max_length=16, unique=True, help_text="random, from CODE_ALPHABET")
    label = models.CharField(
        max_length=200, blank=True, help_text="where the match is played, as the slip says"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="report_code_one_per_player")
        ]

    def __str__(self) -> str:
        return f"Report code of player {self.player_id} in match {self.match_id}"


class OpenChallenge(models.Model):
    """A challenge without a named opponent, posted on the lobby: anyone signed in with a
    player may take it, which creates the match between the two, accepted and started at once
    (games/services/challenges.py). It is a row of its own rather than a match with no second
    player, so every match keeps its two players (docs/decisions.md D91)."""

    class Status(models.TextChoices):
        OPEN = "open"
        TAKEN = "taken"
        WITHDRAWN = "withdrawn"
        EXPIRED = "expired"

    created_by = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    options = models.JSONField(default=dict, help_text="Options.to_json() of the engine")
    target_score = models.PositiveIntegerField(default=5)
    clock = models.JSONField(
        default=dict, blank=True, help_text="games.clock.ClockSettings JSON; {}: no clock"
    )
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    taken_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="open_challenge"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The lobby: the open ones newest first; a player's own open ones (the cap).
            models.Index(
                fields=["-created_at", "-id"],
                condition=Q(status="open"),
                name="openchallenge_open_created",
            ),
            models.Index(
                fields=["created_by"],
                condition=Q(status="open"),
                name="openchallenge_open_by",
            ),
        ]

    def __str__(self) -> str:
        return f"Open challenge {self.pk} by {self.created_by_id} ({self.status})"

    @property
    def preset(self) -> str:
        """The name of the rule preset the options are (games/engine/options.py PRESETS), or
        "" when they are options of their own."""
        rules = Options.from_json(self.options)
        for name, options in PRESETS.items():
            if replace(options, match_length=rules.match_length) == rules:
                return name
        return ""


class Notification(models.Model):
    """Something a user is told about one of their matches: a match ready for them, a result
    awaiting their confirmation, a challenge to answer. Made by the games services where the
    event happens, in its transaction, at most once an event (``notifications_add`` in
    games/services/_steps.py: the two unique constraints), listed on ``/notifications/`` and
    ``GET /api/v1/notifications/``; the first two kinds are also e-mailed, when the account
    has an address and its player's switch is on (docs/decisions.md D115, D116).

    The recipient is the account, not the player: only an account can read it, and an account
    detached from its player keeps what it was told."""

    class Kind(models.TextChoices):
        MATCH_READY = "match_ready"
        RESULT_TO_CONFIRM = "result_to_confirm"
        CHALLENGE_RECEIVED = "challenge_received"

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    report = models.ForeignKey(
        ResultReport,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="kind result_to_confirm: the report to confirm",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(
        null=True, blank=True, help_text="when its e-mail went out (sent once, never again)"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # A user's list, newest first; and their unread ones (the header's count).
            models.Index(fields=["recipient", "-created_at", "-id"], name="notification_recipient"),
            models.Index(
                fields=["recipient", "-created_at", "-id"],
                condition=Q(read_at__isnull=True),
                name="notification_unread",
            ),
        ]
        constraints = [
            # One event, one notification: a match's (kind) for each recipient, or a report's.
            models.UniqueConstraint(
                fields=["recipient", "kind", "match"],
                condition=Q(report__isnull=True),
                name="notification_once_a_match",
            ),
            models.UniqueConstraint(
                fields=["recipient", "kind", "report"],
                condition=Q(report__isnull=False),
                name="notification_once_a_report",
            ),
        ]

    def __str__(self) -> str:
        return f"Notification {self.pk} to {self.recipient_id}: {self.kind} {self.match_id}"
