"""Shapes of the tournaments API: strict inputs and read-only outputs."""

from __future__ import annotations

from typing import Any

from auditlog.models import LogEntry
from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api.serializers import MAX_ID, JSONObjectField, StrictSerializer, id_field
from games.api.serializers import (
    ClockSettingsSerializer,
    PlayerRefSerializer,
    ResultReportSerializer,
    claim_after_hours_field,
)
from games.engine.options import MAX_MATCH_LENGTH
from games.models import RatingHistory, ResultReport
from players.models import Club, Player, VariantRating
from tournaments.models import Entry, Stage, Standing, Tournament
from tournaments.services.lifecycle import MAX_BULK_ENTRIES

SETTINGS_FIELDS = [
    "name", "club", "starts_on", "ends_on", "format", "match_length", "options", "match_mode",
    "rotate_cycle", "third_place", "grand_final_reset", "consolation_rounds",
    "consolation_match_length", "double_round_robin", "groups", "knockout_per_group",
    "swiss_rounds", "tiebreak_order", "bye_points", "max_entries", "late_entry_until_round",
    "check_in_required", "seed_method", "rated", "clock", "claim_after_hours",
    "spectator_chances",
]  # fmt: skip


class TournamentInputSerializer(StrictSerializer, serializers.ModelSerializer[Tournament]):
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False, allow_null=True
    )
    options = JSONObjectField(required=False)
    tiebreak_order = serializers.ListField(child=serializers.CharField(), required=False)
    match_length = serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, required=False)
    consolation_match_length = serializers.IntegerField(
        min_value=1, max_value=MAX_MATCH_LENGTH, required=False, allow_null=True
    )
    groups = serializers.IntegerField(min_value=1, max_value=64, required=False)
    rated = serializers.BooleanField(
        required=False,
        help_text="its matches count for the ratings; default: true when you may run rated "
        "tournaments (staff, or the permission tournaments.run_rated_tournament)",
    )
    clock = ClockSettingsSerializer(
        required=False,
        allow_null=True,
        help_text="a match clock for every match (online only); {} or null: none",
    )
    claim_after_hours = claim_after_hours_field(required=False)

    class Meta:
        model = Tournament
        fields = SETTINGS_FIELDS


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entry_count = serializers.SerializerMethodField()
    clock = ClockSettingsSerializer(
        read_only=True, help_text="the match clock of every match; {}: none"
    )
    organisers: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="username"
    )

    class Meta:
        model = Tournament
        fields = [
            "id", *SETTINGS_FIELDS, "status", "registration_open", "current_round",
            "organisers", "entry_count", "created_at", "updated_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_entry_count(self, tournament: Tournament) -> int:
        count = getattr(tournament, "entry_count", None)
        if count is None:
            count = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
        return int(count)


class EntrySerializer(serializers.ModelSerializer[Entry]):
    player_name = serializers.CharField(source="player.display_name", read_only=True)
    rating = serializers.FloatField(source="player.rating", read_only=True)
    games_per_variant = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id", "player", "player_name", "rating", "seed", "status", "checked_in", "group",
            "joined_round", "games_per_variant",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"}})
    def get_games_per_variant(self, entry: Entry) -> dict[str, int]:
        counts = self.context.get("games_per_variant", {})
        return dict(counts.get(entry.player_id, {}))


class RegisterSerializer(StrictSerializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, help_text="default: yourself"
    )
    late_bye_points = serializers.FloatField(min_value=0, max_value=1, required=False)


class EntryBulkSerializer(StrictSerializer):
    players = serializers.ListField(
        child=id_field(),
        min_length=1,
        max_length=MAX_BULK_ENTRIES,
        help_text=f"1 to {MAX_BULK_ENTRIES} player ids, entered all together or not at all",
    )
    late_bye_points = serializers.FloatField(min_value=0, max_value=1, required=False)

    def validate_players(self, value: list[int]) -> list[Player]:
        found = Player.objects.in_bulk(value)
        if missing := [pk for pk in value if pk not in found]:
            raise serializers.ValidationError(f"no such player: {', '.join(map(str, missing))}")
        return [found[pk] for pk in value]


class SeedSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=Tournament.SeedMethod.choices, required=False)
    seeds = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        help_text="entry id → seed",
    )

    def validate_seeds(self, value: dict[str, int]) -> dict[int, int]:
        try:
            seeds = {int(key): seed for key, seed in value.items()}
        except ValueError as error:
            raise serializers.ValidationError("keys must be entry ids") from error
        if any(not 1 <= key <= MAX_ID for key in seeds):
            raise serializers.ValidationError(f"keys must be entry ids (1 to {MAX_ID})")
        return seeds


