"""Players, their clubs, their per-variant ratings and the codes that let a user claim a player.

The tables of the first three keep the names they had when these models lived in tournaments
(``db_table``), so moving them here changed no table (players/migrations/0001_initial.py)."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.signals import post_init
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

# The strengths of the computer players (games/practice.py; docs/decisions.md D131, D163).
COMPUTER_STRENGTHS = {
    "beginner": gettext_lazy("beginner"),
    "club": gettext_lazy("club"),
    "strong": gettext_lazy("strong"),
}


def computer_name(strength: str) -> str:
    """The name of the computer player of ``strength`` in the active language: "Computer
    (strong)", "Компјутер (силен)"."""
    return gettext("Computer (%s)") % COMPUTER_STRENGTHS.get(strength, strength)


def computer_stored_name(strength: str) -> str:
    """What a computer player's row stores as its ``display_name``, in no language: its name is
    made where it is shown (``computer_name``), so the row only orders and finds it."""
    return f"Computer ({strength})"


_computer_name_lazy = lazy(computer_name, str)


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 alpha-2 code")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_club"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays matches. Most club players never log in: ``user`` is their account
    when they have one (to play online, answer challenges and confirm results themselves), else
    null, and an organiser acts for them. Deleting the account keeps the player and results."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    display_name = models.CharField(max_length=80)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 alpha-2 code")
    # FIBS rating from games.services.ratings; rating_games holds the FIBS experience
    # (the sum of the lengths of the rated matches played).
    rating = models.FloatField(default=1500.0)
    rating_games = models.PositiveIntegerField(default=0)
    # The language of the pages for the player's account, one of settings.LANGUAGES, stored when
    # the player switches it (players.views.set_language) and put back in the language cookie at
    # each log-in (players.signals); "" until then: the browser's language is used.
    # db_default: rows written by older migrations' models get it too.
    language = models.CharField(max_length=10, blank=True, default="", db_default="")
    # The account's e-mail switches (the account page): a match ready for the player, a result
    # awaiting their confirmation (games.services.notifications; docs/decisions.md D116).
    email_match_ready = models.BooleanField(default=True, db_default=True)
    email_result_to_confirm = models.BooleanField(default=True, db_default=True)
    # A computer opponent of practice matches (games/practice.py; docs/decisions.md D131): its
    # strength ("beginner", "club", "strong"), "" for a person. Such a player has no account and
    # is left out of the ratings, the rankings, the online list and the player search.
    computer = models.CharField(max_length=10, blank=True, default="", db_default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # Who entered the player (an organiser through the API, or staff in the admin); null for
    # players from before this was recorded and for those created by a command.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        db_table = "tournaments_player"
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return str(self.display_name)

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.computer:  # the row keeps the neutral name; the instance shows it translated
            self.display_name = computer_stored_name(self.computer)
            super().save(*args, **kwargs)
            self.display_name = _computer_name_lazy(self.computer)
            return
        super().save(*args, **kwargs)

    @property
    def has_account(self) -> bool:
        return self.user_id is not None

    def belongs_to(self, user: object) -> bool:
        """Whether ``user`` is this player's account (never for a player without one, nor for
        an anonymous user)."""
        return self.user_id is not None and self.user_id == getattr(user, "pk", None)


def _computer_name_shown(sender: type[Player], instance: Player, **kwargs: Any) -> None:
    """A computer player's ``display_name`` is its name in the language active wherever it is
    shown (a template, a serializer, a message: a lazy string, docs/decisions.md D163), not the
    row's, so every page shows it in its reader's language whoever created it."""
    strength = instance.__dict__.get("computer")
    if strength:
        instance.display_name = _computer_name_lazy(strength)


post_init.connect(_computer_name_shown, sender=Player, dispatch_uid="players.computer_name")


class VariantRating(models.Model):
    """A player's FIBS rating from single games of one variant."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="variant_ratings")
    variant = models.CharField(max_length=16)
    rating = models.FloatField(default=1500.0)
    experience = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "tournaments_variantrating"
        ordering = ["player", "variant"]
        constraints = [
            models.UniqueConstraint(fields=["player", "variant"], name="variant_rating_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.variant}: {self.rating:.1f}"


class ClaimCode(models.Model):
    """A one-time code an organiser hands to a player without an account, so that the player's
    own user can take the record over (players.services.player_claim): typed on the claim page,
    or as the invitation link /join/<code>/ (a QR code on the desk and the slip). Only the
    SHA-256 of the code is stored, with the random ``nonce`` the server derives the code from
    with its SECRET_KEY (so a slip can print the link again; docs/decisions.md D87); a player
    has at most one code at a time, and a used code is deleted (the audit log keeps who made
    it, and who used it and when)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_codes")
    code_hash = models.CharField(max_length=64, unique=True)
    # Empty for the codes from before D87, which only their holder knows.
    nonce = models.CharField(max_length=32, blank=True, default="", db_default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"claim code for player {self.player_id}"
