"""Shapes of the players API: strict inputs (unknown fields are errors) and read-only outputs."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from common.api.serializers import StrictSerializer
from common.site import absolute_url
from players.models import Club, Player
from players.selectors import invitation_path
from players.services import MAX_BULK_PLAYERS

COUNTRY = re.compile(r"[A-Za-z]{2}")


class ClubRefSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name"]
        read_only_fields = fields


class PlayerSerializer(serializers.ModelSerializer[Player]):
    club = ClubRefSerializer(read_only=True, allow_null=True)
    experience = serializers.IntegerField(
        source="rating_games",
        read_only=True,
        help_text="FIBS experience: the sum of the lengths of the rated matches played",
    )
    has_account = serializers.BooleanField(
        read_only=True,
        help_text="the player has a user account; without one, organisers act for them",
    )

    class Meta:
        model = Player
        fields = [
            "id", "display_name", "club", "country", "rating", "experience", "has_account",
            "created_at",
        ]  # fmt: skip
        read_only_fields = fields


class PlayerInputSerializer(StrictSerializer):
    display_name = serializers.CharField(max_length=80)
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False, allow_null=True, default=None
    )
    country = serializers.CharField(
        max_length=2, required=False, allow_blank=True, default="", help_text="ISO 3166-1 alpha-2"
    )
    rating = serializers.FloatField(
        min_value=0,
        max_value=5000,
        required=False,
        allow_null=True,
        default=None,
        help_text="a starting FIBS rating; default 1500",
    )
    allow_duplicate = serializers.BooleanField(
        default=False,
        help_text="enter the player even though a player of the same club has the same name",
    )

    def validate_country(self, value: str) -> str:
        if value and not COUNTRY.fullmatch(value):
            raise serializers.ValidationError("expected a two-letter country code, e.g. MK")
        return value.upper()


class PlayerBulkInputSerializer(StrictSerializer):
    # DRF's stubs miss that many=True passes min_length and max_length to the list
    players = PlayerInputSerializer(  # type: ignore[call-arg]
        many=True,
        min_length=1,
        max_length=MAX_BULK_PLAYERS,
        help_text=f"1 to {MAX_BULK_PLAYERS} players, entered all together or not at all",
    )


class ClaimCodeSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player.pk")
    code = serializers.CharField(help_text="shown once: hand it to the player")
    expires_at = serializers.DateTimeField()
    invitation_url = serializers.SerializerMethodField(
        help_text="the invitation link with the code (/join/<code>/, at SITE_URL): whoever opens "
        "it signs up or logs in and takes the player in one step"
    )

    def get_invitation_url(self, issued: Any) -> str:
        return absolute_url(self.context.get("request"), invitation_path(issued.code))


class ClaimInputSerializer(StrictSerializer):
    code = serializers.CharField(
        max_length=200, help_text='e.g. "K7QF-3MZD-9XWA-PLEH", or the invitation link with it'
    )