class PairSerializer(StrictSerializer):
    deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)


class DeadlineSerializer(StrictSerializer):
    deadline = serializers.DateTimeField(allow_null=True)
    stage = serializers.CharField(default=Stage.MAIN.value)


class OrganiserInputSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, help_text="the user to add as an organiser")


class NoShowSerializer(StrictSerializer):
    absent = serializers.ListField(
        child=id_field(),
        required=False,
        help_text="entry ids; default: not checked in",
    )
    stage = serializers.CharField(default=Stage.MAIN.value)


class CorrectSerializer(StrictSerializer):
    winner = id_field(
        required=False, help_text="entry id; without it both scores, the winner follows from them"
    )
    score_one = serializers.IntegerField(min_value=0, max_value=999, required=False)
    score_two = serializers.IntegerField(min_value=0, max_value=999, required=False)


class TournamentMatchRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="the tournament match (mid of /matches/{mid}/correct/)")
    key = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()


class TournamentReportSerializer(ResultReportSerializer):
    """A result report on one of the tournament's matches, with the match's players and its
    place in the tournament (answer it with the games API's confirm or override)."""

    tournament_match = TournamentMatchRefSerializer(source="match.tournament_match")
    player_one = PlayerRefSerializer(source="match.player_one")
    player_two = PlayerRefSerializer(source="match.player_two")

    class Meta(ResultReportSerializer.Meta):
        model = ResultReport
        fields = [
            *ResultReportSerializer.Meta.fields, "tournament_match", "player_one", "player_two",
        ]  # fmt: skip


class StandingSerializer(serializers.ModelSerializer[Standing]):
    player = serializers.IntegerField(source="entry.player_id", read_only=True)
    player_name = serializers.CharField(source="entry.player.display_name", read_only=True)
    seed = serializers.IntegerField(source="entry.seed", read_only=True)

    class Meta:
        model = Standing
        fields = [
            "section", "rank", "rank_last", "entry", "player", "player_name", "seed", "played",
            "match_wins", "match_losses", "match_points", "games_won", "points_for",
            "points_against", "point_diff", "buchholz", "median_buchholz", "sonneborn_berger",
            "head_to_head", "byes", "forfeits", "computed_at",
        ]  # fmt: skip
        read_only_fields = fields


class AuditEntrySerializer(serializers.ModelSerializer[LogEntry]):
    actor = serializers.CharField(source="actor.username", default=None, read_only=True)
    object = serializers.SerializerMethodField()
    action = serializers.SerializerMethodField()

    class Meta:
        model = LogEntry
        fields = ["id", "timestamp", "actor", "action", "object", "changes"]
        read_only_fields = fields

    def get_object(self, entry: LogEntry) -> str:
        return f"{entry.content_type.model} {entry.object_repr}"

    def get_action(self, entry: LogEntry) -> str:
        named = (entry.additional_data or {}).get("action")
        return str(named or entry.get_action_display())


class VariantRatingSerializer(serializers.ModelSerializer[VariantRating]):
    class Meta:
        model = VariantRating
        fields = ["variant", "rating", "experience", "games"]
        read_only_fields = fields


class RatingHistorySerializer(serializers.ModelSerializer[RatingHistory]):
    class Meta:
        model = RatingHistory
        fields = ["variant", "sequence", "match", "game", "rating", "change", "experience",
                  "rated_at"]  # fmt: skip
        read_only_fields = fields


class PlayerRatingSerializer(serializers.ModelSerializer[Player]):
    experience = serializers.IntegerField(source="rating_games", read_only=True)
    variant_ratings = VariantRatingSerializer(many=True, read_only=True)
    history = RatingHistorySerializer(source="rating_history", many=True, read_only=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "rating", "experience", "variant_ratings", "history"]
        read_only_fields = fields


class RatingRowSerializer(serializers.ModelSerializer[Player]):
    experience = serializers.IntegerField(source="rating_games", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "rating", "experience"]
        read_only_fields = fields
