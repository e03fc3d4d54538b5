"""Admin registrations for matches, games, turns, result reports (turns are read-only), the
rating history (read-only: the ratings service computes it), the lobby's open challenges and
the notifications (read-only: the services make them)."""

from django.contrib import admin
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

from common.admin import ReadOnlyAdmin, RoundedRatings
from games.models import (
    Game,
    Match,
    Notification,
    OpenChallenge,
    RatingHistory,
    ResultReport,
    Turn,
)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["id", "player_one", "player_two", "mode", "status", "score_one", "score_two"]
    list_filter = ["status", "mode"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ["id", "match", "number", "variant", "status", "ply"]
    list_filter = ["variant", "status"]
    # The seed is secret until the game is over (the dice-proof endpoint reveals it then): it is
    # never a form field, a column, a search field or a sort key, and query-string lookups on it
    # (?seed__startswith=a, which Django's admin allows for any local field) are refused, so a
    # staff user cannot recover a running game's seed a digit at a time.
    exclude = ["seed"]
    readonly_fields = ["revealed_seed"]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split(LOOKUP_SEP)[0] == "seed":
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description=gettext_lazy("seed"))
    def revealed_seed(self, game: Game) -> str:
        if game.seed_revealed:
            return game.seed
        return gettext("hidden until the game is over")


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin[Turn]):
    """The turn log is append-only: the admin may look, never change."""

    list_display = ["game", "ply", "side", "kind", "dice", "moves"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin[ResultReport]):
    list_display = ["id", "match", "scope", "game_number", "winner", "kind", "points", "status"]
    list_filter = ["status"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(RoundedRatings, ReadOnlyAdmin[RatingHistory]):
    list_display = [
        "player", "variant", "sequence", "rating_shown", "change_shown", "match", "rated_at",
    ]  # fmt: skip
    fields = [
        "player", "match", "game", "variant", "sequence", "rating_shown", "change_shown",
        "experience", "rated_at",
    ]  # fmt: skip
    readonly_fields = ["rating_shown", "change_shown"]
    list_filter = ["variant"]
    search_fields = ["player__display_name"]
    date_hierarchy = "rated_at"
    list_select_related = ["player", "match"]


@admin.register(OpenChallenge)
class OpenChallengeAdmin(admin.ModelAdmin[OpenChallenge]):
    list_display = ["id", "created_by", "target_score", "rated", "status", "created_at"]
    list_filter = ["status", "rated"]
    raw_id_fields = ["created_by", "taken_by", "match"]


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin[Notification]):
    list_display = ["id", "recipient", "kind", "match", "created_at", "read_at", "emailed_at"]
    list_filter = ["kind"]
    search_fields = ["recipient__username"]
    list_select_related = ["recipient", "match__player_one", "match__player_two"]
