"""Models for players and clubs (tournaments and brackets come in a later issue)."""

from django.conf import settings
from django.db import models


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 alpha-2 code")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays matches; linked one-to-one to a Django user."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=80)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 alpha-2 code")
    # Filled in by the ratings issue; kept here so the table does not change shape then.
    rating = models.FloatField(default=1500.0)
    rating_games = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return self.display_name
